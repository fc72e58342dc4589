"""``build_board``: the board driver a board's config describes (``keezbord run``).

``[scanner] kind`` picks the board: ``pico-serial`` (a SerialBoard on the Pico's link)
or ``gpio`` (a GpioBoard: the Pi reads the chain itself). ``leds.driver`` picks where the
LED frames go: over the Pico's link, a NeoPixel strip on the Pi, or nowhere. Hardware
libraries are imported only here, for the parts the config names. What goes wrong with
an optional part (no strip, no Pico yet) is said through ``say`` and the board still
serves the game; a scanner that cannot work is a ``BoardError`` (one line, exit 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from keezbord.engine.text import Text
from keezbord.host.drivers.boards import LedSink
from keezbord.host.drivers.polled import GpioBoard, PolledBoard, SerialBoard
from keezbord.host.drivers.switches import WiringLike

if TYPE_CHECKING:
    from keezbord.host.config import BoardConfig
    from keezbord.host.drivers.link_serial import LinkHealth
    from keezbord.host.drivers.pins import PinFactory
    from keezbord.host.drivers.rfid import CardReader

Say = Callable[[Text], None]


class BoardError(ValueError):
    """The configured board cannot be driven (e.g. no GPIO on this machine)."""


def _print_en(text: Text) -> None:
    print(text.en, flush=True)


def build_board(
    config: BoardConfig, reader: CardReader | None = None, *, say: Say = _print_en
) -> PolledBoard:
    """The board of ``config`` with its card ``reader`` (opened by the caller, who
    decides what a missing reader means for the game)."""
    wiring = config.load_wiring()
    strip = (
        open_strip(config, wiring, say)
        if config.led_driver in ("neopixel", "neopixel-spi")
        else None
    )
    if config.scanner.kind == "gpio":
        return gpio_board(config, wiring, pin_factory(), strip, reader)
    from keezbord.host.drivers.link_serial import SerialLink

    def on_link(connected: bool, health: LinkHealth) -> None:
        port = health.port or "?"
        if connected:
            say(
                Text(
                    f"keezbord run: Pico verbonden op {port}",
                    f"keezbord run: Pico connected on {port}",
                )
            )
        else:
            why = health.error or "?"
            say(
                Text(
                    f"keezbord run: geen Pico ({why}); wacht erop, de pagina toont het spel "
                    "intussen",
                    f"keezbord run: no Pico ({why}); waiting for it, the page serves the "
                    "game meanwhile",
                )
            )

    return SerialBoard(
        SerialLink(config.scanner.port, emit_initial=False),
        wiring,
        config.leds.settings(),
        reader,
        strip=strip,
        link_leds=config.led_driver == "pico-serial",
        on_link=on_link,
    )


def gpio_board(
    config: BoardConfig,
    wiring: WiringLike,
    factory: PinFactory,
    strip: LedSink | None,
    reader: CardReader | None = None,
) -> GpioBoard:
    """The Pi-direct board: the chain behind ``factory``'s pins, LEDs on ``strip``."""
    from keezbord.host.drivers.scanner_gpio import scanner_from_config

    sc = config.scanner
    try:
        scanner = scanner_from_config(sc, wiring, factory)
    except (RuntimeError, ValueError) as e:
        raise BoardError(f"scanner: {e}") from None
    return GpioBoard(scanner, wiring, config.leds.settings(), strip, reader, scan_hz=sc.scan_hz)


def pin_factory() -> PinFactory:
    """The Pi's GPIO (RPi.GPIO's API, from the pi4/pi5 extra)."""
    from keezbord.host.drivers.pins import RPiGPIOFactory
    from keezbord.host.extras import pi_install

    try:
        return RPiGPIOFactory()
    except (ImportError, RuntimeError) as e:
        raise BoardError(
            f'scanner.kind = "gpio" needs the Pi\'s GPIO ({pi_install("pi4")}, or pi5 on a '
            f"Pi 5): {e}"
        ) from None


def open_strip(config: BoardConfig, wiring: WiringLike, say: Say = _print_en) -> LedSink:
    """The Pi's strip (``leds.driver`` neopixel or neopixel-spi, on ``leds.pin``),
    guarded (strip_guard.py): one that cannot be made now is said, and tried again every
    few seconds while the board plays on."""
    from keezbord.host.drivers.strip_guard import GuardedStrip
    from keezbord.host.drivers.strip_neopixel import (
        NeoPixelStrip,
        forget_failed_init,
        open_pixels,
    )

    count, pin, driver = len(wiring.led_order), config.led_pin, config.led_driver
    guard = GuardedStrip(
        lambda: NeoPixelStrip(open_pixels(driver, count, pin)), forget=forget_failed_init
    )
    if not guard.build():
        say(
            Text(
                f"keezbord run: geen LED-strip ({guard.error}); opnieuw geprobeerd om de "
                f"{guard.retry_s:.0f} s, de pagina toont de LEDs wel",
                f"keezbord run: LED strip not available ({guard.error}); tried again "
                f"every {guard.retry_s:.0f} s, the page still shows the LEDs",
            )
        )
    return guard
