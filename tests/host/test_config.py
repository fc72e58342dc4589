"""The board configuration: the example validates, bad input gives one line naming the key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from keezbord.host.cli import main
from keezbord.host.config import BoardConfig, ConfigError, find_config, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "board.example.toml"


def test_example_loads_and_matches_the_defaults_it_documents() -> None:
    cfg = load_config(EXAMPLE)
    assert (cfg.seats, cfg.segment, cfg.profile, cfg.hints) == (4, 16, "standard", "targets")
    assert cfg.scanner.kind == "pico-serial" and cfg.scanner.data_pin == 22
    assert cfg.rfid.reader == "pn532"
    assert cfg.cards == EXAMPLE.parent / "cards.json"  # relative to the file
    assert cfg.led_driver == "pico-serial"
    s = cfg.leds.settings()
    assert s.brightness == 0.4 and s.budget_ma == 2000.0
    assert s.styles["target"].colour == (0x00, 0x9E, 0x73)
    # the example spells out the defaults (same values as no file at all), the reference
    # design's signature chip included: a board built by the sheet whose board.toml
    # leaves the key out reads its signature chip, never a chain fault on every scan
    d = BoardConfig()
    assert cfg.scanner.signature == 0xA5 == d.scanner.signature
    assert cfg.scanner.method == "spi" and cfg.scanner.spi_hz == 1_000_000
    assert (cfg.scanner, cfg.rfid, cfg.seats) == (d.scanner, d.rfid, d.seats)


def test_one_signature_default_everywhere() -> None:
    """The configuration, the firmware, the wiring sheet and the BOM build the same chip."""
    import inspect
    import sys

    from keezbord.hardware.bom import bill_of_materials
    from keezbord.hardware.wiring import REFERENCE_SIGNATURE

    sys.path.insert(0, str(EXAMPLE.parents[1] / "firmware"))
    import board_config  # type: ignore[import-not-found]

    assert REFERENCE_SIGNATURE == 0xA5
    assert parse_config({}).scanner.signature == REFERENCE_SIGNATURE
    assert parse_config({"scanner": {}}).scanner.signature == REFERENCE_SIGNATURE
    assert board_config.DEFAULTS["signature"] == REFERENCE_SIGNATURE
    default = inspect.signature(bill_of_materials).parameters["signature"].default
    assert default == REFERENCE_SIGNATURE
    # a board without the chip says so in words (TOML has no null)
    assert parse_config({"scanner": {"signature": "none"}}).scanner.signature is None


def test_a_gpio_board() -> None:
    cfg = parse_config(
        {
            "board": {"seats": 6, "wiring": "w.json"},
            "scanner": {"kind": "gpio", "data_pin": 5},
            "leds": {"palette": {"error": "#ff0000"}, "budget_ma": 900},
        },
        base=Path("/boards"),
    )
    assert cfg.topology().ring == 96
    # auto: the backend that runs without root: SPI1 on GPIO20, a Pi 5's PIO on GPIO18
    assert cfg.leds.led_driver_for("gpio", 4) == "neopixel-spi"
    assert cfg.leds.led_driver_for("gpio", 5) == "neopixel"
    assert cfg.leds.pin_for("neopixel-spi") == 20 and cfg.leds.pin_for("neopixel") == 18
    assert cfg.wiring == "/boards/w.json"
    assert cfg.leds.settings().styles["error"].colour == (255, 0, 0)
    # SPI reads the chain on GPIO9/11: data_pin is unused then and may be the LED pin
    spi = parse_config(
        {"scanner": {"kind": "gpio", "data_pin": 18}, "leds": {"driver": "neopixel"}}
    )
    assert spi.scanner.method == "spi" and spi.led_pin == 18
    # GPIO14/15 are free when the reader sits on a USB serial adapter (or there is none)
    usb = parse_config(
        {"scanner": {"kind": "gpio", "load_pin": 14}, "rfid": {"port": "/dev/ttyUSB0"}}
    )
    assert usb.scanner.load_pin == 14
    assert (
        parse_config(
            {"scanner": {"kind": "gpio", "load_pin": 14}, "rfid": {"reader": "none"}}
        ).scanner.load_pin
        == 14
    )


@pytest.mark.parametrize(
    ("data", "key", "problem"),
    [
        ({"board": {"seats": 9}}, "board.seats", "2 to 8"),
        ({"board": {"seats": "four"}}, "board.seats", "whole number"),
        ({"board": {"seets": 4}}, "board.seets", "unknown key"),
        ({"bord": {}}, "bord", "unknown key"),
        ({"board": {"profile": "chaos"}}, "board.profile", "one of"),
        ({"board": {"hints": "all"}}, "board.hints", "off, targets, full"),
        ({"board": 3}, "board", "table"),
        ({"scanner": {"kind": "usb"}}, "scanner.kind", "pico-serial, gpio"),
        ({"scanner": {"clock_pin": 40}}, "scanner.clock_pin", "2 to 27"),
        ({"scanner": {"clock_pin": 22}}, "scanner", "must differ"),
        ({"scanner": {"debounce": 0}}, "scanner.debounce", "1 to 20"),
        ({"scanner": {"signature": 256}}, "scanner.signature", "0 to 255"),
        ({"scanner": {"signature": "A5"}}, "scanner.signature", '"none"'),
        ({"scanner": {"signature": True}}, "scanner.signature", "byte"),
        ({"scanner": {"method": "usb"}}, "scanner.method", "spi, bitbang"),
        ({"scanner": {"spi_hz": 20_000_000}}, "scanner.spi_hz", "10000 to 8000000"),
        ({"scanner": {"kind": "gpio", "load_pin": 9}}, "scanner.load_pin", "SPI0"),
        ({"scanner": {"kind": "gpio"}, "leds": {"pin": 10}}, "leds.pin", "SPI0 MOSI"),
        (
            {"scanner": {"kind": "gpio", "load_pin": 18}, "leds": {"driver": "neopixel"}},
            "leds.pin",
            "scanner.load_pin",
        ),
        (
            {"scanner": {"kind": "gpio", "load_pin": 20}, "leds": {"driver": "neopixel-spi"}},
            "leds.pin",
            "scanner.load_pin",
        ),
        (
            {"scanner": {"kind": "gpio"}, "leds": {"driver": "neopixel-spi", "pin": 18}},
            "leds.pin",
            "GPIO20 (SPI1",
        ),
        ({"scanner": {"kind": "gpio", "load_pin": 14}}, "scanner.load_pin", "card reader's UART"),
        (
            {
                "scanner": {"kind": "gpio", "method": "bitbang", "data_pin": 15},
                "rfid": {"port": "/dev/ttyAMA0"},
            },
            "scanner.data_pin",
            "card reader's UART",
        ),
        (
            {
                "scanner": {"kind": "gpio", "method": "bitbang", "data_pin": 21},
                "leds": {"pin": 21, "driver": "neopixel"},
            },
            "leds.pin",
            "scanner.data_pin",
        ),
        ({"leds": {"brightness": 1.5}}, "leds.brightness", "0 to 1"),
        ({"leds": {"brightness": True}}, "leds.brightness", "number"),
        ({"leds": {"pin": 4}}, "leds.pin", "NeoPixel"),
        ({"leds": {"palette": {"target": "green"}}}, "leds.palette.target", "#RRGGBB"),
        ({"leds": {"palette": {"glow": "#000000"}}}, "leds.palette.glow", "unknown key"),
        ({"leds": {"patterns": {"error": "disco"}}}, "leds.patterns.error", "one of"),
        (
            {"scanner": {"kind": "gpio"}, "leds": {"driver": "pico-serial"}},
            "leds.driver",
            "pico-serial",
        ),
        ({"rfid": {"reader": "nfc"}}, "rfid.reader", "pn532, rdm6300, none"),
        ({"rfid": {"port": ""}}, "rfid.port", "non-empty"),
        ({"files": {"cards": 7}}, "files.cards", "string"),
    ],
)
def test_bad_config_names_the_key(data: dict[str, object], key: str, problem: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config(data, "board.toml")
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"board.toml: {key}: ")
    assert problem in msg


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "board.toml"
    p.write_text("[board\nseats = 4\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(p)
    with pytest.raises(OSError):
        load_config(tmp_path / "nope.toml")


def test_find_config_prefers_the_flag_then_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert find_config(None) == BoardConfig()
    (tmp_path / "board.toml").write_text("[board]\nseats = 3\n")
    assert find_config(None).seats == 3
    (tmp_path / "six.toml").write_text("[board]\nseats = 6\n")
    assert find_config("six.toml").seats == 6


def test_example_is_valid_toml_with_only_known_sections() -> None:
    data = tomllib.loads(EXAMPLE.read_text())
    assert set(data) == {"board", "scanner", "leds", "rfid", "files"}


def test_command_with_a_bad_config_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "board.toml"
    p.write_text("[board]\nseats = 12\n")
    assert main(["cards", "list", "--config", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board.seats" in err


def test_wiring_default_or_from_a_json_file(tmp_path: Path) -> None:
    import json

    from keezbord.hardware.wiring import default_wiring

    cfg = parse_config({"board": {"seats": 3}})
    w = cfg.load_wiring()
    assert w == default_wiring(cfg.topology())
    (tmp_path / "w.json").write_text(json.dumps(w.to_json()))
    cfg2 = parse_config({"board": {"seats": 3, "wiring": "w.json"}}, "b.toml", tmp_path)
    assert cfg2.load_wiring().led_order == w.led_order
    (tmp_path / "w.json").write_text("{nope")
    with pytest.raises(ConfigError, match="not valid JSON"):
        cfg2.load_wiring()
    (tmp_path / "w.json").write_text('{"seats": 3}')
    with pytest.raises(ConfigError, match=r"^b\.toml: board\.wiring: "):
        cfg2.load_wiring()


def test_search_budgets_in_ms() -> None:
    assert (BoardConfig().hint_ms, BoardConfig().coach_ms) == (100, 100)
    assert (load_config(EXAMPLE).hint_ms, load_config(EXAMPLE).coach_ms) == (100, 100)
    cfg = parse_config({"board": {"hints": "full", "hint_ms": 200, "coach_ms": 50}})
    assert (cfg.hint_ms, cfg.coach_ms) == (200, 50)
    with pytest.raises(ConfigError, match="hint_ms"):
        parse_config({"board": {"hint_ms": 0}})
