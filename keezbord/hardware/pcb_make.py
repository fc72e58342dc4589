"""Make a piece's KiCad project and its fabrication outputs: the generated text files, the
zones filled by KiCad's own filler (pcbnew, in Debian's /usr/bin/python3), then the Gerbers,
drill files, pick-and-place file and assembly BOM exported by ``kicad-cli``.

The outputs are made reproducible: the lines that carry a date or KiCad's version (a
Gerber's creation date and generator comment, a drill file's header comments) are dropped,
as a fab reads neither; the Gerber job file is not kept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from keezbord.hardware.pcb_board import board_text, project_text
from keezbord.hardware.pcb_design import Design, design
from keezbord.hardware.pcb_plug import plug_design
from keezbord.hardware.pcb_route import route
from keezbord.hardware.pcb_sch import schematic_text

SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, whose pcbnew module comes with KiCad
FILL_SCRIPT = Path(__file__).with_name("pcb_fill.py")
GERBER_LAYERS = "F.Cu,B.Cu,F.Mask,B.Mask,F.Paste,F.SilkS,B.SilkS,Edge.Cuts"
_VOLATILE = ("CreationDate", "G04 Created by", "GenerationSoftware", ";DRILL file", "; DRILL file")
BOM_FIELDS = "Reference,Value,Footprint,MPN,${QUANTITY}"


class KicadMissing(RuntimeError):
    """kicad-cli or pcbnew is not installed."""


def kicad_cli() -> str:
    found = shutil.which("kicad-cli")
    if found is None:
        raise KicadMissing(
            "kicad-cli not found: install KiCad 9 (Debian bookworm-backports' kicad; ./dev.sh "
            "test does)"
        )
    return found


def kicad_env(config_home: Path) -> dict[str, str]:
    """The environment for KiCad's tools: their settings in ``config_home``, not ~/.config."""
    env = dict(os.environ)
    env["KICAD_CONFIG_HOME"] = str(config_home)
    return env


def run(
    args: list[str], env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, check=False)


def fill_zones(pcb: Path, env: dict[str, str]) -> None:
    """Fill the board's zones with pcbnew's ZONE_FILLER, beside a copy of its project (the
    filler reads the design rules there) so the project file itself is left as written."""
    if not Path(SYSTEM_PYTHON).exists():
        raise KicadMissing(f"{SYSTEM_PYTHON} not found (pcbnew's Python)")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        shutil.copy(pcb, t / pcb.name)
        shutil.copy(pcb.with_suffix(".kicad_pro"), t / pcb.with_suffix(".kicad_pro").name)
        r = run([SYSTEM_PYTHON, str(FILL_SCRIPT), str(t / pcb.name)], env)
        if r.returncode != 0:
            last = (r.stderr.strip().splitlines() or ["no output"])[-1]
            if "pcbnew" in r.stderr:
                raise KicadMissing(f"pcbnew cannot be imported by {SYSTEM_PYTHON}: {last}")
            raise RuntimeError(f"zone fill failed: {last}")
        shutil.copy(t / pcb.name, pcb)


def write_project(d: Design, out: Path) -> list[Path]:
    """The three KiCad files of the design, unfilled."""
    out.mkdir(parents=True, exist_ok=True)
    files = {
        out / f"{d.name}.kicad_pro": project_text(d),
        out / f"{d.name}.kicad_sch": schematic_text(d),
        out / f"{d.name}.kicad_pcb": board_text(d, route(d)),
    }
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)


def _normalise(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(
        "".join(x for x in lines if not any(v in x for v in _VOLATILE)), encoding="utf-8"
    )


def export_fab(d: Design, out: Path, env: dict[str, str]) -> list[Path]:
    """Gerbers, drill files, the position file (origin at the start hole) and the BOM."""
    cli = kicad_cli()
    pcb, sch = out / f"{d.name}.kicad_pcb", out / f"{d.name}.kicad_sch"
    fab = out / "fab"
    if fab.exists():
        shutil.rmtree(fab)
    fab.mkdir()
    steps = [
        [cli, "pcb", "export", "gerbers", "--layers", GERBER_LAYERS, "-o", f"{fab}/", str(pcb)],
        [
            cli,
            "pcb",
            "export",
            "drill",
            "--format",
            "excellon",
            "--excellon-separate-th",
            "-o",
            f"{fab}/",
            str(pcb),
        ],
        [
            cli,
            "pcb",
            "export",
            "pos",
            "--format",
            "csv",
            "--units",
            "mm",
            "--side",
            "both",
            "--use-drill-file-origin",
            "-o",
            str(fab / f"{d.name}-pos.csv"),
            str(pcb),
        ],
        [
            cli,
            "sch",
            "export",
            "bom",
            "--fields",
            BOM_FIELDS,
            "--labels",
            "Designator,Value,Footprint,MPN,Quantity",
            "--group-by",
            "Value,Footprint,MPN",
            "--exclude-dnp",
            "-o",
            str(fab / f"{d.name}-bom.csv"),
            str(sch),
        ],
    ]
    for args in steps:
        r = run(args, env)
        if r.returncode != 0:
            raise RuntimeError(
                f"{' '.join(args[1:4])} failed: {r.stderr.strip() or r.stdout.strip()}"
            )
    for job in fab.glob("*.gbrjob"):
        job.unlink()
    files = sorted(fab.iterdir())
    for f in files:
        _normalise(f)
    return files


def board_design(shape: str) -> Design:
    """The design of a shape: a piece, an arm, or the terminator plug."""
    return plug_design() if shape == "terminator" else design(shape)


def make(shape: str, out: Path, *, fab: bool = True) -> list[Path]:
    """Generate, fill and (with ``fab``) export one shape's project into ``out``."""
    d = board_design(shape)
    kicad_cli()
    files = write_project(d, out)
    with tempfile.TemporaryDirectory() as cfg:
        env = kicad_env(Path(cfg))
        fill_zones(out / f"{d.name}.kicad_pcb", env)
        if fab:
            files += export_fab(d, out, env)
    return files
