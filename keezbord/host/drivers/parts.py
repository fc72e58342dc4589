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

# The GPIOs a WS2812 strip can be driven from on a Pi: Blinka's neopixel (strip_neopixel.py:
# PWM, SPI MOSI, PCM; a Pi 5's PIO) and an SPI MOSI (strip_spi.py: SPI1's, then SPI0's).
NEOPIXEL_PINS: Final = (10, 12, 18, 21)
SPI_LED_PINS: Final = (20, 10)


def led_pin_problem(
    driver: str, pin: int, given: int | None, chain_on_spi0: bool, chain_pins: dict[str, int]
) -> str | None:
    """Why the strip cannot be on ``pin`` with ``driver`` (None: it can). ``given``: the
    pin the file names (None: the backend's default); ``chain_pins``: the scanner's GPIOs
    that the Pi drives itself."""
    every = sorted({*NEOPIXEL_PINS, *SPI_LED_PINS})
    if given is not None and given not in every:
        return (
            f"must be one of GPIO {', '.join(map(str, every))} (pins a NeoPixel backend "
            f"drives), not {given}"
        )
    if driver == "neopixel-spi" and pin not in SPI_LED_PINS:
        return (
            "neopixel-spi drives the strip from an SPI MOSI: GPIO20 (SPI1, header pin 38) "
            f'or GPIO10, not GPIO{pin} (for GPIO{pin} set driver = "neopixel", which needs '
            "root on a Pi 4)"
        )
    if driver == "neopixel" and pin not in NEOPIXEL_PINS:
        return (
            f"must be one of GPIO {', '.join(map(str, NEOPIXEL_PINS))} "
            f"(pins with a NeoPixel driver), not {pin}"
        )
    if driver not in ("neopixel", "neopixel-spi"):
        return None
    if chain_on_spi0 and pin == SPI0_PINS["MOSI"]:
        return (
            f"GPIO{pin} is SPI0 MOSI, taken by the chain's SPI read; use GPIO20 (SPI1) with "
            'driver = "neopixel-spi"'
        )
    # The strip's data pin and the chain's pins are driven by different libraries:
    # sharing one would garble both (SPI leaves only /PL on a GPIO of its own).
    for key, gpio in chain_pins.items():
        if gpio == pin:
            return f"GPIO{pin} is already scanner.{key}; the LED strip needs a pin of its own"
    return None


# A card lying on a reader is one tap: reads of one tag closer than this are repeats (rfid.py).
DEFAULT_GAP_MS: Final = 700
