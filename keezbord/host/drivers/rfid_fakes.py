"""Fake card readers on the far side of a pseudo-terminal: the driver opens the slave
path with pyserial exactly as it would open /dev/ttyAMA0, and the fake answers like the
chip. Each fake records what it received, timestamped.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import tty
from dataclasses import dataclass

from keezbord.host.drivers.pn532_frames import (
    ACK,
    CMD_GET_FIRMWARE_VERSION,
    CMD_IN_LIST_PASSIVE_TARGET,
    CMD_IN_RELEASE,
    CMD_RF_CONFIGURATION,
    CMD_SAM_CONFIGURATION,
    ERROR_TFI,
    HOST_TFI,
    Frame,
    FrameParser,
    build_frame,
    response_frame,
)
from keezbord.host.drivers.rfid_rdm6300 import rdm6300_frame


class PtyDevice:
    """A pseudo-terminal pair; ``path`` is the slave side for the driver to open."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes pass as they are
        self.path = os.ttyname(self._slave)
        self.received = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def on_bytes(self, data: bytes) -> None:
        self.received += data

    def _run(self) -> None:
        while not self._stop.is_set():
            r, _, _ = select.select([self.master], [], [], 0.02)
            if not r:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if data:
                self.on_bytes(data)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> PtyDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class Received:
    t: float
    cmd: int
    params: bytes


class FakePN532(PtyDevice):
    """Answers like a PN532 in HSU mode: asleep (low-power) until a 0x55 wake-up
    preamble, ignoring every frame until then; then ACK and a response to each command.
    ``uid`` is the card in the field (None: none); ``noise`` is sent before every answer
    (garbage the parser must skip); ``drop`` command frames are lost on the cable.

    ``powered=False``: a reader not yet switched on, which answers nothing until
    ``power_on()``. ``brown_out()`` is what a dip in the supply does: the chip resets, so it sleeps
    again and forgets RFConfiguration; with the retries back at the reset value (0xFF:
    try forever) InListPassiveTarget with no card in the field never answers."""

    def __init__(self, uid: bytes | None = None, *, powered: bool = True) -> None:
        self.uid = uid
        self.noise = b""
        self.powered = powered  # unpowered: deaf to everything, even the wake-up
        self.awake = False
        self.retries_limited = False
        self.drop = 0
        self.commands: list[Received] = []
        self._parser = FrameParser()
        super().__init__()

    def brown_out(self) -> None:
        self.awake = False
        self.retries_limited = False

    def power_on(self) -> None:
        """Switched on: it starts asleep with its reset settings (a brown-out's state)."""
        self.brown_out()
        self.powered = True

    def on_bytes(self, data: bytes) -> None:
        super().on_bytes(data)
        if not self.powered:
            return
        if not self.awake and 0x55 in data:
            self.awake = True
        for f in self._parser.feed(data):
            if isinstance(f, Frame) and f.tfi == HOST_TFI and f.data and self.awake:
                if self.drop:
                    self.drop -= 1
                    continue
                self._answer(f.data[0], f.data[1:])

    def _answer(self, cmd: int, params: bytes) -> None:
        self.commands.append(Received(time.monotonic(), cmd, params))
        if cmd == CMD_GET_FIRMWARE_VERSION:
            reply = response_frame(cmd, b"\x32\x01\x06\x07")
        elif cmd == CMD_SAM_CONFIGURATION:
            reply = response_frame(cmd)
        elif cmd == CMD_RF_CONFIGURATION:
            if params[:1] == b"\x05":  # CfgItem 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
                self.retries_limited = params[3:4] != b"\xff"
            reply = response_frame(cmd)
        elif cmd == CMD_IN_LIST_PASSIVE_TARGET:
            uid = self.uid
            if uid is None:
                if not self.retries_limited:
                    self.write(self.noise + ACK)  # then searches for a card forever
                    return
                reply = response_frame(cmd, b"\x00")
            else:
                sens = b"\x00\x44" if len(uid) == 7 else b"\x00\x04"
                reply = response_frame(cmd, b"\x01\x01" + sens + b"\x00" + bytes([len(uid)]) + uid)
        elif cmd == CMD_IN_RELEASE:
            reply = response_frame(cmd, b"\x00")
        else:
            reply = build_frame(ERROR_TFI, b"")
        self.write(self.noise + ACK + self.noise + reply)

    def commands_sent(self) -> list[int]:
        return [c.cmd for c in self.commands]


class FakeRDM6300(PtyDevice):
    """Sends RDM6300 frames on request: ``present(tag, times)`` as a card lying there."""

    def present(self, tag: str, times: int = 1) -> None:
        self.write(rdm6300_frame(tag) * times)
