"""PN532 13.56 MHz reader in HSU (UART) mode at 115200 baud, for NTAG card stickers.

Frames (both directions): preamble 00, start code 00 FF, LEN, LCS (LEN + LCS = 0 mod 256),
TFI (D4 host to chip, D5 chip to host), data, DCS (TFI + data + DCS = 0 mod 256),
postamble 00. ACK is 00 00 FF 00 FF 00, NACK 00 00 FF FF 00 00, an application error
00 00 FF 01 FF 7F 81 00. Every command is answered by an ACK, then a response whose
first data byte is the command code plus one.

The chip sleeps after power-up in HSU mode: a long preamble of 0x55 0x55 and zeros wakes
it, and SAMConfiguration (normal mode) must follow. Cards are polled with
InListPassiveTarget (one target, 106 kbps type A); RFConfiguration limits its retries so a
poll with no card returns at once instead of blocking.
"""

from __future__ import annotations

import time
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
from keezbord.host.drivers.rfid_pn532_frames import (
    CHIP_TFI,
    ERROR_TFI,
    Ack,
    Frame,
    FrameParser,
    Parsed,
    command_frame,
    parse_target,
)
from keezbord.host.events import CardTap

BAUD: Final = 115200
WAKEUP: Final = b"\x55\x55" + b"\x00" * 14

CMD_GET_FIRMWARE_VERSION: Final = 0x02
CMD_SAM_CONFIGURATION: Final = 0x14
CMD_RF_CONFIGURATION: Final = 0x32
CMD_IN_LIST_PASSIVE_TARGET: Final = 0x4A
CMD_IN_RELEASE: Final = 0x52


class PN532Error(OSError):
    """The chip did not answer, or answered with an error."""


class PN532PortError(PN532Error):
    """The serial port itself failed (a USB-serial reader unplugged): it must be opened
    again before the chip can answer."""


