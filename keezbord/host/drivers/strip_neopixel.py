"""Pi-direct LEDs: a WS2812 strip through adafruit-circuitpython-neopixel.

Data on GPIO18 (PWM) by default, or GPIO10 (SPI MOSI), 12 or 21, through a 74AHCT125
level shifter. On a Pi 4 and earlier Blinka drives the strip with rpi_ws281x (run as
root). A Pi 5 has no such PWM/DMA path: it needs its own backend, the
``adafruit-blinka-raspberry-pi5-neopixel`` package (the RP1's PIO), which Blinka then uses
by itself; see docs/drivers.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from keezbord.host.drivers.leds import RGB, LedRenderer
from keezbord.host.drivers.parts import NEOPIXEL_PINS


class Pixels(Protocol):
    def __setitem__(self, i: int, rgb: RGB) -> None: ...

    def __len__(self) -> int: ...

    def show(self) -> None: ...

    def deinit(self) -> None: ...


def open_neopixel(count: int, pin: int = 18) -> Pixels:
    """A real strip (imports the pi extra's libraries only here)."""
    if pin not in NEOPIXEL_PINS:
        raise ValueError(
            f"NeoPixel data must be on GPIO {', '.join(map(str, NEOPIXEL_PINS))}, not GPIO{pin}"
        )
    import board
    import neopixel

    px: Any = neopixel.NeoPixel(
        getattr(board, f"D{pin}"), count, brightness=1.0, auto_write=False, pixel_order=neopixel.GRB
    )
    return px  # type: ignore[no-any-return]


def forget_failed_init() -> None:
    """After a strip failed: clear Blinka's PWM backend's module-global strip, which a
    failed ws2811_init leaves half-built (the next write would go through its NULL
    buffer); the next strip then initialises from scratch. Nothing if Blinka's backend
    was never imported (a Pi 5, the SPI backend, the tests)."""
    import sys

    mod = sys.modules.get("adafruit_blinka.microcontroller.bcm283x.neopixel")
    if mod is not None:
        mod._led_strip = None  # type: ignore[attr-defined]
        mod._buf = None  # type: ignore[attr-defined]


def open_pixels(driver: str, count: int, pin: int) -> Pixels:
    """The strip of ``leds.driver``: ``neopixel`` (Blinka: a Pi 5's PIO, a Pi 4's PWM
    which needs root) or ``neopixel-spi`` (an SPI MOSI, no root: strip_spi.py)."""
    if driver == "neopixel-spi":
        from keezbord.host.drivers.strip_spi import open_spi_pixels

        return open_spi_pixels(count, pin)
    return open_neopixel(count, pin)


class NeoPixelStrip:
    """Writes whole frames; an unchanged frame is not sent again (saves bus time)."""

    def __init__(self, pixels: Pixels, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.pixels = pixels
        self._last: tuple[RGB, ...] | None = None
        self._clock = clock
        self.writes = 0

    def show(self, frame: Sequence[RGB]) -> bool:
        """Send ``frame`` (one RGB a LED); False when it equals the last one sent."""
        if len(frame) != len(self.pixels):
            raise ValueError(f"frame has {len(frame)} LEDs, the strip {len(self.pixels)}")
        f = tuple(frame)
        if f == self._last:
            return False
        for i, rgb in enumerate(f):
            self.pixels[i] = rgb
        self.pixels.show()
        self._last = f
        self.writes += 1
        return True

    def off(self) -> None:
        self.show([(0, 0, 0)] * len(self.pixels))

    def close(self) -> None:
        self.off()
        self.pixels.deinit()


class StripLeds:
    """Referee LED frames onto a strip: render (roles -> RGB, blink phase, budget), show."""

    def __init__(self, strip: NeoPixelStrip, renderer: LedRenderer) -> None:
        if len(renderer.led_order) != len(strip.pixels):
            raise ValueError(
                f"wiring has {len(renderer.led_order)} LEDs, the strip {len(strip.pixels)}"
            )
        self.strip, self.renderer = strip, renderer

    def show_frame(self, frame: Mapping[str, str], t_ms: int) -> bool:
        return self.strip.show(self.renderer.render(frame, t_ms))
