"""One board's configuration: a TOML file (see docs/board.example.toml).

Every key is optional; defaults fit a 4-seat board on a Pico over USB. Unknown keys are
refused (a typo must not silently fall back to a default). Errors are one line naming
the file, the key and the problem. Relative paths are relative to the file's folder.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from keezbord.engine.profiles import PROFILES
from keezbord.engine.topology import MAX_SEATS, MIN_SEATS, MIN_SEGMENT, Topology
from keezbord.hardware.wiring import REFERENCE_SIGNATURE
from keezbord.host.club_settings import ClubSettings, LinkSettings
from keezbord.host.config_net import RemoteSettings, club_section, link_section, remote_section
from keezbord.host.config_table import ConfigError as ConfigError
from keezbord.host.config_table import Section
from keezbord.host.config_voice import VoiceSettings, voice_section
from keezbord.host.drivers import pi
from keezbord.host.drivers.leds import PATTERNS, ROLES, LedSettings, parse_colour
from keezbord.host.drivers.parts import (
    DEFAULT_GAP_MS,
    DEFAULT_SPI_HZ,
    READ_METHODS,
    SPI0_PINS,
    SPI_LED_PINS,
    SPI_MAX_HZ,
    ReadMethod,
    led_pin_problem,
)

ScannerKind = Literal["pico-serial", "gpio"]
Hints = Literal["off", "targets", "full", "coach"]
SCANNER_KINDS: Final = ("pico-serial", "gpio")
LED_DRIVERS: Final = ("auto", "pico-serial", "neopixel", "neopixel-spi", "none")
RFID_READERS: Final = ("pn532", "rdm6300", "none")
HINTS: Final = ("off", "targets", "full", "coach")
DEFAULT_CONFIG_NAME: Final = "board.toml"


@dataclass(frozen=True, slots=True)
class ScannerConfig:
    kind: ScannerKind = "pico-serial"
    port: str = "/dev/ttyACM0"
    load_pin: int = 17
    clock_pin: int = 27
    data_pin: int = 22
    debounce: int = 3
    scan_hz: int = 500
    # The signature chip's byte, read after the switch chips (None: no signature chip).
    # Default: the reference design's 0xA5, the chip the wiring sheet and the BOM build.
    signature: int | None = REFERENCE_SIGNATURE
    method: ReadMethod = "spi"  # gpio: SPI0 (SCLK GPIO11, MISO GPIO9) or bit-banged
    spi_hz: int = DEFAULT_SPI_HZ


def _this_pis_generation() -> int | None:
    return pi.pi_generation(pi.pi_model(pi.PI_MODEL_PATH))


@dataclass(frozen=True, slots=True)
class LedConfig:
    # auto: over the Pico with pico-serial; with gpio the Pi's backend that runs as the
    # service's user (no root): a Pi 5's PIO ("neopixel"), else SPI ("neopixel-spi").
    driver: str = "auto"
    pin: int | None = None  # None: the backend's own (neopixel GPIO18, neopixel-spi GPIO20)
    brightness: float = 0.4
    budget_ma: float | None = 2000.0
    palette: Mapping[str, str] = field(default_factory=dict)
    patterns: Mapping[str, str] = field(default_factory=dict)

    def led_driver_for(self, kind: str, generation: int | None = -1) -> str:
        """The backend: ``generation`` is the Pi's (-1: this machine's)."""
        if self.driver != "auto":
            return self.driver
        if kind == "pico-serial":
            return "pico-serial"
        gen = _this_pis_generation() if generation == -1 else generation
        return "neopixel" if gen == 5 else "neopixel-spi"

    def pin_for(self, driver: str) -> int:
        if self.pin is not None:
            return self.pin
        return SPI_LED_PINS[0] if driver == "neopixel-spi" else 18

    def settings(self) -> LedSettings:
        return LedSettings(brightness=self.brightness, budget_ma=self.budget_ma).with_overrides(
            self.palette, self.patterns
        )


@dataclass(frozen=True, slots=True)
class RfidConfig:
    reader: str = "pn532"
    # The UART on GPIO14/15: /dev/ttyAMA0 on a Pi 5, /dev/serial0 elsewhere (drivers/pi.py).
    port: str = field(default_factory=lambda: pi.default_rfid_port(pi.PI_MODEL_PATH))
    tap_gap_ms: int = DEFAULT_GAP_MS


@dataclass(frozen=True, slots=True)
class BoardConfig:
    source: str = "(defaults)"
    seats: int = 4
    segment: int = 16
    profile: str = "standard"
    wiring: str = "default"  # "default" or a path to a wiring JSON
    hints: Hints = "targets"
    scanner: ScannerConfig = field(default_factory=ScannerConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    rfid: RfidConfig = field(default_factory=RfidConfig)
    cards: Path = Path("cards.json")
    journal: Path | None = None  # [files] journal; None: the rule of keezbord/host/paths.py
    club: ClubSettings | None = None  # [club]: this board's MQTT link to a tournament
    # [board] search budgets in ms (hints "full" and "coach"), made playouts at start-up
    hint_ms: int = 100
    coach_ms: int = 100
    hints_given: bool = False  # [board] hints was set (else a game with remote seats: off)
    remote: RemoteSettings = field(default_factory=RemoteSettings)  # [remote] seats, url
    link: LinkSettings | None = None  # [link]: this board's half of a linked game
    voice: VoiceSettings = field(default_factory=VoiceSettings)  # [voice] (docs/voice.md)

    def topology(self) -> Topology:
        return Topology(self.seats, self.segment)

    @property
    def led_driver(self) -> str:
        return self.leds.led_driver_for(self.scanner.kind)

    @property
    def led_pin(self) -> int:
        return self.leds.pin_for(self.led_driver)

    def load_wiring(self) -> Any:
        """The board's keezbord.hardware.wiring.Wiring (default, or from the JSON file)."""
        from keezbord.hardware.wiring import Wiring, default_wiring

        if self.wiring == "default":
            return default_wiring(self.topology())
        from keezbord.host.jsontext import JsonTextError, loads

        path = Path(self.wiring)
        try:
            data = loads(path.read_bytes())
        except JsonTextError as e:
            raise ConfigError(f"{self.source}: board.wiring: {path}: {e}") from None
        try:
            return Wiring.from_json(data)
        except (ValueError, KeyError, TypeError) as e:
            raise ConfigError(f"{self.source}: board.wiring: {path}: {e}") from None


