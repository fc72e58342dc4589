"""RDM6300 125 kHz reader at 9600 baud, 8N1.

A frame: STX 0x02, ten ASCII hex characters (one version byte and a 4-byte tag), two
ASCII hex characters holding the XOR of those five bytes, ETX 0x03. The reader repeats the
frame as long as the tag lies on it. The tag string is the ten characters, upper case.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from keezbord.host.drivers.parts import DEFAULT_GAP_MS
from keezbord.host.drivers.rfid_base import (
    PORT_ERRORS,
    SerialPort,
    TapFilter,
    open_serial,
    reopened,
)
from keezbord.host.events import CardTap

STX: Final = 0x02
ETX: Final = 0x03
BAUD: Final = 9600
_HEX: Final = frozenset(b"0123456789ABCDEFabcdef")
_BODY: Final = 12  # ten tag characters and two checksum characters


def rdm6300_frame(tag: str) -> bytes:
    """The frame the reader sends for a ten-character tag (tests and fakes use this)."""
    data = bytes.fromhex(tag)
    if len(data) != 5:
        raise ValueError(f"an RDM6300 tag has ten hex characters, not {tag!r}")
    cs = 0
    for b in data:
        cs ^= b
    return bytes([STX]) + f"{tag.upper()}{cs:02X}".encode() + bytes([ETX])


class RDM6300Parser:
    """Bytes in, good tags out. Anything malformed is dropped; a new STX always restarts,
    so the first good frame after garbage is read."""

    def __init__(self) -> None:
        self._body: bytearray | None = None
        self.bad_frames = 0

    def feed(self, data: bytes) -> list[str]:
        tags: list[str] = []
        for b in data:
            if b == STX:
                if self._body:
                    self.bad_frames += 1
                self._body = bytearray()
                continue
            body = self._body
            if body is None:
                continue
            if len(body) < _BODY:
                if b in _HEX:
                    body.append(b)
                else:
                    self._drop()
                continue
            if b == ETX:
                tag = _check(body)
                if tag is None:
                    self.bad_frames += 1
                else:
                    tags.append(tag)
                self._body = None
            else:
                self._drop()
        return tags

    def _drop(self) -> None:
        self.bad_frames += 1
        self._body = None


def _check(body: bytearray) -> str | None:
    raw = bytes.fromhex(body.decode("ascii"))
    cs = 0
    for b in raw[:5]:
        cs ^= b
    return body[:10].decode("ascii").upper() if cs == raw[5] else None


class RDM6300Reader:
    """Polls the serial port without blocking; one CardTap per tap (see TapFilter).

    A USB-serial reader pulled out fails at its port (the module itself only ever
    sends, so there is no silence to tell it from a card-less table): the polls do not
    raise, ``health()`` says the port failed, and every ``retry_ms`` the port is opened
    again by its path (``reopen``), so taps resume when the reader is back."""

    def __init__(
        self,
        port: SerialPort,
        gap_ms: int = DEFAULT_GAP_MS,
        *,
        retry_ms: int = 2000,
        path: str | None = None,
        reopen: Callable[[], SerialPort] | None = None,
    ) -> None:
        self.port = port
        self.parser = RDM6300Parser()
        self.filter = TapFilter(gap_ms)
        self.retry_ms = retry_ms
        self.path = path
        self.reopen = reopen  # opens the port again after it failed (None: cannot)
        self.error: str | None = None  # the port's failure, until it is open again
        self.errors = 0  # port failures, all told
        self.reopens = 0  # ports opened again after a failure
        self._next_try: int | None = None

    @classmethod
    def open(cls, path: str, gap_ms: int = DEFAULT_GAP_MS) -> RDM6300Reader:
        def opener() -> SerialPort:
            return open_serial(path, BAUD, timeout=0)

        return cls(opener(), gap_ms, path=path, reopen=opener)

    def poll(self, now: int) -> list[CardTap]:
        if self.error is not None and not self._reopen(now):
            return []
        try:
            waiting = self.port.in_waiting
            data = self.port.read(waiting) if waiting else b""
        except PORT_ERRORS as e:
            self.errors += 1
            self.error = f"the port failed ({e})"
            self._next_try = now + self.retry_ms
            self.parser = RDM6300Parser()  # a frame cut by the unplug is no frame
            return []
        return [CardTap(now, tag=t) for t in self.parser.feed(data) if self.filter.seen(t, now)]

    def _reopen(self, now: int) -> bool:
        if self.reopen is None or (self._next_try is not None and now < self._next_try):
            return False
        self._next_try = now + self.retry_ms
        try:
            self.port = reopened(self.port, self.reopen)
        except PORT_ERRORS as e:
            self.error = f"the port cannot be opened again ({e})"
            return False
        self.error = None
        self.reopens += 1
        return True

    def health(self) -> dict[str, object]:
        """For the page and doctor (``health.link.reader``, docs/web.md)."""
        where = f" on {self.path}" if self.path else ""
        return {
            "kind": "rdm6300",
            "ok": self.error is None,
            "port": self.path,
            "error": None
            if self.error is None
            else f"the RDM6300{where}: {self.error}: is the reader plugged in?",
            "restarts": self.reopens,
            "errors": self.errors,
        }

    def close(self) -> None:
        self.port.close()
