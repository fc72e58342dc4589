"""``keezbord board template|wiring|bom|geometry`` through the real dispatcher."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import Wiring
from keezbord.host.cli import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["board", *args])
    except SystemExit as e:  # argparse's own exits
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_template_svg_and_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.svg"
    code, text, _ = _run(
        capsys,
        "template",
        "--seats",
        "6",
        "--pitch",
        "22",
        "--hole-diameter",
        "12",
        "--puzzle",
        "--out",
        str(out),
    )
    assert code == 0 and "144 holes" in text and str(out) in text
    root = ET.parse(out).getroot()
    assert root.get("width", "").endswith("mm")
    assert "\u00d812 mm" in out.read_text() and "#c00000" in out.read_text()
    pdf = tmp_path / "board.pdf"
    code, text, _ = _run(capsys, "template", "--seats", "2", "--sheet", "a4", "--out", str(pdf))
    assert code == 0 and pdf.read_bytes().startswith(b"%PDF")


def test_wiring_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(capsys, "wiring", "--seats", "3", "--format", "json")
    assert code == 0
    w = Wiring.from_json(json.loads(text))
    assert w.topology == Topology(3) and w.chips == 9
    code, text, _ = _run(capsys, "wiring", "--seats", "3", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert code == 0 and len(rows) == 72 and rows[0]["input"] == "D7"
    code, text, _ = _run(capsys, "wiring", "--seats", "3", "--segment", "12")
    assert code == 0 and "chip  0:" in text and "D7/H=" in text and "(to VCC)" in text


def test_bom_and_power(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(capsys, "bom", "--seats", "8", "--brightness", "0.5", "--format", "json")
    d = json.loads(text)
    assert code == 0 and d["power"]["led_ma"] == pytest.approx(192 * 30)
    parts = {p["part"]: p["count"] for p in d["parts"]}
    assert parts["74HC165 shift register"] == 24 and parts["reed switch (normally open)"] == 192
    code, text, _ = _run(capsys, "bom", "--seats", "4", "--max-lit", "20")
    assert code == 0 and "20 of 96 LEDs" in text and "74AHCT125" in text


def test_geometry_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(capsys, "geometry", "--seats", "7")
    d = json.loads(text)
    assert code == 0 and len(d["holes"]) == 7 * 24 and d["shape"] == "polygon"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["template", "--seats", "9", "--out", "x.svg"], "seats must be 2 to 8"),
        (["template", "--seats", "4", "--out", "x.png"], ".svg or .pdf"),
        (["template", "--sheet", "b5", "--out", "x.svg"], "invalid choice"),
        (["template", "--seats", "four", "--out", "x.svg"], "invalid int value"),
        (["template"], "required"),
        (["wiring", "--segment", "3"], "segment must be at least"),
        (["wiring", "--pitch", "10", "--hole-diameter", "9"], "wood"),
        (["bom", "--brightness", "1.5"], "brightness"),
        (["bom", "--max-lit", "500"], "lit at once"),
        (["drill"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    words: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _out, err = _run(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert words in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())
