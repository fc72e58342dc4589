"""What every card reader shares: the ``CardReader`` interface (taps as CardTap events),
the repeat filter (a card lying on the reader is one tap), and opening a reader by kind.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Literal, Protocol

from keezbord.host.drivers.parts import DEFAULT_GAP_MS
from keezbord.host.events import CardTap

ReaderKind = Literal["pn532", "rdm6300", "sim"]
READER_KINDS: tuple[ReaderKind, ...] = ("pn532", "rdm6300", "sim")


class CardReader(Protocol):
    def poll(self, now: int) -> list[CardTap]:
        """Taps seen since the last poll, stamped ``now`` (ms)."""
        ...

    def close(self) -> None: ...


class SerialPort(Protocol):
    """The part of pyserial's Serial the readers use (a fake may stand in)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


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


class SimReader:
    """A reader that returns the queued tags, one per poll (for enrollment demos and tests)."""

    def __init__(self, tags: Iterable[str] = ()) -> None:
        self.queue: deque[str] = deque(tags)
        self.closed = False

    def put(self, tag: str) -> None:
        self.queue.append(tag)

    def poll(self, now: int) -> list[CardTap]:
        return [CardTap(now, tag=self.queue.popleft())] if self.queue else []

    def close(self) -> None:
        self.closed = True


def open_serial(path: str, baud: int, timeout: float) -> SerialPort:
    import serial

    # exclusive: a second keezbord (run beside enroll, say) gets a clear error instead of
    # stealing half of the reader's answers.
    port: SerialPort = serial.Serial(path, baud, timeout=timeout, exclusive=True)
    return port


def open_reader(kind: str, port: str | None, gap_ms: int = DEFAULT_GAP_MS) -> CardReader:
    """A reader of that kind on that serial port (``sim`` needs none)."""
    if kind == "sim":
        return SimReader()
    if kind not in READER_KINDS:
        raise ValueError(f"unknown card reader {kind!r} (one of {', '.join(READER_KINDS)})")
    if not port:
        raise ValueError(f"the {kind} card reader needs a serial port (--port or rfid.port)")
    if kind == "pn532":
        from keezbord.host.drivers.rfid_pn532 import PN532Reader

        return PN532Reader.open(port, gap_ms=gap_ms)
    from keezbord.host.drivers.rfid_rdm6300 import RDM6300Reader

    return RDM6300Reader.open(port, gap_ms=gap_ms)
