"""The host's typed copy of the Pico link's framing and payloads (docs/protocol.md).

The firmware's ``firmware/protocol.py`` must stay plain MicroPython (no typing, no
dataclasses), so the host keeps this typed twin; tests/host/test_link_protocol.py feeds
both the same inputs and requires byte-identical frames and identical decodes.

Wire frame: ``00 | COBS(type u8, seq u16 LE, payload, crc u16 BE) | 00`` with the
CRC-16/GENIBUS (CCITT polynomial, init FFFF, xorout FFFF) over type..payload.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PROTOCOL_VERSION = 2  # 2: CMD_PATTERNS, strip_writes in HEARTBEAT, CONFIG max_ma 0 = none

MSG_HELLO = 0x01
MSG_CHANGES = 0x02
MSG_SNAPSHOT = 0x03
MSG_HEARTBEAT = 0x04
MSG_LOG = 0x05
MSG_PONG = 0x06
CMD_HELLO = 0x81
CMD_SNAPSHOT = 0x82
CMD_LEDS = 0x83
CMD_PING = 0x84
CMD_CONFIG = 0x85
CMD_PATTERNS = 0x86
CMD_MAINTENANCE = 0x8D
CMD_TEST_CHAIN = 0x8E
CMD_TEST_SWITCHES = 0x8F

MAINTENANCE_MAGIC = b"REPL"
CLOSED_FLAG = 0x8000
MAX_BODY = 1024
MAX_WIRE = MAX_BODY + MAX_BODY // 254 + 1
MAX_PAYLOAD = MAX_BODY - 5

HEARTBEAT_FIELDS = (
    "scans",
    "chain_errors",
    "rx_bad",
    "rx_gaps",
    "led_frames",
    "overruns",
    "tx_dropped",
    "strip_writes",
)
FLAG_CHAIN_OK = 1
FLAG_LINK_LOST = 2
FLAG_TEST_CHAIN = 4
FLAG_CONFIG_DEFAULTS = 8


def _make_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _make_table()


def crc16(data: bytes | bytearray | memoryview) -> int:
    """CRC-16/GENIBUS (check value of b"123456789": 0xD64E)."""
    crc = 0xFFFF
    t = _CRC_TABLE
    for b in bytes(data):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc ^ 0xFFFF


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    for block in _cobs_blocks(data):
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def _cobs_blocks(data: bytes) -> Iterable[bytes]:
    # Split at zeros, and after 254 non-zero bytes: the same blocks as the firmware's
    # byte loop (including the empty block that follows a full one at the very end).
    start = 0
    n = len(data)
    while True:
        zero = data.find(0, start, start + 254)
        if zero >= 0:
            yield data[start:zero]
            start = zero + 1
            continue
        if n - start >= 254:
            yield data[start : start + 254]
            start += 254
            continue
        yield data[start:]
        return


def cobs_decode(data: bytes) -> bytes | None:
    """Decode one COBS block (without the zeros around it); None if malformed."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        out += data[i + 1 : end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type: int, seq: int, payload: bytes = b"") -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((msg_type & 0xFF, seq & 0xFF, (seq >> 8) & 0xFF)) + bytes(payload)
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


@dataclass(frozen=True, slots=True)
class Frame:
    type: int
    seq: int
    payload: bytes


def parse_body(body: bytes | None) -> Frame | None:
    if body is None or len(body) < 5:
        return None
    if crc16(body[:-2]) != (body[-2] << 8) | body[-1]:
        return None
    return Frame(body[0], body[1] | (body[2] << 8), body[3:-2])


