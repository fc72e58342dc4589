"""RDM6300 at 9600 baud: frame parser (fuzzed), repeat filter, driver over a pty."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keezbord.host.drivers.rfid import SimReader, open_reader
from keezbord.host.drivers.rfid_base import TapFilter
from keezbord.host.drivers.rfid_fakes import FakeRDM6300
from keezbord.host.drivers.rfid_rdm6300 import RDM6300Parser, RDM6300Reader, rdm6300_frame
from keezbord.host.events import CardTap

TAG = "0F00A1B2C3"


def test_frame_layout_and_checksum() -> None:
    f = rdm6300_frame("62E3086CED")  # a tag as printed in the module's data sheet
    assert f[0] == 0x02 and f[-1] == 0x03 and len(f) == 14
    cs = 0x62 ^ 0xE3 ^ 0x08 ^ 0x6C ^ 0xED
    assert f[11:13] == f"{cs:02X}".encode()
    assert RDM6300Parser().feed(f) == ["62E3086CED"]


def test_lower_case_hex_is_read_upper_case() -> None:
    f = rdm6300_frame(TAG)
    assert RDM6300Parser().feed(f[:1] + f[1:13].lower() + f[13:]) == [TAG]


def test_bad_frames_are_dropped_and_counted() -> None:
    good = rdm6300_frame(TAG)
    bad_cs = good[:12] + (b"0" if good[12:13] != b"0" else b"1") + good[13:]
    no_etx = good[:13] + b"\x04"
    short = good[:8] + good[13:]
    p = RDM6300Parser()
    assert p.feed(bad_cs + no_etx + short + good) == [TAG]
    assert p.bad_frames == 3


tags = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())


def valid_tags_in(stream: bytes) -> set[str]:
    """Every tag a correct frame inside ``stream`` holds (the reference)."""
    out = set()
    for i in range(len(stream) - 13):
        chunk = stream[i : i + 14]
        try:
            if (
                chunk[0] == 2
                and chunk[13] == 3
                and rdm6300_frame(chunk[1:11].decode())
                == chunk[:1] + chunk[1:11].upper() + chunk[11:13].upper() + chunk[13:]
            ):
                out.add(chunk[1:11].decode().upper())
        except (UnicodeDecodeError, ValueError):
            pass
    return out


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=100), tag=tags, cut=st.integers(0, 120))
def test_fuzz_garbage_then_a_good_frame(garbage: bytes, tag: str, cut: int) -> None:
    stream = garbage + rdm6300_frame(tag)
    p = RDM6300Parser()
    got = p.feed(stream[:cut]) + p.feed(stream[cut:])
    assert got and got[-1] == tag
    assert set(got) <= valid_tags_in(stream)


@settings(max_examples=300, deadline=None)
@given(tag=tags, pos=st.integers(0, 13), flip=st.integers(1, 255))
def test_fuzz_one_corrupted_byte_never_gives_a_false_tag(tag: str, pos: int, flip: int) -> None:
    frame = bytearray(rdm6300_frame(tag))
    frame[pos] ^= flip
    p = RDM6300Parser()
    got = p.feed(bytes(frame))
    # a corrupted hex digit that stays a valid digit of the same value in another case
    # ('a' for 'A') is still the same tag; anything else must be refused
    assert got in ([], [tag])
    if got:
        assert bytes(frame).upper() == rdm6300_frame(tag)
    assert p.feed(rdm6300_frame("0102030405")) == ["0102030405"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_random_bytes(data: bytes) -> None:
    got = RDM6300Parser().feed(data)
    assert set(got) <= valid_tags_in(data)


def test_tap_filter_one_tap_while_lying_then_again_after_a_gap() -> None:
    f = TapFilter(gap_ms=300)
    seen = [f.seen(TAG, t) for t in (0, 100, 200, 450, 700)]
    assert seen == [True, False, False, False, False]  # read every 100-250 ms: one tap
    assert f.seen(TAG, 1200)  # absent 500 ms: a new tap
    assert f.seen("0000000001", 1210)  # another card at once


def test_sim_reader_and_open_reader() -> None:
    r = SimReader(["AA", "BB"])
    assert r.poll(5) == [CardTap(5, tag="AA")]
    assert r.poll(6) == [CardTap(6, tag="BB")] and r.poll(7) == []
    assert isinstance(open_reader("sim", None), SimReader)
    with pytest.raises(ValueError, match="serial port"):
        open_reader("pn532", None)
    with pytest.raises(ValueError, match="unknown card reader"):
        open_reader("barcode", "/dev/null")


@pytest.fixture
def device() -> Iterator[FakeRDM6300]:
    fake = FakeRDM6300()
    yield fake
    fake.close()


def poll_until(reader: RDM6300Reader, now: int) -> list[CardTap]:
    """Poll until the bytes written on the master side have crossed the pty."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        taps = reader.poll(now)
        if taps:
            return taps
        time.sleep(0.005)
    return []


