# What the firmware asks of its parts, for the type checker only (no .py: nothing of this
# runs; firmware modules import it under `if TYPE_CHECKING:` and name these types in
# string annotations, which MicroPython never evaluates). Each protocol is checked against
# the Pico's real part (the MicroPython 1.28 stubs of machine and rp2, in main.py) and
# against its stand-in in fakes.py: a call the real part lacks fails there, before it
# reaches a Pico, and a fake that lacks what the firmware calls fails too.
from typing import Any, Protocol, overload

from _mpy_shed import AnyWritableBuf

Buf = bytearray | bytes | memoryview

class LatchPin(Protocol):
    """The chain's /PL pin (machine.Pin, output)."""

    @overload
    def value(self) -> int: ...
    @overload
    def value(self, x: int, /) -> None: ...

class ChainSpi(Protocol):
    """The SPI master that clocks the chain (machine.SPI)."""

    def readinto(self, buf: AnyWritableBuf, write: int = 0x00, /) -> int | None: ...

class Watchdog(Protocol):
    """machine.WDT."""

    def feed(self) -> None: ...

class Clock(Protocol):
    """Milliseconds that wrap like time.ticks_ms (main.PicoClock, fakes.FakeClock); the
    stubs give ticks a type of their own, hence Any for a tick value."""

    def ms(self) -> Any: ...
    def diff(self, a: Any, b: Any, /) -> int: ...
    def add(self, a: Any, b: int, /) -> Any: ...

class Strip(Protocol):
    """The WS2812 output (ws2812.PioStrip, fakes.FakeStrip)."""

    def ready(self) -> bool: ...
    def write(self, grb: Buf) -> bool | None: ...
    def off(self) -> None: ...

class Stream(Protocol):
    """The byte stream the link runs on (usb_cdc.UsbCdc, stream.PollStream, the fakes)."""

    def read_into(self, buf: bytearray, pos: int, n: int) -> int: ...
    def write(self, buf: Buf, n: int) -> bool: ...
    def flush(self) -> bool: ...
    def pending(self) -> bool: ...

class TestChain(Protocol):
    """The unix port's fake chain, driven by the host's TEST_* commands."""

    def set(self, bit: int, closed: bool) -> None: ...
    def break_after(self, chip: int) -> None: ...
    def repair(self) -> None: ...

class UsbDevice(Protocol):
    """machine.USBDevice, as usb_cdc.py drives it."""

    def submit_xfer(self, ep: int, buffer: Buf, /) -> bool: ...