class PN532:
    """Commands to a PN532 over a serial port."""

    def __init__(
        self,
        port: SerialPort,
        clock: Callable[[], float] = time.monotonic,
        ack_timeout: float = 0.1,
        response_timeout: float = 0.5,
    ) -> None:
        self.port = port
        self.parser = FrameParser()
        self._pending: list[Parsed] = []
        self._clock = clock
        self.ack_timeout, self.response_timeout = ack_timeout, response_timeout

    def _frames(self, until: Callable[[Parsed], bool], timeout: float) -> Parsed | None:
        """The first frame (already parsed or arriving within ``timeout``) that ``until``
        accepts; frames before it are dropped, frames after it kept for the next call."""
        deadline = self._clock() + timeout
        drained = False
        while True:
            while self._pending:
                f = self._pending.pop(0)
                if until(f):
                    return f
            if drained:
                return None
            if self._clock() >= deadline:
                # The line went quiet: give up on a half frame, parse what follows it.
                self._pending = self.parser.drain()
                drained = True
                continue
            waiting = self.port.in_waiting
            chunk = self.port.read(waiting or 1)
            if chunk:
                self._pending = self.parser.feed(chunk)

    def command(self, cmd: int, params: bytes = b"", wake: bool = False) -> bytes:
        """Send a command; return the response data after its code. Raises PN532Error
        (PN532PortError when the port itself failed: a USB-serial reader unplugged)."""
        try:
            return self._command(cmd, params, wake)
        except PN532Error:
            raise
        except PORT_ERRORS as e:
            raise PN532PortError(f"PN532: the port failed ({e})") from e

    def _command(self, cmd: int, params: bytes, wake: bool) -> bytes:
        self.port.reset_input_buffer()
        self.parser = FrameParser()
        self._pending = []
        self.port.write((WAKEUP if wake else b"") + command_frame(cmd, params))
        if self._frames(lambda f: isinstance(f, Ack), self.ack_timeout) is None:
            raise PN532Error(f"PN532: no acknowledgement of command 0x{cmd:02X}")

        def answer(f: Parsed) -> bool:
            return isinstance(f, Frame) and (
                f.tfi == ERROR_TFI or (f.tfi == CHIP_TFI and f.data[:1] == bytes([cmd + 1]))
            )

        got = self._frames(answer, self.response_timeout)
        if not isinstance(got, Frame):
            raise PN532Error(f"PN532: no answer to command 0x{cmd:02X}")
        if got.tfi == ERROR_TFI:
            raise PN532Error(f"PN532: error frame in answer to command 0x{cmd:02X}")
        return got.data[1:]

    def begin(self) -> tuple[int, int, int]:
        """Wake the chip, set normal mode, limit poll retries; return (IC, version, rev)."""
        self.command(CMD_SAM_CONFIGURATION, b"\x01\x14\x01", wake=True)
        # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation: one activation try per poll.
        self.command(CMD_RF_CONFIGURATION, b"\x05\xff\x01\x01")
        fw = self.command(CMD_GET_FIRMWARE_VERSION)
        if len(fw) < 3:
            raise PN532Error("PN532: short firmware version answer")
        return fw[0], fw[1], fw[2]

    def read_uid(self) -> bytes | None:
        """The UID of the card on the reader, or None."""
        data = self.command(CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x00")
        uid = parse_target(data)
        if uid is not None:
            # Release it so the next poll selects it afresh (and sees it leave).
            self.command(CMD_IN_RELEASE, b"\x01")
        return uid


class PN532Reader:
    """A CardReader: every poll lists the target in the field; TapFilter makes one tap
    of a card that stays.

    After ``restart_after`` consecutive failed polls the chip is set up again (wake-up
    preamble, SAMConfiguration, RFConfiguration): a brown-out or a loose cable drops a
    PN532 in HSU mode back into low-power sleep, where it ignores every frame until it is
    woken, and a reset also forgets the retry limit. One lost answer is not enough.

    A chip that does not answer at all when the reader is opened (a reader on the board's
    5 V, switched on after the Pi) is not given up: it is set up again every ``retry_ms``
    from the polls, and ``health()`` says it is missing meanwhile."""

    def __init__(
        self,
        chip: PN532,
        gap_ms: int = DEFAULT_GAP_MS,
        restart_after: int = 3,
        *,
        retry_ms: int = 2000,
        port: str | None = None,
        reopen: Callable[[], SerialPort] | None = None,
    ) -> None:
        if restart_after < 1:
            raise ValueError("restart_after must be at least 1")
        self.chip = chip
        self.filter = TapFilter(gap_ms)
        self.restart_after = restart_after
        self.retry_ms = retry_ms
        self.port = port
        self.reopen = reopen  # opens the port again after it failed (None: cannot)
        self.port_lost = False
        self.errors = 0  # failed polls, all told
        self.failing = 0  # failed polls in a row
        self.restarts = 0  # successful set-ups after the first
        self.firmware: tuple[int, int, int] | None = None
        self.error: str | None = None
        self.away = False  # a set-up again after failed polls found no chip
        self._next_try: int | None = None
        try:
            self.firmware = chip.begin()
        except PN532Error as e:
            self._failed(e)

    @classmethod
    def open(cls, path: str, gap_ms: int = DEFAULT_GAP_MS) -> PN532Reader:
        def opener() -> SerialPort:
            return open_serial(path, BAUD, timeout=0.01)

        return cls(PN532(opener()), gap_ms, port=path, reopen=opener)

    def _failed(self, e: PN532Error) -> None:
        self.error = str(e)
        if isinstance(e, PN532PortError):
            self.port_lost = True

    def _begin(self) -> tuple[int, int, int]:
        """Set the chip up, on a port opened again first if the old one failed (a reader
        unplugged and plugged back in comes back under the same path)."""
        if self.port_lost and self.reopen is not None:
            try:
                self.chip.port = reopened(self.chip.port, self.reopen)
            except PORT_ERRORS as e:
                raise PN532PortError(f"PN532: the port cannot be opened again ({e})") from e
            self.port_lost = False
        return self.chip.begin()

    def poll(self, now: int) -> list[CardTap]:
        if self.firmware is None:
            return self._find(now)
        try:
            uid = self.chip.read_uid()
        except PN532Error as e:
            # A lost answer is a missed poll, not a tap; the next poll tries again.
            self.errors += 1
            self.failing += 1
            self._failed(e)
            if self.failing >= self.restart_after:
                self._restart()
            return []
        self.failing = 0
        self.error = None
        self.away = False
        if uid is None:
            return []
        tag = uid.hex().upper()
        return [CardTap(now, tag=tag)] if self.filter.seen(tag, now) else []

    def _find(self, now: int) -> list[CardTap]:
        """No chip answered yet: try to set it up, at most every ``retry_ms``."""
        if self._next_try is not None and now < self._next_try:
            return []
        self._next_try = now + self.retry_ms
        try:
            self.firmware = self._begin()
        except PN532Error as e:
            self._failed(e)
            return []
        self.error = None
        self.restarts += 1
        return []

    def _restart(self) -> None:
        self.failing = 0  # a chip that stays away is tried again after as many polls
        try:
            self.firmware = self._begin()
        except PN532Error as e:
            self._failed(e)
            self.away = True
            return
        self.restarts += 1

    def health(self) -> dict[str, object]:
        """For the page and doctor (``health.link.reader``, docs/web.md)."""
        # One lost answer is noise (the next poll tries again), as for the restarts.
        ok = self.firmware is not None and not self.away and self.failing < self.restart_after - 1
        where = f" on {self.port}" if self.port else ""
        return {
            "kind": "pn532",
            "ok": ok,
            "port": self.port,
            "error": None
            if ok
            else f"the PN532's port{where} failed ({self.error}): is the reader plugged in?"
            if self.port_lost
            else f"the PN532{where} does not answer ({self.error or 'no answer'}): "
            "is it powered, and its switches on HSU?",
            "restarts": self.restarts,
            "errors": self.errors,
        }

    def close(self) -> None:
        self.chip.port.close()
