# Framing of the serial link between the Pico and the host (see docs/protocol.md).
#
# A frame on the wire is 0x00, COBS(body), 0x00, where
#   body = type (u8) | seq (u16 LE) | payload | crc (u16 BE, CRC-16/GENIBUS of the rest)
# COBS removes every 0x00 from the body, so 0x00 only ever ends a frame: after garbage or
# a lost byte the receiver drops at most one frame and is in step again at the next 0x00.
# The leading 0x00 ends any garbage before the frame, so noise on an idle line never
# costs the next good frame (empty chunks between two zeros are ignored).
#
# Pure MicroPython/CPython code: no typing, no machine. The host has its own typed copy
# (keezbord/host/drivers/link_protocol.py), tested byte for byte against this one.

from byteops import (  # noqa: F401 -- re-exported
    _CRC_TABLE,
    cobs_decode_inplace,
    cobs_encode_into,
    copy,
    crc16_n,
    put_words,
    read_slots,
    ring_get,
    ring_put,
    xor_copy,
)

PROTOCOL_VERSION = 2  # 2: CMD_PATTERNS, strip_writes in HEARTBEAT, CONFIG max_ma 0 = none

# Pico -> host
MSG_HELLO = 0x01
MSG_CHANGES = 0x02
MSG_SNAPSHOT = 0x03
MSG_HEARTBEAT = 0x04
MSG_LOG = 0x05
MSG_PONG = 0x06
# host -> Pico
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
CLOSED_FLAG = 0x8000  # in CHANGES and TEST_SWITCHES entries: bit index | CLOSED_FLAG
MAX_BODY = 1024  # type + seq + payload + crc, before COBS
MAX_WIRE = MAX_BODY + MAX_BODY // 254 + 1  # COBS worst case, without the zeros


def crc16(data):
    """CRC-16/GENIBUS: the CCITT polynomial 0x1021, init 0xFFFF, not reflected, final
    xor 0xFFFF. The final xor matters: without it a frame with one 0x00 byte appended
    (a corrupted delimiter) would still pass its check."""
    t = _CRC_TABLE
    crc = 0xFFFF
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc ^ 0xFFFF


def cobs_encode(data):
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Decode one COBS block (without its 0x00 terminator); None if malformed."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type, seq, payload=b""):
    body = bytearray(3 + len(payload) + 2)
    body[0] = msg_type & 0xFF
    body[1] = seq & 0xFF
    body[2] = (seq >> 8) & 0xFF
    body[3 : 3 + len(payload)] = payload
    crc = crc16(memoryview(body)[: 3 + len(payload)])
    body[-2] = crc >> 8
    body[-1] = crc & 0xFF
    if len(body) > MAX_BODY:
        raise ValueError("frame too long")
    return b"\x00" + cobs_encode(body) + b"\x00"


def encode_frame_into(out, body, n):
    """Frame body[:n] (type, seq, payload; the CRC is appended here, body needs 2 spare
    bytes) into `out` as 00 COBS 00; returns the wire length. Allocation-free."""
    crc = crc16_n(body, 0, n)
    body[n] = crc >> 8
    body[n + 1] = crc & 0xFF
    return cobs_encode_into(out, body, n + 2)


class FrameReader:
    """The firmware's receiver: bytes pushed one at a time into a preallocated buffer,
    no allocation per byte or per frame. When push() returns True, a good frame is in
    self.buf: type buf[0], seq buf[1] | buf[2] << 8, payload buf[3:self.end]. Same
    accounting as Decoder (frames_ok, frames_bad; empty chunks ignored)."""

    def __init__(self, size=MAX_WIRE):
        self.buf = bytearray(size)
        self.size = size
        self.n = 0
        self.end = 0
        self.overflow = False
        self.frames_ok = 0
        self.frames_bad = 0

    def reset(self):
        self.n = 0
        self.overflow = False

    def push(self, b):
        if b:
            n = self.n
            if n < len(self.buf):
                self.buf[n] = b
                self.n = n + 1
            else:
                self.overflow = True
            return False
        return self.frame_done()

    def read_from(self, stream, max_bytes):
        """Take bytes from stream.read_into() (which stops after a 00) until a frame
        ends or max_bytes were read or nothing is waiting; True if a good frame is in."""
        while max_bytes > 0:
            n = self.n
            room = self.size - n
            if room <= 0:  # too long for a frame: drop it, read on to the next 00
                self.overflow = True
                self.n = n = 0
                room = self.size
            if room > max_bytes:
                room = max_bytes
            k = stream.read_into(self.buf, n, room)
            if k <= 0:
                return False
            max_bytes -= k
            n += k
            if self.buf[n - 1] == 0:
                self.n = n - 1
                if self.frame_done():
                    return True
            else:
                self.n = n
        return False

    def frame_done(self):
        """A 00 arrived: check the frame collected so far."""
        n = self.n
        self.n = 0
        if self.overflow:
            self.overflow = False
            self.frames_bad += 1
            return False
        if n == 0:
            return False
        buf = self.buf
        m = cobs_decode_inplace(buf, n)
        if m < 5 or crc16_n(buf, 0, m - 2) != (buf[m - 2] << 8) | buf[m - 1]:
            self.frames_bad += 1
            return False
        self.end = m - 2
        self.frames_ok += 1
        return True


