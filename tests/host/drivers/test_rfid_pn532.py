"""PN532 in HSU mode: frame codec, fuzzed parser, and the driver against a fake chip on
the far side of a pseudo-terminal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keezbord.host.drivers.pn532_frames import (
    ACK,
    CMD_GET_FIRMWARE_VERSION,
    CMD_IN_LIST_PASSIVE_TARGET,
    CMD_IN_RELEASE,
    CMD_RF_CONFIGURATION,
    CMD_SAM_CONFIGURATION,
    NACK,
    Ack,
    Frame,
    FrameParser,
    Nack,
    build_frame,
    command_frame,
    parse_target,
    response_frame,
)
from keezbord.host.drivers.rfid_base import open_serial
from keezbord.host.drivers.rfid_fakes import FakePN532
from keezbord.host.drivers.rfid_pn532 import PN532, PN532Error, PN532Reader


def uid_answer(uid: bytes) -> bytes:
    return response_frame(
        CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x01\x00\x44\x00" + bytes([len(uid)]) + uid
    )


def tags_in(frames: list[Ack | Nack | Frame]) -> list[str]:
    out = []
    for f in frames:
        if isinstance(f, Frame) and f.tfi == 0xD5 and f.data[:1] == b"\x4b":
            uid = parse_target(f.data[1:])
            if uid is not None:
                out.append(uid.hex().upper())
    return out


def test_command_frame_layout() -> None:
    # SAMConfiguration, the example of the PN532 user manual
    assert command_frame(CMD_SAM_CONFIGURATION, b"\x01\x14\x01") == bytes.fromhex(
        "0000FF05FBD4140114010200"
    )
    assert build_frame(0x7F, b"") == bytes.fromhex("0000FF01FF7F8100")


def test_parser_reads_ack_nack_error_and_data_frames() -> None:
    p = FrameParser()
    frames = p.feed(ACK + NACK + build_frame(0x7F, b"") + uid_answer(b"\x04\xa1\xb2\xc3"))
    assert frames[0] == Ack() and frames[1] == Nack()
    assert frames[2] == Frame(0x7F, b"")
    assert tags_in(frames) == ["04A1B2C3"]


def test_parser_waits_for_a_split_frame() -> None:
    p = FrameParser()
    whole = uid_answer(bytes.fromhex("04112233445566"))
    for i in range(len(whole) - 2):  # up to the DCS, byte by byte
        assert p.feed(whole[i : i + 1]) == []
    assert tags_in(p.feed(whole[-2:])) == ["04112233445566"]


def test_extended_frame() -> None:
    body = b"\xd5\x41" + bytes(range(256)) * 2
    n = len(body)
    raw = (
        b"\x00\x00\xff\xff\xff"
        + bytes([n >> 8, n & 0xFF, (-(n >> 8) - n) & 0xFF])
        + body
        + bytes([(-sum(body)) & 0xFF, 0])
    )
    assert FrameParser().feed(raw) == [Frame(0xD5, body[1:])]


def test_bad_checksums_are_dropped_and_counted() -> None:
    good = uid_answer(b"\x04\xa1\xb2\xc3")
    bad_dcs = good[:-2] + bytes([good[-2] ^ 1]) + b"\x00"
    bad_lcs = good[:4] + bytes([good[4] ^ 1]) + good[5:]
    p = FrameParser()
    assert tags_in(p.feed(bad_dcs + bad_lcs + good)) == ["04A1B2C3"]
    assert p.bad_frames >= 2


def test_parse_target_refuses_odd_answers() -> None:
    assert parse_target(b"\x00") is None  # no target
    assert parse_target(b"\x01\x01\x00\x44\x00\x05abcde") is None  # 5-byte UID: no such
    assert parse_target(b"\x01\x01\x00\x44\x00\x07abc") is None  # truncated
    assert parse_target(b"\x01\x01\x00\x44\x00\x04\x01\x02\x03\x04") == b"\x01\x02\x03\x04"


uids = st.sampled_from([4, 7]).flatmap(lambda n: st.binary(min_size=n, max_size=n))


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=200), uid=uids, cut=st.integers(0, 300))
def test_fuzz_garbage_then_a_good_frame(garbage: bytes, uid: bytes, cut: int) -> None:
    p = FrameParser()
    stream = garbage + uid_answer(uid)
    cut = min(cut, len(stream))
    frames = p.feed(stream[:cut]) + p.feed(stream[cut:]) + p.drain()
    tags = tags_in(frames)
    assert uid.hex().upper() in tags
    # nothing that the stream does not really hold
    assert all(bytes.fromhex(t) in stream for t in tags)


@settings(max_examples=300, deadline=None)
@given(uid=uids, pos=st.integers(0, 100), flip=st.integers(1, 255))
def test_fuzz_one_corrupted_byte_never_gives_a_false_tag(uid: bytes, pos: int, flip: int) -> None:
    frame = bytearray(uid_answer(uid))
    pos %= len(frame) - 1  # the postamble is not checked (and need not be)
    frame[pos] ^= flip
    p = FrameParser()
    tags = tags_in(p.feed(bytes(frame)) + p.drain())
    # the preamble (byte 0) is not part of the checked frame: losing it loses nothing
    assert tags == ([uid.hex().upper()] if pos == 0 else [])
    # and the parser recovers: the next good frame is read
    assert tags_in(p.feed(uid_answer(b"\x01\x02\x03\x04")) + p.drain()) == ["01020304"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_random_bytes_never_crash(data: bytes) -> None:
    p = FrameParser()
    for f in p.feed(data) + p.drain():
        assert isinstance(f, Ack | Nack | Frame)


@pytest.fixture
def chip() -> Iterator[FakePN532]:
    fake = FakePN532()
    yield fake
    fake.close()


def test_driver_wakes_the_chip_and_configures_it(chip: FakePN532) -> None:
    reader = PN532Reader.open(chip.path)
    try:
        assert reader.firmware == (0x32, 0x01, 0x06)
        assert chip.commands_sent()[:2] == [CMD_SAM_CONFIGURATION, CMD_RF_CONFIGURATION]
        assert chip.received.startswith(b"\x55\x55\x00")  # the HSU wake-up preamble
        assert chip.commands[0].params == b"\x01\x14\x01"
    finally:
        reader.close()


def test_asleep_chip_without_wakeup_is_an_error(chip: FakePN532) -> None:
    from keezbord.host.drivers.rfid_base import open_serial
    from keezbord.host.drivers.rfid_pn532 import PN532

    pn = PN532(open_serial(chip.path, 115200, 0.01), ack_timeout=0.05)
    with pytest.raises(PN532Error, match="no acknowledgement"):
        pn.command(0x02)
    pn.port.close()


def test_driver_reports_one_tap_per_card_lying_on_the_reader(chip: FakePN532) -> None:
    reader = PN532Reader.open(chip.path, gap_ms=500)
    try:
        assert reader.poll(0) == []
        chip.uid = bytes.fromhex("04A1B2C3D4E5F6")
        taps = [reader.poll(t) for t in (100, 200, 300)]
        assert [[c.tag for c in ts] for ts in taps] == [["04A1B2C3D4E5F6"], [], []]
        assert taps[0][0].t == 100
        chip.uid = None
        assert reader.poll(400) == []
        chip.uid = bytes.fromhex("04A1B2C3D4E5F6")  # taken away and tapped again
        assert [c.tag for c in reader.poll(1000)] == ["04A1B2C3D4E5F6"]
        chip.uid = bytes.fromhex("DEADBEEF")  # another card at once: a new tap
        assert [c.tag for c in reader.poll(1050)] == ["DEADBEEF"]
        sent = chip.commands_sent()
        assert sent.count(CMD_IN_LIST_PASSIVE_TARGET) == 7
        assert sent.count(CMD_IN_RELEASE) == 5
    finally:
        reader.close()


def test_driver_reads_through_line_noise(chip: FakePN532) -> None:
    chip.noise = b"\x00\xff\x07\x13garbage\x00\x00\xff"
    chip.uid = b"\x11\x22\x33\x44"
    reader = PN532Reader.open(chip.path)
    try:
        assert [c.tag for c in reader.poll(0)] == ["11223344"]
    finally:
        reader.close()


def test_a_chip_that_browns_out_is_woken_and_set_up_again(chip: FakePN532) -> None:
    reader = PN532Reader(
        PN532(open_serial(chip.path, 115200, 0.01), ack_timeout=0.05, response_timeout=0.1),
        gap_ms=500,
        restart_after=3,
    )
    try:
        chip.uid = bytes.fromhex("04A1B2C3D4E5F6")
        assert [c.tag for c in reader.poll(0)] == ["04A1B2C3D4E5F6"]
        chip.uid = None
        chip.brown_out()  # asleep again: every frame is ignored until a wake-up preamble
        before = len(chip.commands)
        assert [reader.poll(t) for t in (100, 200)] == [[], []]
        assert reader.restarts == 0 and len(chip.commands) == before
        assert reader.poll(300) == []  # the third failure in a row: set it up again
        assert reader.restarts == 1
        assert chip.commands_sent()[before:] == [
            CMD_SAM_CONFIGURATION,
            CMD_RF_CONFIGURATION,
            CMD_GET_FIRMWARE_VERSION,
        ]
        assert chip.retries_limited  # a poll with no card answers at once again
        assert reader.poll(400) == [] and reader.failing == 0
        chip.uid = bytes.fromhex("DEADBEEF")
        assert [c.tag for c in reader.poll(1500)] == ["DEADBEEF"]
    finally:
        reader.close()


def test_one_lost_answer_does_not_restart_the_chip(chip: FakePN532) -> None:
    reader = PN532Reader(
        PN532(open_serial(chip.path, 115200, 0.01), ack_timeout=0.05, response_timeout=0.1),
        restart_after=3,
    )
    try:
        chip.drop = 1  # one frame lost on a loose cable
        assert reader.poll(0) == [] and reader.errors == 1
        chip.uid = b"\x11\x22\x33\x44"
        assert [c.tag for c in reader.poll(100)] == ["11223344"]
        assert reader.failing == 0 and reader.restarts == 0
        assert chip.commands_sent().count(CMD_SAM_CONFIGURATION) == 1
    finally:
        reader.close()


def test_a_chip_that_stays_away_is_retried_without_blocking_every_poll(chip: FakePN532) -> None:
    reader = PN532Reader(
        PN532(open_serial(chip.path, 115200, 0.01), ack_timeout=0.02, response_timeout=0.05),
        restart_after=2,
    )
    try:
        chip.brown_out()
        chip.drop = 10**6  # and its cable is off: nothing ever answers
        for t in range(6):
            assert reader.poll(t) == []
        assert reader.errors == 6 and reader.restarts == 0
        wakes = chip.received.count(b"\x55\x55")
        assert wakes == 1 + 3  # the first set-up, then one attempt every 2 failed polls
    finally:
        reader.close()


def test_the_reader_port_is_opened_exclusively(chip: FakePN532) -> None:
    reader = PN532Reader.open(chip.path)
    try:
        with pytest.raises(OSError):
            open_serial(chip.path, 115200, 0.01)
    finally:
        reader.close()


def test_a_reader_unpowered_at_open_is_found_when_it_is_switched_on() -> None:
    # issue 24 item 6: a PN532 on the board's 5 V, switched on after the Pi, used to be
    # turned off until the service restarted. Now it is tried again in the background.
    chip = FakePN532(powered=False)
    try:
        reader = PN532Reader.open(chip.path)  # the port opens; the chip does not answer
        try:
            assert reader.firmware is None
            h = reader.health()
            assert h["ok"] is False and "does not answer" in str(h["error"])
            assert chip.path in str(h["error"])
            assert reader.poll(0) == []
            tries = chip.received.count(b"\x55\x55")
            assert reader.poll(500) == [] and chip.received.count(b"\x55\x55") == tries
            chip.power_on()
            chip.uid = bytes.fromhex("04A1B2C3D4E5F6")
            assert reader.poll(2000) == []  # this poll sets it up
            assert reader.firmware == (0x32, 0x01, 0x06) and reader.health()["ok"] is True
            assert [c.tag for c in reader.poll(2100)] == ["04A1B2C3D4E5F6"]
            assert reader.restarts == 1
            chip.powered = False  # switched off again: missing after the set-up fails
            for t in range(2200, 2800, 100):
                reader.poll(t)
            assert reader.health()["ok"] is False
        finally:
            reader.close()
    finally:
        chip.close()


def test_a_reader_unplugged_and_plugged_back_in_is_opened_again(tmp_path: Path) -> None:
    # A USB-serial PN532 pulled out: its port fails (pyserial's SerialException, an
    # OSError, not the chip's silence). The polls must not raise (the card thread died of
    # it), the health says the port failed, and when the reader is back under the same
    # path (/dev/serial/by-id, here a symlink) the port is opened again and taps resume.
    link = tmp_path / "reader"
    first = FakePN532()
    link.symlink_to(first.path)
    reader = PN532Reader.open(str(link))
    second: FakePN532 | None = None
    try:
        first.uid = bytes.fromhex("04A1B2C3D4E5F6")
        assert [c.tag for c in reader.poll(0)] == ["04A1B2C3D4E5F6"]
        first.close()  # unplugged
        for t in range(100, 1000, 100):
            assert reader.poll(t) == []
        h = reader.health()
        assert h["ok"] is False and "port" in str(h["error"]) and "plugged in" in str(h["error"])
        second = FakePN532()  # plugged back in: a new device behind the same path
        second.uid = bytes.fromhex("11223344")
        link.unlink()
        link.symlink_to(second.path)
        taps: list[str] = []
        for t in range(1000, 2000, 100):
            taps += [str(c.tag) for c in reader.poll(t)]
        assert taps == ["11223344"]
        assert reader.health()["ok"] is True and reader.restarts >= 1
    finally:
        reader.close()
        if second is not None:
            second.close()
