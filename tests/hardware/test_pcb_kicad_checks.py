"""The generated PCBs pass KiCad's own checks (ERC, DRC with schematic parity, on the
board with its zones filled), the checks catch a planted fault, and regenerating gives the
committed files byte for byte (hardware/<shape>/, fabrication outputs included)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pcb_exports import KICAD, ROOT, drc, erc

from keezbord.hardware.pcb_make import kicad_cli, make

pytestmark = KICAD
SHAPES = ["piece", "arm", "terminator"]


def _kicad_version() -> str:
    r = subprocess.run([kicad_cli(), "--version"], capture_output=True, text=True, check=False)
    return f"this is {r.stdout.strip() or 'unknown'}"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for shape in SHAPES:
        d = tmp_path_factory.mktemp(shape)
        make(shape, d)
        out[shape] = d
    return out


@pytest.fixture()
def cfg(tmp_path: Path) -> Path:
    return tmp_path / "kicad-config"


@pytest.mark.parametrize("shape", SHAPES)
def test_erc_and_drc_with_parity_are_clean(made: dict[str, Path], cfg: Path, shape: str) -> None:
    name = f"keezbord-{shape}"
    e = erc(made[shape], name, cfg)
    assert e.clean, e.items("violations")[:5]
    d = drc(made[shape], name, cfg)
    assert d.clean, (
        d.items("violations")[:5],
        d.items("unconnected_items")[:5],
        d.items("schematic_parity")[:5],
    )
    text = (made[shape] / f"{name}.kicad_pcb").read_text()
    assert "(filled_polygon" in text  # the zones were filled before the check


@pytest.mark.parametrize("shape", SHAPES)
def test_regeneration_gives_the_committed_files(made: dict[str, Path], shape: str) -> None:
    committed = ROOT / "hardware" / shape
    fresh = made[shape]
    names = sorted(p.relative_to(fresh).as_posix() for p in fresh.rglob("*") if p.is_file())
    kept = sorted(p.relative_to(committed).as_posix() for p in committed.rglob("*") if p.is_file())
    assert [n for n in kept if not n.endswith(".png")] == names
    for n in names:
        assert (fresh / n).read_bytes() == (committed / n).read_bytes(), (
            f"{shape}: {n} drifted from the committed file. After a change to the generator "
            f"(or a KiCad other than the 9.0.8 that made them: {_kicad_version()}), run "
            f"`keezbord board pcb --shape {shape} --out hardware/{shape}` and commit the result."
        )


def test_parity_catches_a_swapped_reed_and_a_missing_schematic(
    made: dict[str, Path], tmp_path: Path, cfg: Path
) -> None:
    name = "keezbord-piece"
    bad = tmp_path / "bad"
    shutil.copytree(made["piece"], bad)
    pcb = bad / f"{name}.kicad_pcb"
    text = pcb.read_text()
    # SW1's signal pad moved onto SW2's net: the board no longer matches the schematic
    sw1 = text.index('(property "Reference" "SW1"')
    pad = re.compile(r'\(net (\d+) "/SW_T-8"\)')
    m = pad.search(text, sw1)
    assert m is not None
    other = re.search(r'\(net (\d+) "/SW_T-7"\)', text)
    assert other is not None
    pcb.write_text(text[: m.start()] + f'(net {other.group(1)} "/SW_T-7")' + text[m.end() :])
    d = drc(bad, name, cfg)
    assert not d.clean and d.items("schematic_parity")
    # without its schematic, KiCad's parity check passes silently: ours does not
    clean = tmp_path / "noschematic"
    shutil.copytree(made["piece"], clean)
    (clean / f"{name}.kicad_sch").unlink()
    d = drc(clean, name, cfg)
    assert d.returncode == 0 and not d.clean


def test_drc_catches_a_track_too_close(made: dict[str, Path], tmp_path: Path, cfg: Path) -> None:
    name = "keezbord-piece"
    bad = tmp_path / "close"
    shutil.copytree(made["piece"], bad)
    pcb = bad / f"{name}.kicad_pcb"
    text = pcb.read_text()
    # a +3V3 track laid across U1's first pads
    u1 = re.search(r'\(footprint "SN74HC165D".*?\(at ([\d.]+) ([\d.]+)', text, re.S)
    assert u1 is not None
    x, y = float(u1.group(1)), float(u1.group(2))
    net = re.search(r'\(net (\d+) "/\+3V3"\)', text)
    assert net is not None
    seg = (
        f'\t(segment (start {x - 2.5} {y - 6}) (end {x - 2.5} {y + 6}) (width 0.25) (layer "F.Cu")'
        f' (net {net.group(1)}) (uuid "00000000-0000-4000-8000-000000000001"))\n'
    )
    pcb.write_text(text.replace("\t(embedded_fonts no)\n)", seg + "\t(embedded_fonts no)\n)"))
    d = drc(bad, name, cfg)
    assert not d.clean and d.items("violations")
