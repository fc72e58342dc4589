# mypy: disable-error-code="import-not-found"
"""The firmware's loop logic under CPython: fake chain, clock, strip, watchdog, stream."""

from __future__ import annotations

import itertools
from typing import Any

import board_config
import protocol as P
from app import App, WatchdogGate
from fakes import FakeChain, FakeClock, FakeStrip, FakeWDT, ListStream
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scan import ChainScanner


class Rig:
    def __init__(self, chips: int = 2, leds: int = 4, test: bool = True, **cfg: Any) -> None:
        self.cfg = dict(
            board_config.DEFAULTS, chips=chips, leds=leds, scan_hz=250, debounce=3, **cfg
        )
        self.clock = FakeClock(1000)
        self.chain = FakeChain(chips, self.clock)
        self.scanner = ChainScanner(self.chain, self.chain.latch, chips)
        self.stream = ListStream()
        self.strip = FakeStrip(self.clock)
        self.wdt = FakeWDT(self.clock)
        self.app = App(
            self.cfg,
            self.scanner,
            self.stream,
            self.strip,
            self.clock,
            self.wdt,
            test_chain=self.chain if test else None,
        )
        self.decoder = P.Decoder()
        self.host_seq = 0

    def send(self, msg_type: int, payload: bytes = b"") -> None:
        self.stream.incoming += P.encode_frame(msg_type, self.host_seq, payload)
        self.host_seq += 1

    def run(self, ms: int) -> list[tuple[int, int, bytes]]:
        for _ in range(ms):
            self.app.step()
            self.clock.advance(1)
        out: list[tuple[int, int, bytes]] = self.decoder.feed(bytes(self.stream.sent))
        self.stream.sent = bytearray()
        return out

    def of(self, frames: list[tuple[int, int, bytes]], t: int) -> list[bytes]:
        return [p for ty, _, p in frames if ty == t]


def test_hello_and_snapshot() -> None:
    r = Rig()
    r.chain.set(3, True)
    r.run(20)
    r.send(P.CMD_HELLO, bytes([P.PROTOCOL_VERSION]))
    r.send(P.CMD_SNAPSHOT)
    frames = r.run(5)
    hello = P.decode_hello(r.of(frames, P.MSG_HELLO)[0])
    assert hello is not None and hello[:5] == (P.PROTOCOL_VERSION, 16, 4, 250, 3)
    snap = P.decode_snapshot(r.of(frames, P.MSG_SNAPSHOT)[0])
    assert snap is not None and snap[1:] == (16, True, bytes([0x10, 0x00]))


def test_changes_debounced_with_sequence_numbers() -> None:
    r = Rig()
    r.run(20)  # four good reads before the chain is trusted, then the baseline
    r.chain.set(9, True)
    r.run(6)  # 4 ms period: one or two samples so far, not yet three
    assert r.of(r.run(0), P.MSG_CHANGES) == []
    frames = r.run(20)
    changes = [P.decode_changes(p) for p in r.of(frames, P.MSG_CHANGES)]
    assert [c[1] for c in changes if c] == [[(9, True)]]
    seqs = [s for _, s, _ in frames]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_bounce_is_not_reported() -> None:
    r = Rig()
    r.run(20)
    r.chain.set(4, True)
    r.run(4)
    r.chain.set(4, False)
    assert r.of(r.run(40), P.MSG_CHANGES) == []


def test_heartbeat_counts_and_flags() -> None:
    r = Rig()
    r.stream.incoming += b"\x00garbage\x00"
    frames = r.run(1001)
    beats = [P.decode_heartbeat(p) for p in r.of(frames, P.MSG_HEARTBEAT)]
    assert len(beats) == 6  # every 200 ms while no host talks (a new host waits for one)
    _, counters, flags = beats[-1]
    assert counters["scans"] >= 240 and counters["rx_bad"] == 1
    assert flags & P.FLAG_CHAIN_OK and flags & P.FLAG_LINK_LOST and flags & P.FLAG_TEST_CHAIN
    r.send(P.CMD_PING)
    beats = r.of(r.run(3000), P.MSG_HEARTBEAT)
    assert 3 <= len(beats) <= 4  # a host talks (then goes quiet after 3 s): every second


def test_broken_chain_logged_flagged_and_not_debounced() -> None:
    r = Rig()
    r.run(20)
    r.chain.break_after(1)
    frames = r.run(50)
    logs = r.of(frames, P.MSG_LOG)
    assert any(b"chain fault: tail bits wrong" in x for x in logs)
    assert r.of(frames, P.MSG_CHANGES) == []  # all ones from a cut line are not pawns
    r.send(P.CMD_SNAPSHOT)
    snap = P.decode_snapshot(r.of(r.run(2), P.MSG_SNAPSHOT)[0])
    assert snap is not None and snap[2] is False
    r.chain.repair()
    assert any(b"chain ok" in x for x in r.of(r.run(30), P.MSG_LOG))


