# mypy: disable-error-code="import-not-found"
"""Framing: CRC, COBS, frames, and the decoder's behaviour on garbage."""

from __future__ import annotations

import protocol as P
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

FUZZ = settings(
    derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

frames_st = st.lists(
    st.tuples(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=600)),
    min_size=1,
    max_size=5,
)


def test_crc_check_value() -> None:
    # CRC-16/GENIBUS catalogue check value.
    assert P.crc16(b"123456789") == 0xD64E


@given(st.binary(max_size=1200))
def test_cobs_round_trip_and_no_zero(data: bytes) -> None:
    enc = P.cobs_encode(data)
    assert 0 not in enc
    assert P.cobs_decode(enc) == data


def test_frame_example_bytes() -> None:
    # The example in docs/protocol.md: CHANGES, seq 5, t=1000 ms, bit 3 closed, bit 200 open.
    frame = P.encode_frame(P.MSG_CHANGES, 5, P.encode_changes(1000, [(3, True), (200, False)]))
    assert frame.hex(" ") == "00 03 02 05 03 e8 03 01 04 03 80 c8 03 c0 29 00"
    assert P.Decoder().feed(frame) == [(P.MSG_CHANGES, 5, bytes.fromhex("e8030000 0380 c800"))]


@given(frames_st)
def test_frames_round_trip(frames: list[tuple[int, int, bytes]]) -> None:
    wire = b"".join(P.encode_frame(t, s, p) for t, s, p in frames)
    d = P.Decoder()
    # Fed in awkward pieces: a frame split anywhere must still come out whole.
    got = []
    for i in range(0, len(wire), 7):
        got += d.feed(wire[i : i + 7])
    assert got == frames
    assert d.frames_bad == 0


@FUZZ
@given(st.binary(max_size=400), frames_st)
def test_garbage_before_frames_costs_nothing(
    garbage: bytes, frames: list[tuple[int, int, bytes]]
) -> None:
    assume(P.Decoder().feed(garbage) == [])
    d = P.Decoder()
    got = d.feed(garbage + b"".join(P.encode_frame(t, s, p) for t, s, p in frames))
    assert got == frames


@FUZZ
@given(
    frames_st,
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=8),
)
def test_corruption_never_yields_a_false_frame(
    frames: list[tuple[int, int, bytes]], hits: list[tuple[int, int]]
) -> None:
    wire = bytearray(b"".join(P.encode_frame(t, s, p) for t, s, p in frames))
    for pos, val in hits:
        wire[pos % len(wire)] ^= val or 1
    after = P.encode_frame(0x7E, 1, b"after")
    d = P.Decoder()
    got = d.feed(bytes(wire) + after)
    # Every frame that comes out is one that was sent, and the decoder is in step again.
    assert all(f in frames for f in got[:-1])
    assert got[-1] == (0x7E, 1, b"after")


def test_appended_zero_byte_fails_the_check() -> None:
    # A delimiter corrupted from 0x00 to 0x01 appends 0x00 to the decoded body.
    body = P.cobs_decode(P.encode_frame(P.MSG_CHANGES, 1, b"\x10\x20")[1:-1])
    assert body is not None and P.parse_body(body) is not None
    assert P.parse_body(body + b"\x00") is None


def test_oversized_garbage_is_dropped_and_counted() -> None:
    d = P.Decoder()
    assert d.feed(b"\x01" * (P.MAX_WIRE + 50)) == []
    ok = P.encode_frame(P.MSG_PONG, 9, b"x")
    assert d.feed(b"\x00" + ok) == [(P.MSG_PONG, 9, b"x")]
    assert d.frames_bad == 1


def test_payload_codecs_round_trip() -> None:
    assert P.decode_changes(P.encode_changes(123456, [(0, True), (191, False)])) == (
        123456,
        [(0, True), (191, False)],
    )
    bitmap = bytes([0x80, 0, 1])
    assert P.decode_snapshot(P.encode_snapshot(7, 24, True, bitmap)) == (7, 24, True, bitmap)
    assert P.decode_snapshot(P.encode_snapshot(7, 25, True, bitmap)) is None
    counters = tuple(range(1, len(P.HEARTBEAT_FIELDS) + 1))
    t, named, flags = P.decode_heartbeat(P.encode_heartbeat(99, counters, 5))
    assert (t, tuple(named.values()), flags) == (99, counters, 5)
    assert P.decode_hello(P.encode_hello(192, 192, 250, 4, "fw 1")) == (
        P.PROTOCOL_VERSION,
        192,
        192,
        250,
        4,
        "fw 1",
    )
    assert P.decode_changes(b"\x00\x00\x00") is None


