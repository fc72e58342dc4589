"""PN532 HSU frames (rfid_pn532.py's chip): building, parsing, the command codes.

Frames (both directions): preamble 00, start code 00 FF, LEN, LCS (LEN + LCS = 0 mod 256),
TFI (D4 host to chip, D5 chip to host), data, DCS (TFI + data + DCS = 0 mod 256),
postamble 00. ACK is 00 00 FF 00 FF 00, NACK 00 00 FF FF 00 00, an application error
00 00 FF 01 FF 7F 81 00. Every command is answered by an ACK, then a response whose
first data byte is the command code plus one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

BAUD: Final = 115200
HOST_TFI: Final = 0xD4
CHIP_TFI: Final = 0xD5
ERROR_TFI: Final = 0x7F
ACK: Final = b"\x00\x00\xff\x00\xff\x00"
NACK: Final = b"\x00\x00\xff\xff\x00\x00"
WAKEUP: Final = b"\x55\x55" + b"\x00" * 14

CMD_GET_FIRMWARE_VERSION: Final = 0x02
CMD_SAM_CONFIGURATION: Final = 0x14
CMD_RF_CONFIGURATION: Final = 0x32
CMD_IN_LIST_PASSIVE_TARGET: Final = 0x4A
CMD_IN_RELEASE: Final = 0x52
UID_LENGTHS: Final = (4, 7, 10)


@dataclass(frozen=True, slots=True)
class Ack:
    pass


@dataclass(frozen=True, slots=True)
class Nack:
    pass


@dataclass(frozen=True, slots=True)
class Frame:
    """A checked information frame: ``tfi`` D4/D5 (or 7F for an error) and its data."""

    tfi: int
    data: bytes


Parsed = Ack | Nack | Frame


def build_frame(tfi: int, data: bytes) -> bytes:
    body = bytes([tfi]) + data
    n = len(body)
    if n > 255:
        raise ValueError("frame too long for a normal PN532 frame")
    return b"\x00\x00\xff" + bytes([n, (-n) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0x00])


def command_frame(cmd: int, params: bytes = b"") -> bytes:
    return build_frame(HOST_TFI, bytes([cmd]) + params)


def response_frame(cmd: int, data: bytes = b"") -> bytes:
    """The chip's answer to ``cmd`` (for the fake)."""
    return build_frame(CHIP_TFI, bytes([cmd + 1]) + data)


class FrameParser:
    """Bytes in, checked frames out. Garbage is skipped by hunting for the next start code;
    a frame with a bad length or data checksum is dropped and the hunt resumes one byte
    after its start code, so a good frame hidden behind garbage is still found.

    A frame whose length is good but whose bytes have not all arrived is kept waiting;
    ``drain()`` (called when the line has gone quiet) gives up on it and parses on.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.bad_frames = 0

    def feed(self, data: bytes) -> list[Parsed]:
        self._buf += data
        return self._parse(final=False)

    def drain(self) -> list[Parsed]:
        out = self._parse(final=True)
        self._buf.clear()
        return out

    def _parse(self, final: bool) -> list[Parsed]:
        buf = self._buf
        out: list[Parsed] = []
        pos = 0
        while True:
            s = buf.find(b"\x00\xff", pos)
            if s < 0:
                # keep a trailing 00 that may start the next start code
                del buf[: max(pos, len(buf) - 1)]
                return out
            got, end = self._frame_at(s)
            if got is None and end == 0:  # incomplete
                if not final:
                    del buf[:s]
                    return out
                pos = s + 1
                continue
            if got is None:  # bad: resume the hunt just past this start code
                self.bad_frames += 1
                pos = s + 1
                continue
            out.append(got)
            if end < len(buf) and buf[end] == 0:  # postamble
                end += 1
            pos = end

    def _frame_at(self, s: int) -> tuple[Parsed | None, int]:
        """The frame whose start code is at ``s``: (frame, end), (None, 0) if incomplete,
        (None, -1) if malformed."""
        buf = self._buf
        if len(buf) < s + 4:
            return None, 0
        n, lcs = buf[s + 2], buf[s + 3]
        if n == 0x00 and lcs == 0xFF:
            return Ack(), s + 4
        if n == 0xFF and lcs == 0x00:
            return Nack(), s + 4
        if n == 0xFF and lcs == 0xFF:  # extended frame: LENM LENL LCS
            if len(buf) < s + 7:
                return None, 0
            n = buf[s + 4] << 8 | buf[s + 5]
            if (buf[s + 4] + buf[s + 5] + buf[s + 6]) & 0xFF or n == 0:
                return None, -1
            head = s + 7
        elif (n + lcs) & 0xFF or n == 0:
            return None, -1
        else:
            head = s + 4
        if len(buf) < head + n + 1:
            return None, 0
        body = bytes(buf[head : head + n])
        if (sum(body) + buf[head + n]) & 0xFF:
            return None, -1
        if body[0] not in (HOST_TFI, CHIP_TFI, ERROR_TFI):
            return None, -1
        return Frame(body[0], body[1:]), head + n + 1


def parse_target(data: bytes) -> bytes | None:
    """The UID from an InListPassiveTarget answer's data (after the 4B code), if one
    type-A target with a sane UID is listed; None otherwise."""
    # NbTg, Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1 ... (ATS may follow)
    if len(data) < 1 or data[0] != 1 or len(data) < 6:
        return None
    n = data[5]
    if n not in UID_LENGTHS or len(data) < 6 + n:
        return None
    return bytes(data[6 : 6 + n])
