"""What the serial card readers (rfid_pn532.py, rfid_rdm6300.py) share: the serial port
they talk through (``SerialPort``, ``open_serial``; what a failed one raises,
``PORT_ERRORS``, and opening it again by its path, ``reopened``) and the repeat filter
(``TapFilter``: a card lying on the reader is one tap). Below the readers and the factory
that opens them by kind (rfid.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol

from keezbord.host.drivers.parts import DEFAULT_GAP_MS


class SerialPort(Protocol):
    """The part of pyserial's Serial the readers use (a fake may stand in)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


# What a failed port raises (a USB-serial reader unplugged): pyserial's SerialException is
# an OSError, but its reset_input_buffer on a port whose device is gone lets termios.error
# (EIO) through.
try:
    from termios import error as _termios_error

    PORT_ERRORS: tuple[type[Exception], ...] = (OSError, _termios_error)
except ImportError:  # no termios (Windows): pyserial raises SerialException there
    PORT_ERRORS = (OSError,)


def reopened(old: SerialPort, opener: Callable[[], SerialPort]) -> SerialPort:
    """The reader's port opened again after it failed, the old one closed: a USB-serial
    reader unplugged and plugged back in comes back under the same path (give the
    ``/dev/serial/by-id/...`` one: ``ttyUSB0`` may become ``ttyUSB1``). Raises one of
    ``PORT_ERRORS`` while it is not back."""
    with contextlib.suppress(*PORT_ERRORS):
        old.close()
    return opener()


class TapFilter:
    """A tag read again and again while it lies on the reader is one tap, until it has
    been absent (not read) for more than ``gap_ms``; a different tag is a new tap at once."""

    def __init__(self, gap_ms: int = DEFAULT_GAP_MS) -> None:
        self.gap_ms = gap_ms
        self._last: str | None = None
        self._last_seen = 0

    def seen(self, tag: str, now: int) -> bool:
        new = tag != self._last or now - self._last_seen > self.gap_ms
        self._last, self._last_seen = tag, now
        return new


def open_serial(path: str, baud: int, timeout: float) -> SerialPort:
    import serial

    from keezbord.host.drivers.port_holder import open_exclusive

    # exclusive: a second keezbord (run beside enroll, say) gets a clear error, naming
    # who holds the port, instead of stealing half of the reader's answers.
    port: SerialPort = open_exclusive(
        lambda: serial.Serial(path, baud, timeout=timeout, exclusive=True), path
    )
    return port