def test_a_host_that_greets_during_a_chain_fault_hears_its_cause() -> None:
    # The fault is logged once per outage: a selftest started after it (a host that was
    # not listening then) must still hear what is wrong, not only chain_ok=0.
    r = Rig()
    r.run(20)
    r.chain.break_after(1)
    r.run(50)
    r.send(P.CMD_HELLO, bytes([P.PROTOCOL_VERSION]))
    frames = r.run(5)
    assert r.of(frames, P.MSG_HELLO)
    assert any(b"chain fault: tail bits wrong" in x for x in r.of(frames, P.MSG_LOG))
    r.chain.repair()
    r.run(30)
    r.send(P.CMD_HELLO, bytes([P.PROTOCOL_VERSION]))
    assert not any(b"chain fault" in x for x in r.of(r.run(5), P.MSG_LOG))


def test_led_frame_reaches_strip_after_brightness_and_cap() -> None:
    r = Rig(brightness=255, max_ma=10_000)
    r.send(P.CMD_LEDS, P.u16(0) + bytes([255, 0, 0, 0, 0, 10]))
    r.run(2)
    assert r.strip.last == bytes([0, 255, 0, 0, 0, 10]) + bytes(6)
    r.send(P.CMD_LEDS, P.u16(3) + bytes([1, 2, 3]))  # a partial update at LED 3
    r.send(P.CMD_CONFIG, bytes([128]) + P.u16(10_000))
    r.run(2)
    assert r.strip.last == bytes([0, 128, 0, 0, 0, 5, 0, 0, 0, 1, 0, 1])


def test_link_lost_pattern_then_back() -> None:
    r = Rig(link_timeout_ms=500)
    r.send(P.CMD_LEDS, P.u16(0) + bytes([0, 0, 200]))
    r.run(10)
    shown = r.strip.last
    assert shown is not None and shown[2] > 0
    r.run(600)  # host silent: the amber pattern replaces the frame
    lost = r.strip.last
    assert lost is not None and lost != shown
    lit = [lost[i : i + 3] for i in range(0, len(lost), 3) if any(lost[i : i + 3])]
    assert lit and all(g < r_ and b == 0 for g, r_, b in lit)  # GRB: amber
    assert r.app.link_lost
    r.send(P.CMD_PING, b"hi")
    frames = r.run(2)
    assert r.of(frames, P.MSG_PONG) == [b"hi"]
    assert r.strip.last == shown and not r.app.link_lost


def test_host_sequence_gaps_counted() -> None:
    r = Rig()
    r.send(P.CMD_HELLO, b"\x01")
    r.send(P.CMD_PING)
    r.host_seq += 3  # three frames lost on the way
    r.send(P.CMD_PING)
    r.run(2)
    assert r.app.link.rx_gaps == 1


def test_test_commands_refused_on_a_real_board() -> None:
    r = Rig(test=False)
    r.send(P.CMD_TEST_SWITCHES, P.u16(2 | P.CLOSED_FLAG))
    frames = r.run(30)
    assert r.of(frames, P.MSG_CHANGES) == []
    assert any(b"unknown command 0x8f" in x for x in r.of(frames, P.MSG_LOG))


def test_test_switches_command_drives_the_fake_chain() -> None:
    r = Rig()
    r.run(20)
    r.send(P.CMD_TEST_SWITCHES, P.u16(2 | P.CLOSED_FLAG) + P.u16(15 | P.CLOSED_FLAG))
    changes = [P.decode_changes(p) for p in r.of(r.run(30), P.MSG_CHANGES)]
    assert [c[1] for c in changes if c] == [[(2, True), (15, True)]]


def test_maintenance_needs_the_magic() -> None:
    r = Rig()
    r.send(P.CMD_MAINTENANCE, b"nope")
    r.run(2)
    assert not r.app.maintenance
    r.send(P.CMD_MAINTENANCE, P.MAINTENANCE_MAGIC)
    r.run(2)
    assert r.app.maintenance


def test_watchdog_fed_only_while_scanning_and_link_progress() -> None:
    wdt = FakeWDT()
    gate = WatchdogGate(wdt)
    assert gate.check(1, 1)
    assert not gate.check(1, 2)  # link polled, but no new scan: stuck scanner
    assert not gate.check(2, 1)  # new scan, link not serviced: stuck link
    assert gate.check(2, 2)
    assert len(wdt.feeds) == 2
    assert not WatchdogGate(None).check(5, 5)


def test_watchdog_in_the_loop() -> None:
    r = Rig()
    r.run(100)
    fed = len(r.wdt.feeds)
    assert fed >= 20  # about once a scan
    # A stuck scan: the scanner stops counting, so the watchdog starves.
    r.scanner.scan = lambda: True
    r.run(100)
    assert len(r.wdt.feeds) == fed


