"""``keezbord board template|wiring|bom|geometry`` through the real dispatcher."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import Wiring
from keezbord.host.cli import main

ROOT = Path(__file__).resolve().parents[2]


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
    assert code == 0 and "chip  0:" in text and "H(6)=" in text and "(to 3V3)" in text


def test_bom_and_power(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(capsys, "bom", "--seats", "8", "--brightness", "0.5", "--format", "json")
    d = json.loads(text)
    assert code == 0 and d["power"]["led_ma"] == pytest.approx(192 * 30)
    parts = {p["part"]: p["count"] for p in d["parts"]}
    # 24 for the switches and the reference design's signature chip
    assert parts["74HC165 shift register"] == 25
    assert parts["reed switch"] == 192 + 20  # every hole, and 10 % spares (the glass breaks)
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
        (["bom", "--budget-ma", "0"], "budget"),
        (["bom", "--budget-ma", "nan"], "budget"),  # nan would silently lift the cap
        (["bom", "--budget-ma", "inf"], "finite"),
        (["bom", "--signature", "0x1FF"], "0 to 255"),
        (["wiring", "--signature", "A5"], "not a byte"),
        (["bom", "--config", "missing.toml"], "missing.toml"),
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


def _chain_edges(text: str) -> tuple[dict[int, tuple[str, int]], str]:
    """From the sheet: chip k -> (what feeds its DS, that chip's number); and the tail."""
    import re

    feeds = {}
    for m in re.finditer(
        r"chip (\d+) DS \(pin 10\) <- (chip|signature chip) (\d+) QH "
        r"\(pin 9\)",
        text,
    ):
        feeds[int(m.group(1))] = (m.group(2), int(m.group(3)))
    tail = re.search(r"(?:signature chip|chip) (\d+) DS \(pin 10\) to 3V3", text)
    assert tail is not None
    return feeds, tail.group(1)


def test_wiring_sheet_feeds_chip_k_from_chip_k_plus_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(capsys, "wiring", "--seats", "4")
    assert code == 0 and "each chip's QH to the next chip's DS" not in text
    feeds, tail = _chain_edges(text)
    # 12 switch chips and the signature chip 12: chip k's DS from chip k+1's QH
    assert feeds == {k: ("chip" if k < 11 else "signature chip", k + 1) for k in range(12)}
    assert tail == "12"
    assert (
        "chip 0 QH (pin 9) through 1 kΩ at the reader to Pico GP4 (Pico pin 6, SPI0 MISO) "
        "| Pi GPIO9" in text
    )
    assert "10 kΩ from the data line to GND at the reader (pulled DOWN" in text
    assert (
        "inputs hard-wired to 0xA5: H (pin 6), F (pin 4), C (pin 13), A (pin 11) to 3V3; "
        "G (pin 5), E (pin 3), D (pin 14), B (pin 12) to GND"
    ) in text
    for pin in (
        "VCC (pin 16)",
        "GND (pin 8)",
        "CLK INH (pin 15) to GND",
        "/PL (pin 1)",
        "CLK (pin 2)",
    ):
        assert pin in text
    # the inputs carry their pin numbers: A..D are pins 11..14, E..H pins 3..6
    assert "H(6)=" in text and "A(11)=" in text and "D(14)=" in text and "E(3)=" in text
    assert "/1OE (pin 1) to GND" in text and "VBUS" in text
    code, text, _ = _run(capsys, "wiring", "--seats", "2", "--segment", "7", "--signature", "none")
    feeds, tail = _chain_edges(text)
    assert feeds == {0: ("chip", 1), 1: ("chip", 2), 2: ("chip", 3)} and tail == "3"
    assert "signature chip" not in text and "chip 3 DS (pin 10) to 3V3" in text


def test_bom_power_from_the_configured_brightness_and_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        "[board]\nseats = 6\n[leds]\nbrightness = 0.2\nbudget_ma = 1500\n"
        "[scanner]\nsignature = 0x5A\n"
    )
    code, text, _ = _run(capsys, "bom", "--config", str(cfg), "--format", "json")
    d = json.loads(text)
    p = d["power"]
    assert code == 0 and p["leds"] == 144 and p["brightness"] == 0.2
    assert p["led_ma"] == pytest.approx(144 * 60 * 0.2)  # 1728 mA before the budget
    assert p["strip_ma"] == pytest.approx(1500) and p["budget_ma"] == 1500
    # the fuse sits above the worst case and below the thinnest power wire's rating
    assert p["total_ma"] * 1.25 / 1000 <= p["fuse_a"] < p["wire_a"]
    assert p["supply_a"] * 1000 >= p["total_ma"] * 1.25
    parts = {x["part"]: x for x in d["parts"]}
    assert "0x5A" in parts["74HC165 shift register"]["note"]
    assert parts["74HC165 shift register"]["count"] == 18 + 1
    notes = " ".join(d["notes"])
    assert "VBUS" in notes and "Never tie the board's 5 V" in notes
    assert "/1OE (pin 1) to GND" in notes and "VCC (pin 14)" in notes
    assert "logic GND" in notes and "one point only" in notes
    assert f"{p['wire_mm2']:g} mm²" in notes and "each of the 6 seat pieces" in notes
    # no budget: the full draw, a bigger fuse and thicker wire
    code, text, _ = _run(
        capsys,
        "bom",
        "--seats",
        "6",
        "--brightness",
        "1.0",
        "--budget-ma",
        "100000",
        "--format",
        "json",
    )
    big = json.loads(text)["power"]
    assert big["strip_ma"] == pytest.approx(144 * 60)
    assert big["fuse_a"] > p["fuse_a"] and big["wire_mm2"] > p["wire_mm2"]
    assert big["fuse_a"] < big["wire_a"]