PROTO_VIPER_PROBE = r"""
import random
from array import array
import byteops as B
import protocol as P
import proto_viper as V
import scan as S
import scan_viper as SV
O = as_python("proto_viper")  # the oracle: the same loops as bytecode
SO = as_python("scan_viper")
random.seed(3)
bad = 0
for trial in range(300):
    n = random.randint(0, 300)
    data = bytearray(random.getrandbits(8) if random.random() < 0.9 else 0 for _ in range(n))
    c = P.crc16_n(data, 0, n)
    if O.crc16_n(data, 0, n, B._CRC_ARRAY) != c or P.crc16(data) != c:
        bad += 1
    enc = bytearray(P.cobs_encode(bytes(data)))
    if random.random() < 0.2 and enc:
        enc[random.randrange(len(enc))] = random.getrandbits(8)
    a = bytearray(enc); b = bytearray(enc)
    ra = O.cobs_decode_inplace(a, len(a)); rb = V.cobs_decode_inplace(b, len(b))
    ref = P.cobs_decode(bytes(enc))
    if ra != rb or (ra >= 0 and a[:ra] != b[:rb]) or (ref is None) != (rb < 0):
        bad += 1
    if rb >= 0 and bytes(b[:rb]) != ref:
        bad += 1
    w1 = bytearray(n + n // 254 + 4); w2 = bytearray(len(w1))
    k1 = O.cobs_encode_into(w1, data, n); k2 = V.cobs_encode_into(w2, data, n)
    if k1 != k2 or w1 != w2 or bytes(w1[1:k1 - 1]) != P.cobs_encode(bytes(data)):
        bad += 1
    x = random.getrandbits(8)
    d1 = bytearray(n); d2 = bytearray(n)
    O.xor_copy(d1, data, n, x); V.xor_copy(d2, data, n, x)
    e1 = bytearray(n + 5); e2 = bytearray(n + 5)
    O.copy(e1, 3, data, 0, n); V.copy(e2, 3, data, 0, n)
    if d1 != d2 or e1 != e2 or d2 != bytearray(v ^ x for v in data) or e2[3:3 + n] != data:
        bad += 1
    slots = [bytearray(7) for _ in range(4)]; lens = bytearray(4); put = 0; k = 0
    while k < n and put < 4:
        m = min(n - k, random.randint(1, 7))
        slots[put][:m] = data[k:k + m]; lens[put] = m; put += 1; k += m
    cap = random.randint(1, n + 2)
    s1 = array("i", [0, put, 0, 3]); s2 = array("i", [0, put, 0, 3])
    z1 = bytearray(cap + 3); z2 = bytearray(cap + 3)
    c1 = O.read_slots(z1, 2, cap, [slots, lens, s1])
    c2 = V.read_slots(z2, 2, cap, [slots, lens, s2])
    z = bytes(data[:k]).find(b"\x00")
    if c1 != c2 or z1 != z2 or s1 != s2 or c1 != min(cap, k if z < 0 else z + 1):
        bad += 1
    size = 37; head = random.randrange(size); k = min(n, size)
    r1 = bytearray(size); r2 = bytearray(size)
    O.ring_put(r1, size, head, data, k); V.ring_put(r2, size, head, data, k)
    g1 = bytearray(k); g2 = bytearray(k)
    O.ring_get(g1, r1, size, head, k); V.ring_get(g2, r2, size, head, k)
    if r1 != r2 or g1 != g2 or bytes(g1) != bytes(data[:k]):
        bad += 1
    chips = random.randint(1, 6); sig = random.choice([256, random.getrandbits(8)])
    raw = bytearray(random.getrandbits(8) for _ in range(chips + 2))
    if random.random() < 0.6:
        raw[chips + (sig < 256):] = b"\xff" * (len(raw) - chips - (sig < 256))
        if sig < 256 and random.random() < 0.7:
            raw[chips] = sig
    pp = array("i", [len(raw), chips, sig, 0xFF, 0xFF])
    st = bytearray(raw[i] ^ 0xFF for i in range(chips))
    if random.random() < 0.5:
        st[random.randrange(chips)] ^= 1 << random.randrange(8)
    o1 = bytearray(chips); o2 = bytearray(chips)
    if SO.check_sample(raw, pp, o1, st) != SV.check_sample(raw, pp, o2, st) or o1 != o2:
        bad += 1
    ws = array("I", [random.getrandbits(32) for _ in range(5)])
    q1 = bytearray(23); q2 = bytearray(23)
    O.put_words(q1, 2, ws, 5); V.put_words(q2, 2, ws, 5)
    if q1 != q2 or q1[2:6] != bytes(P.u32(ws[0])):
        bad += 1
native = P.copy is V.copy and P.cobs_encode_into is V.cobs_encode_into and O.copy is not V.copy
print("native", native and S.check_sample is SV.check_sample, "bad", bad)
"""


def test_native_link_loops_match_the_python_ones_under_micropython() -> None:
    from unix_pico import run_viper_probe

    out = run_viper_probe(PROTO_VIPER_PROBE)
    assert out == "native True bad 0", out
