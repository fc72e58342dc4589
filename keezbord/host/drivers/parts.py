"""What the parts accept, as plain data: the Pi's pins for SPI0 and the NeoPixel strip,
the 74HC165 chain's read methods and SPI clock range, the card readers' repeat gap.

``config`` checks a board file against these and the drivers use them, so reading a
config imports no driver module (and none of their hardware libraries).
"""

from __future__ import annotations

from typing import Final, Literal

# Scanning the chain from a Pi (scanner_gpio.py).
DEFAULT_SPI_HZ: Final = 1_000_000
SPI_MAX_HZ: Final = 8_000_000  # a 74HC165 at 3.3 V over a board's length of ribbon cable
SPI0_PINS: Final = {"SCLK": 11, "MISO": 9, "MOSI": 10, "CE0": 8}  # claimed by spidev
ReadMethod = Literal["spi", "bitbang"]
READ_METHODS: Final[tuple[ReadMethod, ...]] = ("spi", "bitbang")

# The GPIOs a WS2812 strip can be driven from on a Pi (strip_neopixel.py): PWM, SPI MOSI, PCM.
NEOPIXEL_PINS: Final = (10, 12, 18, 21)

# A card lying on a reader is one tap: reads of one tag closer than this are repeats (rfid.py).
DEFAULT_GAP_MS: Final = 700
