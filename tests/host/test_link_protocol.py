"""The host's typed link protocol against the firmware's: byte-identical frames, same
decodes, and the host decoder's behaviour on garbage."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from keezbord.host.drivers import link_protocol as P


def _load_firmware_protocol() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "firmware" / "protocol.py"
    if str(path.parent) not in sys.path:  # protocol.py imports its sibling byteops.py
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("keezbord_fw_protocol", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FW = _load_firmware_protocol()
FUZZ = settings(
    derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def test_constants_match() -> None:
    names = [n for n in dir(P) if n.isupper() and not n.startswith("_")]
    shared = [n for n in names if hasattr(FW, n)]
    assert len(shared) >= 20
    for n in shared:
        assert getattr(P, n) == getattr(FW, n), n


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=P.MAX_PAYLOAD))
def test_frames_byte_identical(msg_type: int, seq: int, payload: bytes) -> None:
    assert P.encode_frame(msg_type, seq, payload) == FW.encode_frame(msg_type, seq, payload)


@given(st.binary(max_size=1100))
def test_cobs_identical(data: bytes) -> None:
    assert P.cobs_encode(data) == FW.cobs_encode(data)
    assert P.crc16(data) == FW.crc16(data)


@FUZZ
@given(st.binary(max_size=2000))
def test_decoders_agree_on_any_bytes(data: bytes) -> None:
    h, f = P.Decoder(), FW.Decoder()
    got_h = [(x.type, x.seq, x.payload) for x in h.feed(data)]
    assert got_h == f.feed(data)
    assert (h.frames_ok, h.frames_bad) == (f.frames_ok, f.frames_bad)


@given(st.integers(0, 2**32 - 1), st.lists(st.tuples(st.integers(0, 0x7FFF), st.booleans())))
def test_changes_payload_identical(t: int, changes: list[tuple[int, bool]]) -> None:
    assert P.encode_changes(t, changes) == FW.encode_changes(t, changes)
    assert P.decode_changes(P.encode_changes(t, changes)) == (t, changes)


def test_other_payloads_identical() -> None:
    assert P.encode_hello(192, 192, 250, 4, "v") == FW.encode_hello(192, 192, 250, 4, "v")
    assert P.encode_snapshot(5, 16, True, b"\x80\x01") == FW.encode_snapshot(
        5, 16, True, b"\x80\x01"
    )
    counters = list(range(len(P.HEARTBEAT_FIELDS)))
    assert P.encode_heartbeat(9, counters, 3) == FW.encode_heartbeat(9, counters, 3)
    fw_hb = FW.encode_heartbeat(9, counters, 3)
    hb = P.decode_heartbeat(fw_hb)
    assert hb is not None and list(hb.counters.values()) == counters and hb.flags == 3
    snap = P.decode_snapshot(FW.encode_snapshot(5, 16, False, b"\x80\x01"))
    assert snap is not None and snap.closed(0) and snap.closed(15) and not snap.closed(1)


@FUZZ
@given(
    st.binary(max_size=300),
    st.lists(
        st.tuples(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=80)),
        min_size=1,
        max_size=4,
    ),
)
def test_host_decoder_resyncs_after_garbage(
    garbage: bytes, frames: list[tuple[int, int, bytes]]
) -> None:
    assume(P.Decoder().feed(garbage) == [])
    wire = garbage + b"".join(P.encode_frame(*f) for f in frames)
    d = P.Decoder()
    got = []
    for i in range(0, len(wire), 5):
        got += d.feed(wire[i : i + 5])
    assert [(x.type, x.seq, x.payload) for x in got] == frames


def test_payload_size_limit() -> None:
    P.encode_frame(P.CMD_LEDS, 0, bytes(P.MAX_PAYLOAD))
    try:
        P.encode_frame(P.CMD_LEDS, 0, bytes(P.MAX_PAYLOAD + 1))
    except ValueError:
        return
    raise AssertionError("oversized payload accepted")


def test_examples_in_docs_decode() -> None:
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    examples = re.findall(r"`(00 (?:[0-9a-f]{2} )+00)`", doc)
    assert len(examples) >= 7
    for ex in examples:
        d = P.Decoder()
        frames = d.feed(bytes.fromhex(ex))
        assert len(frames) == 1 and d.frames_bad == 0, ex
        f = frames[0]
        assert P.encode_frame(f.type, f.seq, f.payload) == bytes.fromhex(ex)