def test_driver_over_a_pty_one_tap_for_a_card_left_on_it(device: FakeRDM6300) -> None:
    reader = RDM6300Reader.open(device.path, gap_ms=300)
    try:
        device.present(TAG, times=3)
        assert poll_until(reader, 10) == [CardTap(10, tag=TAG)]
        time.sleep(0.05)
        assert reader.poll(20) == []  # the repeats
        device.present(TAG)
        time.sleep(0.05)
        assert reader.poll(100) == []  # still lying there
        device.write(b"\x02\x7f junk \x03")
        device.present("0102030405")
        assert poll_until(reader, 150) == [CardTap(150, tag="0102030405")]
    finally:
        reader.close()


def test_a_reader_unplugged_and_plugged_back_in_is_opened_again(tmp_path: Path) -> None:
    # A USB-serial RDM6300 pulled out: its port fails (pyserial's error, an OSError).
    # The polls must not raise (the card thread would log a line a second for ever and
    # no card would be read again until a restart), the health says the port failed, and
    # when the reader is back under the same path (/dev/serial/by-id, here a symlink) the
    # port is opened again and taps resume.
    link = tmp_path / "reader"
    first = FakeRDM6300()
    link.symlink_to(first.path)
    reader = RDM6300Reader.open(str(link), gap_ms=300)
    second: FakeRDM6300 | None = None
    try:
        first.present(TAG)
        assert poll_until(reader, 0) == [CardTap(0, tag=TAG)]
        first.close()  # unplugged (mid-frame, say: half a frame was on its way)
        link.unlink()
        for t in range(100, 3000, 100):
            assert reader.poll(t) == []
        h = reader.health()
        assert h["ok"] is False and "port" in str(h["error"]) and "plugged in" in str(h["error"])
        assert reader.errors == 1  # one failure, then reopens tried every retry_ms
        second = FakeRDM6300()  # plugged back in: a new device behind the same path
        link.symlink_to(second.path)
        taps: list[CardTap] = []
        for t in range(3000, 6000, 100):
            taps += reader.poll(t)
            if reader.health()["ok"] and not taps:
                second.present("0102030405")
                taps += poll_until(reader, t)
        assert taps == [CardTap(taps[0].t, tag="0102030405")]
        assert reader.health() == {
            "kind": "rdm6300", "ok": True, "port": str(link), "error": None,
            "restarts": 1, "errors": 1,
        }  # fmt: skip
    finally:
        reader.close()
        if second is not None:
            second.close()


def test_a_reader_whose_port_fails_does_not_raise_in_the_card_thread() -> None:
    # pyserial's in_waiting on a port whose device is gone raises OSError (EIO), and its
    # reset and flush let termios.error through: both are a failed port, never a crash.
    import termios

    class Gone:
        @property
        def in_waiting(self) -> int:
            raise termios.error(5, "Input/output error")

        def read(self, size: int = 1) -> bytes:
            raise AssertionError("not read after in_waiting failed")

        def write(self, data: bytes) -> int:
            return len(data)

        def reset_input_buffer(self) -> None: ...

        def close(self) -> None: ...

    reader = RDM6300Reader(Gone())  # no path: it cannot be opened again
    assert reader.poll(0) == [] and reader.poll(5000) == []
    assert reader.health()["ok"] is False and reader.errors == 1
