"""`keezbord selftest` stops at once, with the fix, when the reader or the chain is at fault:
no Pico on the port, a port where no firmware answers, the firmware's chain faults (its LOG
lines), the Pi-direct chain's check bits on the fake 74HC165 chain, and the same faults
planted with `--sim --faults`; in Dutch and English."""

from __future__ import annotations

import os
import pty
from pathlib import Path

import pytest

from keezbord.host.bringup import firmware_fault_kind, pico_preflight
from keezbord.host.cli import main
from keezbord.host.drivers import pins
from keezbord.host.drivers.fakes import Hc165Chain
from keezbord.host.drivers.link_serial import SerialLink
from keezbord.host.drivers.scanner_gpio import ChainPins

EXAMPLE = "[board]\nseats = 4\n"


def _stop(argv: list[str], capsys: pytest.CaptureFixture[str], lang: str = "en") -> tuple[str, str]:
    code = main([*argv, "--lang", lang])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return out, err


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "no Pico found"), ("nl", "geen Pico gevonden")],
)
def test_no_pico_stops_at_once_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    # The example's port absent: before, the walk went on and printed "96 missing".
    cfg = tmp_path / "board.toml"
    cfg.write_text(EXAMPLE + f'[scanner]\nport = "{tmp_path / "ttyACM9"}"\n')
    out, err = _stop(["selftest", "--config", str(cfg), "--timeout", "0.05"], capsys, lang)
    assert words in err and "ttyACM9" in err
    assert "keezbord firmware status" in err and "keezbord firmware install" in err
    assert "missing" not in out and "[1/" not in out


def test_a_port_where_no_firmware_answers_is_named() -> None:
    # A port that opens (a pty nobody writes to: a Pico without our firmware, or another
    # device): the preflight gives up after its wait and says so, with what to check.
    master, slave = pty.openpty()
    try:
        t = [0]

        def clock() -> int:
            t[0] += 100
            return t[0]

        link = SerialLink(os.ttyname(slave))
        found = pico_preflight(link, 96, 0xA5, clock, wait_ms=2000)
        link.close()
    finally:
        os.close(master)
        os.close(slave)
    assert found is not None and found.kind == "silent"
    assert "no firmware answers" in found.text.en and "geen firmware" in found.text.nl
    assert "keezbord firmware install" in found.text.en


def test_every_firmware_chain_fault_line_is_understood() -> None:
    # the firmware's own texts (firmware/scan.py), so the two cannot drift apart
    import sys

    sys.path.insert(0, str(Path(__file__).parents[2] / "firmware"))
    try:
        from scan import FAULT_TEXT  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    kinds = [firmware_fault_kind("chain fault: " + t) for t in FAULT_TEXT[1:]]
    assert kinds == ["open", "tail", "signature"]
    assert firmware_fault_kind("chain ok again") is None


def _gpio_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chain_setup: object) -> Path:
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        '[board]\nseats = 2\nsegment = 8\n[scanner]\nkind = "gpio"\nmethod = "bitbang"\n'
        "signature = 0xA5\n"
    )

    def factory() -> pins.MockPinFactory:
        f = pins.MockPinFactory()
        chain = Hc165Chain(f, 4, ChainPins(17, 27, 22), signature=0xA5)
        chain_setup(chain)  # type: ignore[operator]
        return f

    monkeypatch.setattr(pins, "RPiGPIOFactory", factory)
    return cfg


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_an_open_data_line_on_the_fake_chain_stops_the_selftest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    def unplug(chain: Hc165Chain) -> None:
        chain.data_connected = False

    cfg = _gpio_board(tmp_path, monkeypatch, unplug)
    out, err = _stop(["selftest", "--config", str(cfg), "--timeout", "0.05"], capsys, lang)
    assert ("open data line" if lang == "en" else "open datalijn") in err
    assert "[1/" not in out


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_wrong_signature_on_the_fake_chain_names_the_expected_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    def wrong_chip(chain: Hc165Chain) -> None:
        chain.signature = 0x5A

    cfg = _gpio_board(tmp_path, monkeypatch, wrong_chip)
    out, err = _stop(["selftest", "--config", str(cfg), "--timeout", "0.05"], capsys, lang)
    assert ("wrong signature" if lang == "en" else "verkeerde signatuur") in err
    assert "0xA5" in err and "scanner.signature" in err
    assert "0xA5" in out  # said before the walk, too


@pytest.mark.parametrize(
    ("fault", "en", "nl"),
    [
        ("no-pico", "no Pico found", "geen Pico gevonden"),
        ("open", "open data line", "open datalijn"),
        ("signature:0x5A", "wrong signature: the selftest expects 0xA5", "verwacht 0xA5"),
        ("cut:1", "every link between pieces", "elke verbinding tussen de stukken"),
    ],
)
def test_link_and_chain_faults_planted_in_the_simulated_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str, en: str, nl: str
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text(EXAMPLE + "[scanner]\nsignature = 0xA5\n")
    argv = ["selftest", "--sim", "--config", str(cfg), "--faults", fault]
    assert en in _stop(argv, capsys, "en")[1]
    assert nl in _stop(argv, capsys, "nl")[1]


def test_a_signature_chip_the_configuration_lacks_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    # a board built without the signature chip says so; the chip on it then reads as tail
    cfg.write_text(EXAMPLE + '[scanner]\nsignature = "none"\n')
    argv = ["selftest", "--sim", "--config", str(cfg), "--faults", "signature:0xA5"]
    assert "needs scanner.signature (the selftest expects none)" in _stop(argv, capsys)[1]
    assert "zet dan scanner.signature" in _stop(argv, capsys, "nl")[1]


def test_a_good_simulated_chain_walks_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text(EXAMPLE)  # the default: the sheet's signature chip, 0xA5
    assert main(["selftest", "--sim", "--config", str(cfg), "--quiet"]) == 0
    assert "96 holes: 96 ok" in capsys.readouterr().out
