"""The package's import graph has no circles, lazy imports counted (docs/architecture.md).

An import made inside a function still runs, and a circle it closes is one an import at
the top would show: the next change to either module has to know about the other. So the
graph here holds every import ``tests/test_layers.py`` reads (lazy, relative and
``importlib.import_module`` ones) except those under ``if TYPE_CHECKING:``, which never
run. An edge goes to the module named (``from a.b import c``: to ``a.b.c`` when that is a
module, else to ``a.b``); a package's ``__init__`` that its submodules run first is not an
edge of its own, since Python imports a package before any submodule anyway.

A failure names each circle (its modules) and every import inside it, with its line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest
from test_layers import PACKAGE, Import, imports_of, module_name

Graph = dict[str, dict[str, list[Import]]]  # module -> the modules it imports -> how


def type_checking_lines(tree: ast.Module) -> set[int]:
    """The lines inside ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) blocks; their
    ``else`` branches run and count."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for stmt in node.body:
                lines.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return lines


def run_time_imports(path: Path, name: str | None = None) -> list[Import]:
    """The imports of the file that can run: all but those under ``TYPE_CHECKING``."""
    skip = type_checking_lines(ast.parse(path.read_text(), str(path)))
    return [imp for imp in imports_of(path, name) if imp.line not in skip]


def import_graph(files: Iterable[tuple[Path, str]]) -> Graph:
    """The graph of the modules given (path, dotted name): an edge to the longest prefix
    of each target that is one of them; self-imports (``from . import x`` in a package's
    ``__init__`` naming itself) left out."""
    files = list(files)
    modules = {name for _, name in files}
    graph: Graph = {name: {} for name in modules}
    for path, name in files:
        imps = run_time_imports(path, name)
        # ``from a import b, c`` reads as a, a.b and a.c: the names carry the edges (to a
        # itself when they are not modules), the base alone would add one to a's
        # ``__init__`` for every ``from . import sibling``.
        bases = {
            (x.line, x.target)
            for x in imps
            for y in imps
            if x.line == y.line and y.target.startswith(x.target + ".")
        }
        for imp in imps:
            if (imp.line, imp.target) in bases:
                continue
            target = imp.target
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].setdefault(target, []).append(imp)
    return graph


def package_graph() -> Graph:
    return import_graph((p, module_name(p)) for p in sorted(PACKAGE.rglob("*.py")))


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted, the list sorted: every circle lies inside one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def describe(graph: Graph, found: list[list[str]]) -> str:
    """Each circle's modules, then its imports: one line per import statement, the names
    it takes in brackets."""
    out = [f"{len(found)} import circle(s), imports inside functions counted:"]
    for component in found:
        members = set(component)
        out.append(f"- {', '.join(component)}")
        for module in component:
            for target, imps in sorted(graph[module].items()):
                if target not in members:
                    continue
                lines: dict[int, list[str]] = {}
                for imp in imps:
                    lines.setdefault(imp.line, []).append(imp.target[len(target) + 1 :])
                for line, names in sorted(lines.items()):
                    taken = ", ".join(n for n in names if n)
                    out.append(
                        f"    {module}:{line} imports {target}" + (f" ({taken})" if taken else "")
                    )
    return "\n".join(out)


def test_the_package_imports_no_circle() -> None:
    graph = package_graph()
    found = circles(graph)
    assert not found, describe(graph, found)


# The host's layers, bottom up (docs/architecture.md, "The host's inner layers"): a module
# imports its own layer and the layers of lower rank, never one above it nor a peer of the
# same rank. The engine, the hardware data, ``keezbord`` itself (its version) and the host
# package's empty ``__init__`` lie below them all (tests/test_layers.py has the engine's and
# the hardware's own rules).
HOST_LAYERS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (
        1,
        "values",
        tuple(
            f"keezbord.host.{m}"
            for m in (
                "events",
                "health",
                "card_registry",
                "club_settings",
                "jsontext",
                "paths",
                "roles",
                "errors",
                "extras",
                "search_budget",
            )
        ),
    ),
    (2, "drivers", ("keezbord.host.drivers",)),
    (
        3,
        "board",
        tuple(
            f"keezbord.host.{m}"
            for m in (
                "config",
                "config_table",
                "config_net",
                "config_voice",
                "selftest",
                "selftest_report",
                "bringup",
                "selftest_piece",
                "selftest_live",
                "selftest_leds",
            )
        ),
    ),
    (4, "referee", ("keezbord.host.referee",)),
    (
        5,
        "session",
        tuple(
            f"keezbord.host.{m}"
            for m in (
                "session",
                "journal",
                "journal_schema",
                "journal_sync",
                "journal_status",
                "journal_damage",
                "advisor",
            )
        ),
    ),
    (5, "voice", ("keezbord.host.voice",)),
    (6, "simulator", ("keezbord.host.sim",)),
    (6, "appliance", ("keezbord.host.appliance",)),
    (6, "lessons", ("keezbord.host.lessons",)),
    (7, "after the game", ("keezbord.host.analysis", "keezbord.host.puzzles")),
    (8, "web", ("keezbord.host.web",)),
    (8, "club", ("keezbord.host.club",)),
    (9, "commands", ("keezbord.host.cli", "keezbord.host.commands")),
)


