"""Card readers by kind: the ``CardReader`` interface (taps as CardTap events), the
simulated reader, and opening a reader by kind. What the serial readers share (their port,
the repeat filter) is in rfid_base.py, below them and this module.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Literal, Protocol

from keezbord.host.drivers.parts import DEFAULT_GAP_MS
from keezbord.host.drivers.rfid_pn532 import PN532Reader
from keezbord.host.drivers.rfid_rdm6300 import RDM6300Reader
from keezbord.host.events import CardTap

ReaderKind = Literal["pn532", "rdm6300", "sim"]
READER_KINDS: tuple[ReaderKind, ...] = ("pn532", "rdm6300", "sim")


class CardReader(Protocol):
    def poll(self, now: int) -> list[CardTap]:
        """Taps seen since the last poll, stamped ``now`` (ms)."""
        ...

    def close(self) -> None: ...


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


def open_reader(kind: str, port: str | None, gap_ms: int = DEFAULT_GAP_MS) -> CardReader:
    """A reader of that kind on that serial port (``sim`` needs none)."""
    if kind == "sim":
        return SimReader()
    if kind not in READER_KINDS:
        raise ValueError(f"unknown card reader {kind!r} (one of {', '.join(READER_KINDS)})")
    if not port:
        raise ValueError(f"the {kind} card reader needs a serial port (--port or rfid.port)")
    if kind == "pn532":
        return PN532Reader.open(port, gap_ms=gap_ms)
    return RDM6300Reader.open(port, gap_ms=gap_ms)
