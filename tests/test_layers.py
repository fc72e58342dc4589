"""The layer rules of docs/architecture.md, checked on every import the package makes.

Read from the source with ``ast`` (nothing is imported, so a lazy import inside a function
or under ``TYPE_CHECKING`` counts like any other): the engine imports nothing of ours and
nothing outside the standard library; hardware only the engine's topology; drivers never
import web or the referee; the referee never imports web or the simulator; the command
modules never import the dispatcher (only ``__main__`` does); outside the referee, only
what its package exports is used; nothing in the package imports the firmware.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "keezbord"
FIRMWARE_MODULES = frozenset(p.stem for p in (ROOT / "firmware").glob("*.py")) | {"firmware"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, dotted
    target: str  # what it imports, dotted and absolute
    line: int

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str | None = None) -> list[Import]:
    """Every import in the file, absolute: ``import a.b``, ``from a import b`` (as ``a.b``,
    since ``b`` may be a submodule), relative forms resolved, and
    ``importlib.import_module("...")`` with a literal name."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def absolute(target: str, level: int) -> str:
        if not level:
            return target
        anchor = package.split(".")
        anchor = anchor[: len(anchor) - (level - 1)]
        return ".".join([*anchor, target] if target else anchor)

    out: list[Import] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [Import(name, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node.module or "", node.level)
            out.append(Import(name, base, node.lineno))
            out += [
                Import(name, f"{base}.{a.name}", node.lineno) for a in node.names if a.name != "*"
            ]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
        ):
            # The literal part of the name: all of "a.b", or "a.b." of f"a.b.{x}" (the
            # package whose submodule is picked at run time); ".x" is relative.
            arg = node.args[0]
            parts = (
                [arg]
                if isinstance(arg, ast.Constant)
                else (arg.values if isinstance(arg, ast.JoinedStr) else [])
            )
            literal = ""
            for part in parts:
                if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                    break
                literal += part.value
            dots = len(literal) - len(literal.lstrip("."))
            target = absolute(literal[dots:].rstrip("."), dots)
            if target:
                out.append(Import(name, target, node.lineno))
    return out


def package_imports(folder: str = "") -> list[Import]:
    return [imp for path in sorted((PACKAGE / folder).rglob("*.py")) for imp in imports_of(path)]


def ours(target: str) -> bool:
    return target == "keezbord" or target.startswith("keezbord.")


def within(target: str, *prefixes: str) -> bool:
    return any(target == p or target.startswith(p + ".") for p in prefixes)


def test_the_engine_imports_nothing_of_ours_and_only_the_standard_library() -> None:
    bad = [
        imp
        for imp in package_imports("engine")
        if (ours(imp.target) and not within(imp.target, "keezbord.engine"))
        or (
            not ours(imp.target)
            and imp.target.partition(".")[0] not in sys.stdlib_module_names
            and imp.target != "__future__"
            and not imp.target.startswith("__future__.")
        )
    ]
    assert not bad, "\n".join(map(str, bad))


def test_hardware_imports_only_the_engines_topology() -> None:
    bad = [
        imp
        for imp in package_imports("hardware")
        if ours(imp.target)
        and not within(imp.target, "keezbord.hardware", "keezbord.engine.topology")
        and imp.target != "keezbord.engine"
    ]  # "from keezbord.engine import topology"
    assert not bad, "\n".join(map(str, bad))


@pytest.mark.parametrize(
    ("folder", "forbidden"),
    [
        ("host/drivers", ("keezbord.host.web", "keezbord.host.referee")),
        ("host/referee", ("keezbord.host.web", "keezbord.host.sim")),
        ("host/commands", ("keezbord.host.cli",)),
    ],
)
def test_a_host_layer_never_imports_the_layers_above_it(
    folder: str, forbidden: tuple[str, ...]
) -> None:
    bad = [imp for imp in package_imports(folder) if within(imp.target, *forbidden)]
    assert not bad, "\n".join(map(str, bad))


def test_only_the_entry_point_imports_the_dispatcher() -> None:
    """``cli`` imports the commands (lazily); nothing imports ``cli`` but ``__main__``."""
    bad = [
        imp
        for imp in package_imports()
        if within(imp.target, "keezbord.host.cli")
        and imp.module not in ("keezbord.__main__", "keezbord.host.cli")
    ]
    assert not bad, "\n".join(map(str, bad))


def test_the_rest_of_the_package_uses_the_referee_through_its_front_door() -> None:
    """Outside keezbord/host/referee, only what ``keezbord.host.referee`` exports."""
    outside = [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if not p.is_relative_to(PACKAGE / "host" / "referee")
    ]
    exported = set(referee_exports())
    bad = [
        imp
        for path in outside
        for imp in imports_of(path)
        if within(imp.target, "keezbord.host.referee")
        and imp.target != "keezbord.host.referee"
        and imp.target.rpartition(".")[2] not in exported
    ]
    assert not bad, "\n".join(map(str, bad))


def referee_exports() -> list[str]:
    tree = ast.parse((PACKAGE / "host" / "referee" / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            assert isinstance(node.value, ast.List)
            return [
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    raise AssertionError("keezbord/host/referee/__init__.py has no __all__")


def test_nothing_in_the_package_imports_the_firmware() -> None:
    bad = [
        imp
        for imp in package_imports()
        if not ours(imp.target) and imp.target.partition(".")[0] in FIRMWARE_MODULES
    ]
    assert not bad, "\n".join(map(str, bad))


# -- the checker itself: each rule must be able to fail ---------------------------------


def test_the_checker_sees_lazy_relative_and_dynamic_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "from .state import Config\n"
        "from .. import session\n"
        "if TYPE_CHECKING:\n"
        "    from keezbord.host.web.hub import Hub\n"
        "def f() -> None:\n"
        "    import keezbord.host.sim.physical\n"
        "    importlib.import_module('keezbord.host.web.app')\n"
        "    importlib.import_module(f'keezbord.host.commands.{name}')\n"
        "    importlib.import_module(f'.{name}', __name__)\n"
    )
    targets = {imp.target for imp in imports_of(probe, "keezbord.host.referee.probe")}
    assert {
        "keezbord.host.referee.state",
        "keezbord.host.referee.state.Config",
        "keezbord.host.session",
        "keezbord.host.web.hub",
        "keezbord.host.sim.physical",
        "keezbord.host.web.app",
        "keezbord.host.commands",
        "keezbord.host.referee",
    } <= targets
    assert within("keezbord.host.web.hub.Hub", "keezbord.host.web")
    assert not within("keezbord.host.webhooks", "keezbord.host.web")
    assert "scan" in FIRMWARE_MODULES and "app" in FIRMWARE_MODULES
    assert len(package_imports("engine")) > 20  # the rules above read real files