_TOP = ("board", "scanner", "leds", "rfid", "files", "club", "remote", "link", "voice")
_GPIO_PINS = (2, 27)  # BCM GPIO2..GPIO27 on the 40-pin header


def _signature(s: Section) -> int | None:
    """``scanner.signature``: a byte, or "none" for a board without the signature chip;
    left out, the reference design's 0xA5 (docs/hardware.md, "Signature chip")."""
    v = s.data.get("signature", REFERENCE_SIGNATURE)
    if v == "none":
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise s.error("signature", f'must be a byte (e.g. 0xA5) or "none", not {v!r}')
    if not 0 <= v <= 255:
        raise s.error("signature", f"must be 0 to 255, not {v}")
    return v


def parse_config(data: Any, source: str = "(config)", base: Path = Path()) -> BoardConfig:
    """A BoardConfig from parsed TOML data; ``base`` anchors relative paths."""
    top = Section(source, "", data, _TOP)
    b = top.table(
        "board", ("seats", "segment", "profile", "wiring", "hints", "hint_ms", "coach_ms")
    )
    seats = b.get_int("seats", 4, MIN_SEATS, MAX_SEATS)
    segment = b.get_int("segment", 16, MIN_SEGMENT, 64)
    profile = b.get_str("profile", "standard", tuple(PROFILES))
    wiring = b.get_str("wiring", "default")
    if wiring != "default":
        wiring = str(b.get_path("wiring", wiring, base))
    hints: Any = b.get_str("hints", "targets", HINTS)
    hint_ms = b.get_int("hint_ms", 100, 5, 10_000)
    coach_ms = b.get_int("coach_ms", 100, 5, 10_000)

    s = top.table(
        "scanner",
        (
            "kind",
            "port",
            "load_pin",
            "clock_pin",
            "data_pin",
            "debounce",
            "scan_hz",
            "signature",
            "method",
            "spi_hz",
        ),
    )
    kind: Any = s.get_str("kind", "pico-serial", SCANNER_KINDS)
    pins = {
        k: s.get_int(k, d, *_GPIO_PINS)
        for k, d in (("load_pin", 17), ("clock_pin", 27), ("data_pin", 22))
    }
    if len(set(pins.values())) < 3:
        raise s.error(None, f"load_pin, clock_pin and data_pin must differ, not {pins}")
    signature = _signature(s)
    method: Any = s.get_str("method", "spi", READ_METHODS)
    if kind == "gpio" and method == "spi" and pins["load_pin"] in SPI0_PINS.values():
        raise s.error(
            "load_pin",
            f"GPIO{pins['load_pin']} belongs to SPI0 (GPIO 8 to 11), "
            "which reads the chain; pick another pin",
        )
    scanner = ScannerConfig(
        kind,
        s.get_str("port", "/dev/ttyACM0"),
        pins["load_pin"],
        pins["clock_pin"],
        pins["data_pin"],
        s.get_int("debounce", 3, 1, 20),
        s.get_int("scan_hz", 500, 50, 5000),
        signature,
        method,
        s.get_int("spi_hz", DEFAULT_SPI_HZ, 10_000, SPI_MAX_HZ),
    )

    le = top.table("leds", ("driver", "pin", "brightness", "budget_ma", "palette", "patterns"))
    given_pin = le.get_int("pin", 0, *_GPIO_PINS) if "pin" in le.data else None
    pal = le.table("palette", ROLES)
    for role in pal.data:
        try:
            parse_colour(pal.data[role])
        except ValueError as e:
            raise pal.error(role, str(e)) from None
    pat = le.table("patterns", ROLES)
    for role in pat.data:
        pat.get_str(role, "", PATTERNS)
    brightness = le.get_float("brightness", 0.4, 0.0, 1.0)
    leds = LedConfig(
        le.get_str("driver", "auto", LED_DRIVERS),
        given_pin,
        0.4 if brightness is None else brightness,
        le.get_float("budget_ma", 2000.0, 50.0, 100000.0),
        dict(pal.data),
        dict(pat.data),
    )
    driver = leds.led_driver_for(kind)
    pin = leds.pin_for(driver)
    used = {} if kind != "gpio" else {"load_pin": pins["load_pin"]} if method == "spi" else pins
    why = led_pin_problem(driver, pin, given_pin, kind == "gpio" and method == "spi", used)
    if why is not None:
        raise le.error("pin", why)
    if kind == "gpio" and leds.driver == "pico-serial":
        raise le.error("driver", 'pico-serial LEDs need scanner.kind = "pico-serial"')

    r = top.table("rfid", ("reader", "port", "tap_gap_ms"))
    rfid_port = r.get_str("port", pi.default_rfid_port(pi.PI_MODEL_PATH))
    rfid = RfidConfig(
        r.get_str("reader", "pn532", RFID_READERS),
        rfid_port,
        r.get_int("tap_gap_ms", DEFAULT_GAP_MS, 50, 10000),
    )
    if kind == "gpio" and rfid.reader != "none" and rfid.port in pi.HEADER_UARTS:
        # The card reader's UART owns GPIO14 (TXD) and GPIO15 (RXD).
        chain = {"load_pin": pins["load_pin"]} if method == "spi" else pins
        for key, gpio in chain.items():
            if gpio in (14, 15):
                raise s.error(
                    key,
                    f"GPIO{gpio} is the card reader's UART ({rfid.port} on "
                    "GPIO14/15); pick another pin",
                )

    f = top.table("files", ("cards", "journal"))
    journal = f.get_path("journal", "", base) if "journal" in f.data else None
    club = club_section(top, base) if "club" in top.data else None
    link = link_section(top, base) if "link" in top.data else None
    remote = remote_section(top, seats)
    return BoardConfig(
        source,
        seats,
        segment,
        profile,
        wiring,
        hints,
        scanner,
        leds,
        rfid,
        f.get_path("cards", "cards.json", base),
        journal,
        club,
        hint_ms=hint_ms,
        coach_ms=coach_ms,
        hints_given="hints" in b.data,
        remote=remote,
        link=link,
        voice=voice_section(top),
    )


def load_config(path: str | Path) -> BoardConfig:
    p = Path(path)
    with p.open("rb") as fh:  # a missing file is an OSError: the CLI prints it in one line
        try:
            data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{p}: not valid TOML: {e}") from None
    return parse_config(data, str(p), p.parent)


def find_config(path: str | None) -> BoardConfig:
    """The ``--config`` file; else ./board.toml; else /etc/keezbord/board.toml; else the
    defaults (the rule of keezbord/host/paths.py)."""
    from keezbord.host.paths import config_path

    found = config_path(path)
    return BoardConfig() if found is None else load_config(found)


def journal_of(cfg: BoardConfig, override: str | Path | None = None) -> Path:
    """The journal every command uses with this configuration (keezbord/host/paths.py)."""
    from keezbord.host.paths import journal_path

    return journal_path(cfg.journal, override)