def test_bom_defaults_to_the_config_defaults_not_a_fixed_quarter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, text, _ = _run(capsys, "bom", "--seats", "4", "--format", "json")
    p = json.loads(text)["power"]
    assert code == 0 and p["brightness"] == 0.4 and p["budget_ma"] == 2000
    assert p["strip_ma"] == pytest.approx(2000)


def test_wiring_sheet_follows_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text('[board]\nseats = 3\n[scanner]\nsignature = "none"\n')  # no chip
    code, text, _ = _run(capsys, "wiring", "--config", str(cfg))
    assert code == 0 and "3 seats" in text and "signature chip" not in text
    cfg.write_text("[board]\nseats = 3\n")  # the key left out: the reference design's
    code, text, _ = _run(capsys, "wiring", "--config", str(cfg))
    assert code == 0 and "inputs hard-wired to 0xA5" in text
    cfg.write_text("[board]\nseats = 3\n[scanner]\nsignature = 0x5A\n")
    code, text, _ = _run(capsys, "wiring", "--config", str(cfg))
    assert code == 0 and "inputs hard-wired to 0x5A" in text
    feeds, tail = _chain_edges(text)
    assert feeds[8] == ("signature chip", 9) and tail == "9"


# The 40-pin headers, from the Raspberry Pi and Pico pinouts (the Pi's is the same on a Pi 4
# and a Pi 5): physical pin -> signal.
PI_40 = {
    1: "3V3",
    6: "GND",
    9: "GND",
    11: "GPIO17",
    12: "GPIO18",
    13: "GPIO27",
    14: "GND",
    15: "GPIO22",
    17: "3V3",
    20: "GND",
    21: "GPIO9",
    23: "GPIO11",
    25: "GND",
    38: "GPIO20",
}
PICO_40 = {4: "GP2", 6: "GP4", 7: "GP5", 9: "GP6", 36: "3V3(OUT)", 38: "GND"}


