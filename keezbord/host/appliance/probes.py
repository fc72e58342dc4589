"""What ``keezbord doctor`` works with: a check's finding, the probes of what no file
shows (replaced in the tests), the board the configuration asks for."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.system import Runner, system_runner
from keezbord.host.config_voice import VoiceSettings


@dataclass(frozen=True)
class Finding:
    check: str  # a short name: model, os, spi, uart, ...
    ok: bool
    text: Text  # what was found, or what is wrong
    fix: Text | None = None  # for a problem: the exact fix

    def line(self, lang: str) -> str:
        mark = "ok  " if self.ok else "FOUT" if lang == "nl" else "FAIL"
        out = f"{mark} {self.check}: {self.text.get(lang)}"
        if self.fix is not None:
            out += f" -> {self.fix.get(lang)}"
        return out


@dataclass(frozen=True)
class PicoReport:
    firmware: str | None
    ok: bool
    error: str | None = None
    chain_ok: bool | None = None  # the chain's check bits (signature, tail) arrived
    log: tuple[str, ...] = ()  # the firmware's LOG lines ("chain fault: ...")


def _find_spec(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _usb_ports() -> list[Any]:
    try:
        from serial.tools import list_ports
    except ModuleNotFoundError:
        return []
    return list(list_ports.comports())


def ask_pico_over_usb(port: str) -> PicoReport:
    import time

    from keezbord.host.drivers.link_serial import SerialLink

    link = SerialLink(port)
    if not link.connect():
        return PicoReport(None, False, link.last_error or "cannot connect")
    end = time.monotonic() + 1.5
    while time.monotonic() < end:
        link.poll(0.05)
    health = link.health()
    link.close()
    return PicoReport(health.firmware, health.ok, health.error, health.chain_ok, health.log)


@dataclass(frozen=True)
class ServiceReport:
    """The running service's word on itself (``GET /api/health``, docs/web.md)."""

    version: str | None  # its keezbord's version; None: it did not answer
    health: dict[str, Any] | None = None  # the board's health: sensors, link, leds, reader
    error: str | None = None

    @property
    def link(self) -> dict[str, Any]:
        return dict((self.health or {}).get("link") or {})


def ask_service_over_http(port: int, wait_s: float = 15.0) -> ServiceReport:
    """Ask the service on this machine (loopback: answered without a token). A service
    systemd calls active may still be starting (its port not bound yet, a second or two
    on a Pi): a refused connection is tried again for up to ``wait_s``."""
    import json
    import time
    import urllib.error
    import urllib.request

    url = f"http://127.0.0.1:{port}/api/health"
    end = time.monotonic() + wait_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                data = json.loads(r.read())
            break
        except urllib.error.URLError as e:
            refused = isinstance(e.reason, ConnectionRefusedError)
            if not refused or time.monotonic() >= end:
                return ServiceReport(None, None, f"{url}: {short(e)}")
            time.sleep(0.25)
        except (OSError, ValueError) as e:
            return ServiceReport(None, None, f"{url}: {short(e)}")
    if not isinstance(data, dict):
        return ServiceReport(None, None, f"{url}: not a health answer")
    return ServiceReport(data.get("version"), data.get("health"))


def _free(path: Path) -> int:
    return shutil.disk_usage(path).free


@dataclass(frozen=True)
class Probes:
    """What no file in the tree shows; each one replaceable in the tests."""

    runner: Runner = system_runner
    usb_ports: Callable[[], Iterable[Any]] = _usb_ports
    importable: Callable[[str], bool] = _find_spec
    ask_pico: Callable[[str], PicoReport] = ask_pico_over_usb
    ask_service: Callable[[int], ServiceReport] = ask_service_over_http
    # A service just started has not heard the Pico's firmware yet: asked again for so long.
    settle_s: float = 8.0
    free_bytes: Callable[[Path], int] = _free
    user: str | None = None  # whose groups to check (default: the service's user)
    expected_firmware: str | None = field(default=None)


@dataclass(frozen=True)
class Board:
    """What the configuration asks of the Pi."""

    scanner: str  # pico-serial | gpio
    method: str  # spi | bitbang
    scanner_port: str
    led_driver: str  # pico-serial | neopixel | neopixel-spi | none
    led_pin: int
    reader: str  # pn532 | rdm6300 | none
    reader_port: str
    journal: Path
    leds: int = 0  # LEDs on the strip (the wiring's)
    chips: int = 0  # switch chips in the chain (the wiring's)
    signature: int | None = None  # scanner.signature: the byte after the switch chips
    voice: VoiceSettings = field(default_factory=VoiceSettings)  # [voice] (checks_voice.py)

    @property
    def needs_spi(self) -> bool:
        """SPI0 (dtparam=spi=on): the chain's SPI read, or a strip on GPIO10."""
        return (self.scanner == "gpio" and self.method == "spi") or (
            self.led_driver in ("neopixel", "neopixel-spi") and self.led_pin == 10
        )

    @property
    def needs_gpio(self) -> bool:
        return self.scanner == "gpio" or self.led_driver in ("neopixel", "neopixel-spi")


def short(e: BaseException) -> str:
    return " ".join(str(e).split())[:160]


def system_path(layout: Layout, path: Path) -> str:
    """A path as the Pi names it (without the test's root prefix)."""
    try:
        return "/" + str(path.relative_to(layout.root))
    except ValueError:
        return str(path)