def host_layer(module: str) -> tuple[int, str] | None:
    """The layer of a host module: the one naming the longest prefix of it."""
    best: tuple[int, int, str] | None = None
    for rank, name, prefixes in HOST_LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), rank, name)
    return None if best is None else (best[1], best[2])


def layer_violations(graph: Graph) -> list[str]:
    """Every host module without a layer, and every run-time import that goes up a layer
    or across to a peer."""
    out: list[str] = []
    for module in sorted(graph):
        if not module.startswith("keezbord.host."):
            continue
        mine = host_layer(module)
        if mine is None:
            out.append(f"{module} is in no layer (HOST_LAYERS here, docs/architecture.md)")
            continue
        for target, imps in sorted(graph[module].items()):
            theirs = host_layer(target)
            if theirs is None or theirs == mine or theirs[0] < mine[0]:
                continue
            how = "a peer" if theirs[0] == mine[0] else "above it"
            out += [f"{imp} ({mine[1]} imports {theirs[1]}, {how})" for imp in imps]
    return out


def test_each_host_layer_imports_only_the_layers_below_it() -> None:
    """Among others: ``config.BoardConfig`` holds the board's ``[club]`` section, so the
    value it holds (``ClubSettings``) is a value, not part of the club's MQTT link."""
    bad = layer_violations(package_graph())
    assert not bad, "\n".join(bad)


# -- the checker itself: it must be able to fail -----------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> list[tuple[Path, str]]:
    out = []
    for name, text in files.items():
        path = tmp_path / (name.replace(".", "_") + ".py")
        path.write_text(text)
        out.append((path, name))
    return out


def test_a_circle_closed_by_a_lazy_import_is_found_and_named(tmp_path: Path) -> None:
    files = _tree(
        tmp_path,
        {
            "pkg.a": "from pkg.b import B\n",
            "pkg.b": "def f() -> None:\n    from pkg.c import C\n",
            "pkg.c": "import pkg.a\n",
            "pkg.d": "from pkg import a\n",
        },
    )
    graph = import_graph(files)
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    text = describe(graph, circles(graph))
    assert "pkg.b:2 imports pkg.c (C)" in text and text.endswith("pkg.c:1 imports pkg.a")
    assert "pkg.d" not in text  # it imports the circle, it is not in it


def test_imports_under_type_checking_are_left_out_and_its_else_counted(tmp_path: Path) -> None:
    files = _tree(
        tmp_path,
        {
            "pkg.a": "import pkg.b\n",
            "pkg.b": (
                "import typing\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from pkg.a import A\n"
                "if typing.TYPE_CHECKING:\n"
                "    import pkg.a\n"
            ),
        },
    )
    assert circles(import_graph(files)) == []
    files[1][0].write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    pass\n"
        "else:\n"
        "    from pkg.a import A\n"
    )
    assert circles(import_graph(files)) == [["pkg.a", "pkg.b"]]


@pytest.mark.parametrize(
    "b",
    [
        "import importlib\ndef f() -> None:\n    importlib.import_module('pkg.a')\n",
        "from .a import thing\n",
        "from . import a\n",
    ],
)
def test_dynamic_and_relative_imports_close_circles_too(tmp_path: Path, b: str) -> None:
    files = _tree(tmp_path, {"pkg": "", "pkg.a": "from pkg import b\n", "pkg.b": b})
    assert circles(import_graph(files)) == [["pkg.a", "pkg.b"]]


def test_the_layer_rule_names_an_import_up_or_across_and_a_module_in_no_layer() -> None:
    graph = package_graph()
    # What config.py did before issue 23: the club's link above it held ClubSettings.
    up = Import("keezbord.host.config", "keezbord.host.club.board_link.ClubSettings", 18)
    graph["keezbord.host.config"]["keezbord.host.club.board_link"] = [up]
    across = Import("keezbord.host.sim.table", "keezbord.host.appliance.qr", 3)
    graph["keezbord.host.sim.table"]["keezbord.host.appliance.qr"] = [across]
    graph["keezbord.host.tutor"] = {}
    assert layer_violations(graph) == [
        "keezbord.host.config:18 imports keezbord.host.club.board_link.ClubSettings "
        "(board imports club, above it)",
        "keezbord.host.sim.table:3 imports keezbord.host.appliance.qr "
        "(simulator imports appliance, a peer)",
        "keezbord.host.tutor is in no layer (HOST_LAYERS here, docs/architecture.md)",
    ]
    assert host_layer("keezbord.host.web.hub") == (8, "web")
    assert host_layer("keezbord.host.journal_schema") == (5, "session")
    assert host_layer("keezbord.host.journalist") is None


def test_the_graph_reads_the_real_package() -> None:
    graph = package_graph()
    assert len(graph) > 100
    assert "keezbord.engine.movegen" in graph["keezbord.engine.bots"]
    # engine/__init__.py imports its names under TYPE_CHECKING only (and lazily, by a
    # name built at run time, from itself): no edge to its modules.
    assert not graph["keezbord.engine"]