def test_wiring_sheet_header_pins_match_the_pinouts_and_the_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every reader pin on the sheet carries its header pin, and it is the right one; the
    GPIOs it names are the ones the firmware and the Pi-direct config use by default."""
    import re
    import runpy

    from keezbord.host.config import BoardConfig

    code, text, _ = _run(capsys, "wiring", "--seats", "2", "--segment", "7")
    assert code == 0
    pi = re.findall(r"Pi (GPIO\d+|3V3) \(header pin (\d+)", text)
    pi += re.findall(r"(GPIO\d+) = header pin (\d+)", text)
    pi += re.findall(r"Pi [45] (GPIO\d+) \(header pin (\d+)", text)
    pico = re.findall(r"Pico (GP\d+|3V3\(OUT\)) \(Pico pin (\d+)", text)
    assert {n for n, _ in pi} >= {
        *("GPIO17", "GPIO11", "GPIO9", "GPIO18", "GPIO20", "GPIO27", "GPIO22", "3V3")
    }
    assert {n for n, _ in pico} >= {"GP5", "GP2", "GP4", "GP6", "3V3(OUT)"}
    for name, pin in pi:
        assert PI_40[int(pin)] == name
    for name, pin in pico:
        assert PICO_40[int(pin)] == name
    assert "GND (Pico pin 38)" in text and "GND (header pin 6, 9, 14, 20 or 25)" in text
    fw = runpy.run_path(str(ROOT / "firmware" / "board_config.py"))["DEFAULTS"]
    assert (fw["latch_pin"], fw["sck_pin"], fw["miso_pin"], fw["led_pin"]) == (5, 2, 4, 6)
    d = BoardConfig()
    assert (d.scanner.load_pin, d.scanner.clock_pin, d.scanner.data_pin) == (17, 27, 22)
    # The LED pin follows the backend: a Pi 4's SPI1 MOSI, a Pi 5's PIO pin.
    assert (d.leds.pin_for("neopixel-spi"), d.leds.pin_for("neopixel")) == (20, 18)


def test_bom_for_a_pi_direct_board_has_no_pico(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text('[board]\nseats = 2\n[scanner]\nkind = "gpio"\n')
    code, text, _ = _run(capsys, "bom", "--config", str(cfg), "--format", "json")
    d = json.loads(text)
    parts = {x["part"] for x in d["parts"]}
    notes = " ".join(d["notes"])
    assert code == 0 and "Raspberry Pi Pico" not in parts
    assert "VBUS" not in notes and "header pins 2 and 4" in notes
    code, text, _ = _run(capsys, "bom", "--seats", "2", "--format", "json")
    d = json.loads(text)
    assert "Raspberry Pi Pico" in {x["part"] for x in d["parts"]}
    assert "VBUS (pin 40)" in " ".join(d["notes"])


def test_the_led_data_input_is_pulled_down_on_the_sheet_and_in_the_bom(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # issue 24 item 7: with the reader off and the board's 5 V on, the 74AHCT125's 1A must
    # not float (random data at full current, past any software budget).
    code, sheet, _ = _run(capsys, "wiring", "--seats", "4")
    assert code == 0 and "1A (pin 2): 10 kΩ to GND at the 74AHCT125" in sheet
    code, bom, _ = _run(capsys, "bom", "--seats", "4", "--puzzle")
    pulls = re.search(r"10 kΩ resistor \(pull-down\)\s+(\d+)\s+pcs\s+(.*)", bom)
    # the data line, the 74AHCT125's 1A, and each of the 4 pieces' first LED DIN
    assert code == 0 and pulls is not None and pulls.group(1) == "6"
    assert "74AHCT125's 1A (pin 2) to GND" in pulls.group(2)
    assert "each piece's first LED DIN to GND" in pulls.group(2)
    assert "1A (pin 2) from the reader's LED pin with 10 kΩ to GND" in bom


@pytest.mark.parametrize("seats", [2, 4, 8])
def test_the_clk_and_pl_bus_has_a_series_resistor_and_a_schmitt_buffer_per_piece(
    capsys: pytest.CaptureFixture[str], seats: int
) -> None:
    # issue 24 item 8: 3-6 m of CLK and /PL through every piece, 13-25 non-Schmitt inputs.
    code, sheet, _ = _run(capsys, "wiring", "--seats", str(seats))
    assert code == 0 and "through a 33 Ω resistor at its pin" in sheet
    assert f"Every piece ({seats}): one 74LVC2G17" in sheet
    assert "1Y (pin 6) to this piece's chips' CLK" in sheet and "2Y (pin 4)" in sheet
    code, bom, _ = _run(capsys, "bom", "--seats", str(seats), "--puzzle")
    buffers = re.search(r"74LVC2G17 dual Schmitt-trigger buffer \(SOT-23-6\)\s+(\d+)", bom)
    assert buffers is not None and int(buffers.group(1)) == seats
    assert re.search(r"33 Ω resistor\s+2\s+pcs", bom)


def test_a_feed_carries_its_pieces_worst_case_not_the_average(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # issue 24 item 10: at brightness 0.4 one piece's 24 LEDs draw 576 mA, while the 2 A
    # budget shared by 4 pieces is 500 mA each on average.
    code, bom, _ = _run(capsys, "bom", "--seats", "4", "--puzzle")
    assert code == 0 and "Each feed carries up to 576 mA (all 24 LEDs of its piece lit" in bom
    assert "500 mA is the average share" in bom