class Decoder:
    """Bytes in, frames out; bad input is counted and dropped, never raised."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.frames_ok = 0
        self.frames_bad = 0

    def reset(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        chunks = data.split(b"\x00")
        for k, chunk in enumerate(chunks):
            if not self._overflow:
                if len(self._buf) + len(chunk) > MAX_WIRE:
                    self._overflow = True
                    self._buf = bytearray()
                else:
                    self._buf += chunk
            if k == len(chunks) - 1:
                break  # no zero after this chunk yet: keep it for the next feed
            if self._overflow:
                self.frames_bad += 1
            elif self._buf:
                frame = parse_body(cobs_decode(bytes(self._buf)))
                if frame is None:
                    self.frames_bad += 1
                else:
                    self.frames_ok += 1
                    frames.append(frame)
            self._buf = bytearray()
            self._overflow = False
        return frames


# -- payloads -----------------------------------------------------------------------------


def u16(v: int) -> bytes:
    return (v & 0xFFFF).to_bytes(2, "little")


def u32(v: int) -> bytes:
    return (v & 0xFFFFFFFF).to_bytes(4, "little")


def _get(b: bytes, i: int, n: int) -> int:
    return int.from_bytes(b[i : i + n], "little")


def encode_changes(t_ms: int, changes: Iterable[tuple[int, bool]]) -> bytes:
    return u32(t_ms) + b"".join(u16(bit | (CLOSED_FLAG if c else 0)) for bit, c in changes)


def decode_changes(payload: bytes) -> tuple[int, list[tuple[int, bool]]] | None:
    if len(payload) < 4 or (len(payload) - 4) % 2:
        return None
    items = [_get(payload, i, 2) for i in range(4, len(payload), 2)]
    return _get(payload, 0, 4), [(v & 0x7FFF, bool(v & CLOSED_FLAG)) for v in items]


@dataclass(frozen=True, slots=True)
class Snapshot:
    t: int
    n_bits: int
    chain_ok: bool
    bitmap: bytes  # bit i closed: bitmap[i >> 3] & (0x80 >> (i & 7))

    def closed(self, i: int) -> bool:
        return bool(self.bitmap[i >> 3] & (0x80 >> (i & 7)))


def encode_snapshot(t_ms: int, n_bits: int, chain_ok: bool, bitmap: bytes) -> bytes:
    return u32(t_ms) + u16(n_bits) + bytes((1 if chain_ok else 0,)) + bytes(bitmap)


def decode_snapshot(payload: bytes) -> Snapshot | None:
    if len(payload) < 7:
        return None
    n_bits = _get(payload, 4, 2)
    bitmap = payload[7:]
    if len(bitmap) != (n_bits + 7) // 8:
        return None
    return Snapshot(_get(payload, 0, 4), n_bits, bool(payload[6]), bytes(bitmap))


@dataclass(frozen=True, slots=True)
class Heartbeat:
    t: int
    counters: dict[str, int]
    flags: int


def encode_heartbeat(t_ms: int, counters: Sequence[int], flags: int) -> bytes:
    return u32(t_ms) + b"".join(u32(v) for v in counters) + bytes((flags & 0xFF,))


def decode_heartbeat(payload: bytes) -> Heartbeat | None:
    n = len(HEARTBEAT_FIELDS)
    if len(payload) != 4 + 4 * n + 1:
        return None
    counters = {name: _get(payload, 4 + 4 * k, 4) for k, name in enumerate(HEARTBEAT_FIELDS)}
    return Heartbeat(_get(payload, 0, 4), counters, payload[-1])


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    n_bits: int
    n_leds: int
    scan_hz: int
    debounce: int
    version: str


def encode_hello(n_bits: int, n_leds: int, scan_hz: int, debounce: int, version: str) -> bytes:
    return (
        bytes((PROTOCOL_VERSION,))
        + u16(n_bits)
        + u16(n_leds)
        + u16(scan_hz)
        + bytes((debounce,))
        + version.encode()
    )


def decode_hello(payload: bytes) -> Hello | None:
    if len(payload) < 8:
        return None
    try:
        version = payload[8:].decode()
    except UnicodeError:
        return None
    return Hello(
        payload[0],
        _get(payload, 1, 2),
        _get(payload, 3, 2),
        _get(payload, 5, 2),
        payload[7],
        version,
    )


def encode_leds(start: int, rgb: bytes) -> bytes:
    return u16(start) + rgb


def encode_patterns(start: int, ids: bytes) -> bytes:
    """CMD_PATTERNS: the first LED's index, then one pattern id per LED."""
    return u16(start) + ids
