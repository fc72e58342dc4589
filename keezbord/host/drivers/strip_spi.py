"""Pi-direct LEDs without root: WS2812 data as an SPI byte stream (``leds.driver =
"neopixel-spi"``, the Pi 4's default; docs/drivers.md).

Why SPI: the service runs as its own user with no capabilities, and the Pi 4's PWM
backend (rpi_ws281x behind Blinka) needs root for its DMA ("requires running with
sudo", error -5). SPI needs only ``/dev/spidev1.0`` and the ``spi`` group. SPI0 reads
the switch chain (SCLK GPIO11, MISO GPIO9), so the strip takes **SPI1's MOSI, GPIO20**
(header pin 38) with ``dtoverlay=spi1-1cs`` in config.txt (its CE0 takes GPIO18, MISO
GPIO19, SCLK GPIO21: leave them free).

The bits: one SPI byte per WS2812 bit at 6.4 MHz, 0 = ``0b11000000`` (two bits high),
1 = ``0b11110000`` (four), the patterns of adafruit-circuitpython-neopixel-spi. The Pi
4's SPI1 (the auxiliary SPI) divides the VPU core clock: at 500 MHz 6.4 MHz becomes
6.25 MHz, highs of 320 and 640 ns, inside the WS2812B-V5's T0H 220-380 ns and T1H
580-1000 ns. ``core_freq_min=500`` in config.txt keeps the core clock from dropping under
a frame (the bytes would stretch into wrong bits). A frame is one transfer (a gap in it
could latch half a frame): 24 bytes a LED and 300 us of zeros (the V5 latches after
280 us low), no more than spidev's buffer (``bufsiz``, 4096 bytes by default: 160 LEDs;
a bigger board adds ``spidev.bufsiz=65536`` to cmdline.txt).

Our own encoder on py-spidev (already in the pi4 extra for the chain), not Blinka's
neopixel_spi: one ioctl per frame (Adafruit_PureIO splits writes at 4096 bytes, a gap
inside the frame), and no board detection to go wrong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Protocol

from keezbord.host.drivers.leds import RGB

SPI_HZ: Final = 6_400_000
BIT0: Final = 0b11000000
BIT1: Final = 0b11110000
RESET_S: Final = 300e-6
RESET_BYTES: Final = math.ceil(SPI_HZ * RESET_S / 8)
BUFSIZ_PATH: Final = Path("/sys/module/spidev/parameters/bufsiz")
DEFAULT_BUFSIZ: Final = 4096
# The MOSI pins a strip can take (parts.SPI_LED_PINS), their bus (spidevN.0) and the
# config.txt line that turns that bus on.
SPI_LED_PINS: Final = {20: (1, "dtoverlay=spi1-1cs"), 10: (0, "dtparam=spi=on")}


class SpiWriter(Protocol):
    max_speed_hz: int
    mode: int

    def writebytes2(self, data: bytes) -> None: ...

    def close(self) -> None: ...


def frame_bytes(leds: int) -> int:
    """The bytes of one frame's transfer."""
    return leds * 24 + RESET_BYTES


def encode(pixels: Sequence[RGB]) -> bytes:
    """A frame: GRB, most significant bit first, one byte a bit; then the reset."""
    out = bytearray()
    for r, g, b in pixels:
        for byte in (g, r, b):
            out += bytes(BIT1 if byte >> k & 1 else BIT0 for k in range(7, -1, -1))
    return bytes(out) + bytes(RESET_BYTES)


def spidev_bufsiz(path: Path = BUFSIZ_PATH) -> int:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return DEFAULT_BUFSIZ


def too_big(leds: int, bufsiz: int) -> str | None:
    """Why a frame of ``leds`` does not fit one transfer, with the fix; None if it does."""
    need = frame_bytes(leds)
    if need <= bufsiz:
        return None
    return (
        f"{leds} LEDs need {need} bytes a frame, spidev's buffer is {bufsiz}: add "
        "`spidev.bufsiz=65536` to /boot/firmware/cmdline.txt and reboot"
    )


class SpiPixels:
    """The ``Pixels`` of strip_neopixel.NeoPixelStrip, on an SPI MOSI."""

    def __init__(self, spi: SpiWriter, n: int, bufsiz: int = DEFAULT_BUFSIZ) -> None:
        why = too_big(n, bufsiz)
        if why is not None:
            raise OSError(why)
        self.spi, self.n = spi, n
        spi.max_speed_hz = SPI_HZ
        spi.mode = 0
        self._buf: list[RGB] = [(0, 0, 0)] * n

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, i: int, rgb: RGB) -> None:
        self._buf[i] = rgb

    def show(self) -> None:
        self.spi.writebytes2(encode(self._buf))

    def deinit(self) -> None:
        self._buf = [(0, 0, 0)] * self.n
        self.show()
        self.spi.close()


def open_spi_pixels(count: int, pin: int = 20) -> SpiPixels:
    """The real strip on ``pin``'s SPI bus (imports the pi4 extra's spidev only here)."""
    if pin not in SPI_LED_PINS:
        raise ValueError(f"SPI LEDs are on GPIO20 (SPI1 MOSI) or GPIO10 (SPI0 MOSI), not {pin}")
    bus, line = SPI_LED_PINS[pin]
    node = Path(f"/dev/spidev{bus}.0")
    if not node.exists():
        raise OSError(f"no {node}: add `{line}` to /boot/firmware/config.txt and reboot")
    import spidev

    spi = spidev.SpiDev()
    spi.open(bus, 0)
    return SpiPixels(spi, count, spidev_bufsiz())