def test_scan_overrun_counted_not_bursted() -> None:
    r = Rig()
    r.run(5)
    scans = r.scanner.scans
    r.clock.advance(50)  # the loop stalled for 50 ms
    r.run(1)
    assert r.app.overruns == 1 and r.scanner.scans == scans + 1


def test_invalid_board_json_falls_back_to_defaults(tmp_path: Any) -> None:
    bad = tmp_path / "board.json"
    bad.write_text("{not json")
    assert board_config.load(str(bad)) == board_config.DEFAULTS
    good = tmp_path / "good.json"
    good.write_text('{"chips": 12, "leds": 96, "bogus": 1}')
    cfg = board_config.load(str(good))
    assert cfg["chips"] == 12 and cfg["leds"] == 96 and "bogus" not in cfg


FUZZ = settings(
    derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FUZZ
@given(st.binary(max_size=800))
def test_fuzz_random_bytes_into_the_firmware(garbage: bytes) -> None:
    assume(P.Decoder().feed(garbage) == [])
    r = Rig(test=False)
    r.run(10)
    r.stream.incoming += garbage
    frames = r.run(30)
    assert r.of(frames, P.MSG_CHANGES) == []
    r.send(P.CMD_PING, b"still here")
    assert r.of(r.run(2), P.MSG_PONG) == [b"still here"]


@FUZZ
@given(st.lists(st.tuples(st.integers(0x80, 0x8C), st.binary(max_size=60)), max_size=8))
def test_fuzz_well_framed_nonsense_commands(cmds: list[tuple[int, bytes]]) -> None:
    """Valid frames, arbitrary payloads (maintenance and test commands excluded)."""
    r = Rig(test=False)
    r.run(10)
    for t, payload in cmds:
        r.send(t, payload)
    frames = r.run(10)
    assert r.of(frames, P.MSG_CHANGES) == []
    assert r.strip.last is None or len(r.strip.last) == 3 * r.app.n_leds


# --- LEDs: patterns animated by the firmware, the current cap, link-lost redraws --------


def lit(grb: bytes | None) -> list[int]:
    assert grb is not None
    return [i for i in range(len(grb) // 3) if any(grb[3 * i : 3 * i + 3])]


def test_patterns_are_animated_by_the_firmware() -> None:
    import patterns

    r = Rig(brightness=255, max_ma=10_000)
    r.send(P.CMD_LEDS, P.u16(0) + bytes([200, 0, 0] * 4))
    r.send(P.CMD_PATTERNS, P.u16(1) + bytes([patterns.BLINK_FAST, patterns.DIM, 77]))
    r.run(5)
    r.strip.frames.clear()
    r.run(1000)
    writes = r.strip.frames
    # LED 0 steady, LED 1 blinks at 4 Hz (8 edges a second), LED 2 dim, LED 3: an unknown
    # id is shown steady (never an index out of range)
    assert 7 <= len(writes) <= 10
    for t, grb in writes:
        assert grb[1] == 200 and grb[10] == 200 and grb[7] == (200 * 90) >> 8
        assert grb[4] == (200 if t % 250 < 125 else 0)
    assert r.app.unknown == 0


def test_current_cap_is_the_lower_of_host_and_board() -> None:
    r = Rig(max_ma=1500)
    for host, expect in ((60_000, 1500), (2000, 1500), (0, 1500), (800, 800)):
        r.send(P.CMD_CONFIG, bytes([255]) + P.u16(host))
        r.run(2)
        assert r.app.max_ma == expect, host


def test_link_lost_pattern_redrawn_only_when_it_moves() -> None:
    r = Rig(link_timeout_ms=500, leds=16)
    r.run(600)
    n0 = len(r.strip.frames)
    r.run(1500)
    assert len(r.strip.frames) - n0 in (10, 11)  # one step every 150 ms, not every 50 ms
    phases = [lit(f)[0] for _, f in r.strip.frames[n0:]]
    assert all((b - a) % 8 == 1 for a, b in itertools.pairwise(phases))


def test_a_stalled_usb_endpoint_drops_whole_frames_and_counts_them() -> None:
    r = Rig()
    r.run(50)
    r.stream.writable = False  # the host stopped reading: POLLOUT never comes
    before = r.app.link.tx_dropped
    r.send(P.CMD_PING, b"x")
    r.chain.set(3, True)
    r.run(1500)
    dropped = r.app.link.tx_dropped - before
    assert dropped >= 3  # the pong, the change, the heartbeat(s): each counted whole
    assert len(r.wdt.feeds) > 0 and r.wdt.feeds[-1] >= r.clock.now - 10  # still fed
    r.stream.writable = True
    r.send(P.CMD_SNAPSHOT)
    frames = r.run(5)
    snap = P.decode_snapshot(r.of(frames, P.MSG_SNAPSHOT)[0])
    assert snap is not None and snap[3][0] & 0x10  # the state survives for a resync
