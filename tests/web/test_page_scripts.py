"""The page's scripts under TypeScript's checker (issue 23): ``checkJs`` over the plain
scripts of keezbord/host/web/static (tsconfig.json) and of the club's pages
(tsconfig.club.json), with their JSDoc types and types/*.d.ts; nothing built or emitted.
``./dev.sh test`` runs the check itself before pytest; these tests hold the setup to what
it promises: every script is checked (new ones too), a mistake fails, the two page sets
stay apart, and each element a script looks up by id is on its page (the scripts' ``byId``
and ``$`` type it as present).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
CONFIGS = ("tsconfig.json", "tsconfig.club.json")
WEB = ROOT / "keezbord" / "host" / "web" / "static"
CLUB = ROOT / "keezbord" / "host" / "club" / "static"


@pytest.fixture(scope="module")
def tsc() -> Path:
    """typescript as package-lock.json pins it, after ``./dev.sh tsc`` (which installs it
    with ``npm ci`` unless its stamp says it is there, then checks both page sets) passed."""
    done = subprocess.run(
        ["bash", str(ROOT / "dev.sh"), "tsc"], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"./dev.sh tsc:\n{done.stdout}{done.stderr}"
    return TSC


def run(tsc: Path, root: Path, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tsc), "-p", str(root / config), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_every_script_is_in_exactly_one_checked_program(tsc: Path) -> None:
    scripts = {p.resolve() for p in (ROOT / "keezbord").rglob("static/**/*.js")}
    assert {p.parent for p in scripts} == {WEB, CLUB}
    listed: list[Path] = []
    for config in CONFIGS:
        out = run(tsc, ROOT, config, "--listFilesOnly").stdout.split()
        listed += [Path(f).resolve() for f in out if f.endswith(".js")]
    assert sorted(listed) == sorted(scripts)


def _copy_setup(tmp_path: Path) -> Path:
    """The configs, the types and both script folders, as in the repository."""
    for config in CONFIGS:
        shutil.copy(ROOT / config, tmp_path / config)
    shutil.copytree(ROOT / "types", tmp_path / "types")
    for folder in (WEB, CLUB):
        shutil.copytree(folder, tmp_path / folder.relative_to(ROOT))
    return tmp_path


def test_a_mistake_in_a_new_script_fails_the_check(tsc: Path, tmp_path: Path) -> None:
    root = _copy_setup(tmp_path)
    assert run(tsc, root, "tsconfig.json").returncode == 0
    # A script added later is picked up by the include globs, and its mistakes named.
    added = root / WEB.relative_to(ROOT) / "lessons.js"
    added.write_text('"use strict";\nfunction lesson() { app.lesson = seatName("2"); }\n')
    done = run(tsc, root, "tsconfig.json")
    assert done.returncode != 0
    assert "lessons.js(2," in done.stdout
    assert "Property 'lesson' does not exist on type 'App'" in done.stdout
    assert "'string' is not assignable to parameter of type 'number'" in done.stdout


def test_the_club_pages_see_none_of_the_board_pages_globals(tsc: Path, tmp_path: Path) -> None:
    root = _copy_setup(tmp_path)
    (root / CLUB.relative_to(ROOT) / "extra.js").write_text(
        '"use strict";\n(() => { byId("round").textContent = t("round"); })();\n'
    )
    done = run(tsc, root, "tsconfig.club.json")
    assert done.returncode != 0
    assert "Cannot find name 'byId'" in done.stdout and "Cannot find name 't'" in done.stdout


# -- the elements the scripts look up are there ------------------------------------------

LOOKUP = re.compile(r"""(?:byId|getElementById|\$)\(\s*["']([\w-]+)["']\s*\)""")
HTML_ID = re.compile(r"""\bid=["']([\w-]+)["']""")
MADE_ID = re.compile(r"""(?:\bid:\s*|\.id\s*=\s*)["']([\w-]+)["']""")  # el(..., { id: "x" })


def _ids(paths: list[Path], pattern: re.Pattern[str]) -> set[str]:
    return {m for p in paths for m in pattern.findall(p.read_text(encoding="utf-8"))}


@pytest.mark.parametrize(
    ("page", "scripts"),
    [
        (WEB / "index.html", sorted(WEB.glob("*.js"))),
        (CLUB / "control.html", [CLUB / "control.js"]),
        (CLUB / "scoreboard.html", [CLUB / "scoreboard.js"]),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else "",
)
def test_each_element_a_script_looks_up_is_on_its_page(page: Path, scripts: list[Path]) -> None:
    wanted = _ids(scripts, LOOKUP)
    there = _ids([page], HTML_ID) | _ids(scripts, MADE_ID)
    assert len(wanted) > 3
    assert not wanted - there, f"looked up, not on {page.name}: {sorted(wanted - there)}"


def test_the_id_readers_see_lookups_and_made_elements() -> None:
    text = 'byId("flag"); document.getElementById(\'conn\'); $("out"); el("p", { id: "boardnote" })'
    assert set(LOOKUP.findall(text)) == {"flag", "conn", "out"}
    assert MADE_ID.findall(text) == ["boardnote"]
