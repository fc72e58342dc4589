"""The selftest's hardware: the switches (the Pi-direct chain or the Pico's link) after
their preflight (keezbord/host/bringup.py), and the LEDs (the Pi's strip or the Pico's).
A link or chain fault raises BringupStop, at once and during the walk."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from keezbord.engine.text import Text
from keezbord.host.bringup import BringupStop, chain_error_fault
from keezbord.host.config import BoardConfig
from keezbord.host.errors import UsageError


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass
class Rig:
    source: Callable[[int], list[Any]]  # switch changes since the last call
    closed: frozenset[int]  # closed when the rig was opened
    show: Callable[[Mapping[str, str], int], object]
    period: float  # seconds between polls
    closers: list[Callable[[], object]] = field(default_factory=list)

    def close(self) -> None:
        for close in reversed(self.closers):
            close()


def open_rig(
    cfg: BoardConfig,
    led_order: Any,
    bits: int,
    chips_hint: str = "",
    note: Callable[[Text], None] | None = None,
) -> Rig:
    """The switches (``bits`` of the chain: a board built that far) and the LEDs of
    ``led_order``. ``chips_hint``: the firmware install line for a partial chain.
    ``note``: LEDs only (the LED walk, before the switches are in): a chain fault is
    said there and the chain left unread; only a missing reader stops."""
    from keezbord.host.drivers.leds import LedRenderer

    renderer = LedRenderer(led_order, cfg.leds.settings())
    rig = Rig(lambda now: [], frozenset(), lambda frame, now: None, 0.005)
    try:
        link = _switches(cfg, bits, rig, chips_hint, note)
        rig.show = _leds(cfg, renderer, link, rig)
    except BaseException:
        rig.close()
        raise
    return rig


def _switches(
    cfg: BoardConfig, bits: int, rig: Rig, chips_hint: str, note: Callable[[Text], None] | None
) -> Any:
    from keezbord.host.bringup import CHAIN_KINDS, pico_link_fault, pico_preflight

    signature = cfg.scanner.signature
    if cfg.scanner.kind == "gpio" and note is not None:
        return None  # LEDs only: the Pi's strip needs no chain
    if cfg.scanner.kind == "gpio":
        from keezbord.host.drivers.pins import RPiGPIOFactory
        from keezbord.host.drivers.scanner_gpio import (
            BrokenChainError,
            ChainPins,
            GpioScanner,
            open_chain,
        )

        s = cfg.scanner
        try:
            factory = RPiGPIOFactory()
            rig.closers.append(factory.close)
            reader = open_chain(
                factory,
                bits,
                method=s.method,
                pins=ChainPins(s.load_pin, s.clock_pin, s.data_pin),
                signature=signature,
                spi_hz=s.spi_hz,
            )
            scanner = GpioScanner(reader, None, s.debounce)
        except ImportError as e:
            from keezbord.host.extras import pi_install

            raise UsageError(
                f'scanner.kind = "gpio" needs the Pi\'s GPIO ({pi_install("pi4")}, or '
                f"pi5 on a Pi 5): {e}"
            ) from None
        except (RuntimeError, ValueError) as e:
            raise UsageError(f"scanner: {e}") from None
        broken = [0]

        def scan(now: int) -> list[Any]:
            try:
                changes = scanner.scan(now)
            except BrokenChainError as e:
                broken[0] += 1  # one bad read is noise; three in a row a fault
                if broken[0] >= 3:
                    raise BringupStop(chain_error_fault(e, signature)) from None
                return []
            broken[0] = 0
            return changes

        for k in range(s.debounce + 3):
            scan(k)
        rig.source, rig.closed, rig.period = scan, scanner.closed_switches(), 1.0 / s.scan_hz
        return None
    from keezbord.host.drivers.link_serial import SerialLink

    link = SerialLink(cfg.scanner.port or None)
    rig.closers.append(link.close)
    found = pico_preflight(link, bits, signature, monotonic_ms, hint=chips_hint)
    if found is not None and note is not None and found.kind in CHAIN_KINDS:
        note(found.text)
        rig.source = lambda now: list(link.poll(0.0))
        return link
    if found is not None:  # never a silent walk: no Pico, no firmware, a bad chain
        raise BringupStop(found)

    def poll(now: int) -> list[Any]:
        changes = list(link.poll(0.0))
        bad = pico_link_fault(link, signature)
        if bad is not None:
            raise BringupStop(bad)
        return changes

    rig.source = poll
    rig.closed = frozenset(i for i in range(bits) if link.session.closed(i))
    return link


def _leds(cfg: BoardConfig, renderer: Any, link: Any, rig: Rig) -> Any:
    if cfg.led_driver in ("neopixel", "neopixel-spi"):
        from keezbord.host.drivers.strip_neopixel import NeoPixelStrip, StripLeds, open_pixels

        try:
            strip = NeoPixelStrip(open_pixels(cfg.led_driver, len(renderer.led_order), cfg.led_pin))
        except (ImportError, RuntimeError, OSError, ValueError) as e:
            # e.g. rpi_ws281x on a Pi 4 without root: "ws2811_init failed ..."
            from keezbord.host.extras import pi_install

            hint = f" ({pi_install('pi4')}, or pi5)" if isinstance(e, ImportError) else ""
            raise UsageError(
                f"LED strip (leds.driver = {cfg.led_driver}, GPIO{cfg.led_pin}): {e}{hint}"
            ) from None
        rig.closers.append(strip.close)
        return StripLeds(strip, renderer).show_frame
    if cfg.led_driver == "pico-serial" and link is not None:
        from keezbord.host.selftest import link_led_show

        return link_led_show(link, renderer)
    return lambda frame, now: None