def parse_body(body):
    """(type, seq, payload) of a decoded body, or None if short or its CRC is wrong."""
    if body is None or len(body) < 5:
        return None
    crc = (body[-2] << 8) | body[-1]
    if crc16(memoryview(body)[:-2]) != crc:
        return None
    return body[0], body[1] | (body[2] << 8), bytes(body[3:-2])


class Decoder:
    """Bytes in, frames out. Never raises on bad input: it counts it and resyncs."""

    def __init__(self):
        self.buf = bytearray()
        self.overflow = False
        self.frames_ok = 0
        self.frames_bad = 0

    def reset(self):
        self.buf = bytearray()
        self.overflow = False

    def feed(self, data):
        """Feed received bytes; return a list of (type, seq, payload) of the good frames."""
        frames = []
        start = 0
        n = len(data)
        while start < n:
            zero = data.find(b"\x00", start)
            end = n if zero < 0 else zero
            if not self.overflow:
                if len(self.buf) + end - start > MAX_WIRE:
                    self.overflow = True
                    self.buf = bytearray()
                else:
                    self.buf.extend(data[start:end])
            if zero < 0:
                break
            if self.overflow:
                self.frames_bad += 1
            elif self.buf:
                frame = parse_body(cobs_decode(self.buf))
                if frame is None:
                    self.frames_bad += 1
                else:
                    self.frames_ok += 1
                    frames.append(frame)
            self.buf = bytearray()
            self.overflow = False
            start = zero + 1
        return frames


# Payload helpers (little-endian integers throughout).


def u16(v):
    return bytes((v & 0xFF, (v >> 8) & 0xFF))


def u32(v):
    return bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF))


def put_u16(b, i, v):
    b[i] = v & 0xFF
    b[i + 1] = (v >> 8) & 0xFF


def put_u32(b, i, v):
    b[i] = v & 0xFF
    b[i + 1] = (v >> 8) & 0xFF
    b[i + 2] = (v >> 16) & 0xFF
    b[i + 3] = (v >> 24) & 0xFF


def get_u16(b, i):
    return b[i] | (b[i + 1] << 8)


def get_u32(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)


def encode_changes(t_ms, changes):
    """changes: list of (bit_index, closed)."""
    out = bytearray(u32(t_ms))
    for bit, closed in changes:
        out.extend(u16(bit | (CLOSED_FLAG if closed else 0)))
    return bytes(out)


def decode_changes(payload):
    """(t_ms, [(bit, closed), ...]) or None if malformed."""
    if len(payload) < 4 or (len(payload) - 4) % 2:
        return None
    out = []
    for i in range(4, len(payload), 2):
        v = get_u16(payload, i)
        out.append((v & 0x7FFF, bool(v & CLOSED_FLAG)))
    return get_u32(payload, 0), out


def encode_snapshot(t_ms, n_bits, chain_ok, bitmap):
    return u32(t_ms) + u16(n_bits) + bytes((1 if chain_ok else 0,)) + bytes(bitmap)


def decode_snapshot(payload):
    """(t_ms, n_bits, chain_ok, bitmap) or None; bit i closed: bitmap[i>>3] & (0x80 >> (i&7))."""
    if len(payload) < 7:
        return None
    n_bits = get_u16(payload, 4)
    bitmap = payload[7:]
    if len(bitmap) != (n_bits + 7) // 8:
        return None
    return get_u32(payload, 0), n_bits, bool(payload[6]), bytes(bitmap)


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
FLAG_CONFIG_DEFAULTS = 8  # board.json had bad values: defaults used (LOG after HELLO)


def encode_heartbeat(t_ms, counters, flags):
    out = bytearray(u32(t_ms))
    for v in counters:
        out.extend(u32(v))
    out.append(flags & 0xFF)
    return bytes(out)


def decode_heartbeat(payload):
    """(t_ms, {counter: value}, flags) or None."""
    n = len(HEARTBEAT_FIELDS)
    if len(payload) != 4 + 4 * n + 1:
        return None
    counters = {}
    for k in range(n):
        counters[HEARTBEAT_FIELDS[k]] = get_u32(payload, 4 + 4 * k)
    return get_u32(payload, 0), counters, payload[-1]


def encode_hello(n_bits, n_leds, scan_hz, debounce, version):
    return (
        bytes((PROTOCOL_VERSION,))
        + u16(n_bits)
        + u16(n_leds)
        + u16(scan_hz)
        + bytes((debounce,))
        + version.encode()
    )


def decode_hello(payload):
    """(protocol, n_bits, n_leds, scan_hz, debounce, version) or None."""
    if len(payload) < 8:
        return None
    try:
        version = bytes(payload[8:]).decode()
    except UnicodeError:
        return None
    return (
        payload[0],
        get_u16(payload, 1),
        get_u16(payload, 3),
        get_u16(payload, 5),
        payload[7],
        version,
    )
