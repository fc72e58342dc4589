"""The host's link client against the real firmware logic (CPython, fake clock): the
firmware's App runs behind a fake serial port, so every frame is the firmware's own."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.link_serial import LinkSession, SerialLink
from keezbord.host.drivers.switches import SwitchChange
from keezbord.host.events import HoleEvent

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "firmware"))

import board_config
from app import App
from fakes import FakeChain, FakeClock, FakeStrip, FakeWDT, ListStream
from scan import ChainScanner


class LossyStream(ListStream):  # type: ignore[misc]
    """Drops the next `drop` frames of type `drop_type` on their way to the host."""

    def __init__(self) -> None:
        super().__init__()
        self.drop_type: int | None = None
        self.drop = 0

    def write(self, buf: bytes, n: int) -> bool:
        data = bytes(buf[:n])
        body = P.cobs_decode(bytes(data[1:-1]))
        if self.drop and body and body[0] == self.drop_type:
            self.drop -= 1
            return True
        return bool(super().write(data, n))


class Pico:
    """The firmware's App with fake hardware; `port()` opens a fake serial port to it."""

    def __init__(self, chips: int = 2, leds: int = 4, **cfg: Any) -> None:
        self.clock = FakeClock(5000)
        self.cfg = dict(
            board_config.DEFAULTS,
            chips=chips,
            leds=leds,
            scan_hz=250,
            debounce=3,
            brightness=255,
            max_ma=60_000,
        )
        self.cfg.update(cfg)
        self.chain = FakeChain(chips, self.clock)
        self.stream = LossyStream()
        self.strip = FakeStrip(self.clock)
        self.app = App(
            self.cfg,
            ChainScanner(self.chain, self.chain.latch, chips),
            self.stream,
            self.strip,
            self.clock,
            FakeWDT(self.clock),
            test_chain=self.chain,
        )
        self.garbage = b""
        self.unplugged = False
        self.opened = 0

    def run(self, ms: int) -> None:
        for _ in range(ms):
            self.app.step()
            self.clock.advance(1)

    def port(self, name: str) -> FakePort:
        if self.unplugged:
            raise OSError(2, "No such file or directory", name)
        self.opened += 1
        self.stream.sent = bytearray()  # what was sent with nobody listening is gone
        return FakePort(self)


class FakePort:
    def __init__(self, pico: Pico) -> None:
        self.pico = pico
        self.timeout: float | None = 0.0
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        return 0

    def read(self, size: int = 1) -> bytes:
        p = self.pico
        if p.unplugged:
            raise OSError(5, "Input/output error")
        p.run(5)
        data = p.garbage + bytes(p.stream.sent)
        p.garbage = b""
        p.stream.sent = bytearray()
        return data

    def write(self, data: bytes, /) -> int:
        if self.pico.unplugged:
            raise OSError(5, "Input/output error")
        self.pico.stream.incoming += data
        self.written += data
        return len(data)

    def close(self) -> None:
        pass


def connect(pico: Pico, **kw: Any) -> SerialLink:
    """Open the port and wait (polling) for the firmware's first frame: only then does
    the host send its HELLO and SNAPSHOT requests."""
    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=pico.port, **kw)
    assert link.connect()
    assert link.session.take_outgoing() == b""  # nothing sent yet
    for _ in range(100):
        link.poll()
        if link.session.peer_seen:
            break
    assert link.session.peer_seen
    return link


def poll_for(link: SerialLink, ms: int) -> list[SwitchChange]:
    out: list[SwitchChange] = []
    for _ in range(ms // 5):
        out += link.poll()
    return out


def test_handshake_and_initial_snapshot() -> None:
    pico = Pico()
    pico.chain.set(1, True)
    pico.chain.set(12, True)
    pico.run(30)
    link = connect(pico)
    changes = poll_for(link, 30)
    assert [(c.index, c.closed) for c in changes] == [(1, True), (12, True)]
    h = link.health()
    assert h.connected and h.firmware and h.firmware.startswith("keezbord-fw")
    assert h.snapshots == 1 and h.frames_bad == 0 and h.chain_ok is True
    assert link.session.hello is not None and link.session.hello.n_bits == 16


def test_initial_snapshot_silent_when_asked() -> None:
    pico = Pico()
    pico.chain.set(1, True)
    pico.run(30)
    link = connect(pico, emit_initial=False)
    assert poll_for(link, 30) == []
    assert link.session.closed(1) is True and link.session.closed(2) is False


def test_switch_changes_and_hole_events() -> None:
    pico = Pico()
    link = connect(pico)
    poll_for(link, 30)
    pico.chain.set(9, True)
    changes = poll_for(link, 40)
    assert [(c.index, c.closed) for c in changes] == [(9, True)]
    assert pico.clock.now - 40 < changes[0].t <= pico.clock.now

    class Wiring:
        def hole_at_switch(self, i: int) -> str | None:
            return {9: "T3"}.get(i)

    pico.chain.set(9, False)
    pico.chain.set(10, True)  # a spare input: no hole, no event
    events = []
    for _ in range(10):
        events += link.hole_events(0, Wiring())  # type: ignore[arg-type]
    assert [(e.action, e.hole) for e in events] == [("lift", "T3")]
    assert all(isinstance(e, HoleEvent) for e in events)


def test_garbage_counted_and_no_false_change() -> None:
    pico = Pico()
    link = connect(pico)
    poll_for(link, 30)
    pico.garbage = b"\x00\x13\x37garbage\xff\x00\x02\x02\x02\x00"
    pico.chain.set(3, True)
    changes = poll_for(link, 40)
    assert [(c.index, c.closed) for c in changes] == [(3, True)]
    assert link.health().frames_bad == 2


def test_sequence_gap_heals_through_snapshot() -> None:
    pico = Pico()
    link = connect(pico)
    poll_for(link, 30)
    pico.stream.drop_type, pico.stream.drop = P.MSG_CHANGES, 1
    pico.chain.set(4, True)  # this CHANGES frame is lost
    poll_for(link, 30)
    pico.chain.set(5, True)  # the next one shows the gap
    changes = poll_for(link, 40)
    assert sorted((c.index, c.closed) for c in changes) == [(4, True), (5, True)]
    h = link.health()
    assert h.gaps == 1 and h.snapshots == 3  # with the one at first trusted read


def test_unplug_and_replug_resyncs() -> None:
    pico = Pico()
    link = connect(pico, retry_ms=100)
    poll_for(link, 30)
    pico.chain.set(2, True)
    poll_for(link, 40)
    pico.unplugged = True
    assert link.poll() == [] and not link.connected
    assert link.health().error and not link.health().ok
    pico.run(50)
    pico.chain.set(2, False)  # while the cable was out
    pico.chain.set(7, True)
    pico.run(50)
    pico.unplugged = False
    changes = poll_for(link, 1500)  # reconnect, then the next heartbeat, then resync
    assert sorted((c.index, c.closed) for c in changes) == [(2, False), (7, True)]
    h = link.health()
    assert h.connected and h.reconnects == 1 and h.snapshots == 3


def test_pings_keep_the_firmware_out_of_link_lost() -> None:
    pico = Pico(link_timeout_ms=800)
    link = connect(pico, ping_ms=300)
    link.send_leds([(10, 20, 30)] * 4)
    poll_for(link, 2000)
    assert not pico.app.link_lost
    assert pico.strip.last == bytes([20, 10, 30]) * 4
    h = link.health()
    assert h.last_heartbeat_age_ms is not None and h.last_heartbeat_age_ms <= 1000
    assert h.firmware_counters["led_frames"] == 1 and h.ok


def test_big_led_frames_go_in_chunks() -> None:
    pico = Pico(leds=400)
    link = connect(pico)
    colours = [(i % 256, 0, 1) for i in range(400)]
    assert link.send_leds(colours)
    poll_for(link, 20)
    assert pico.app.led_frames == 2
    expect = b"".join(bytes((g, r, b)) for r, g, b in colours)
    assert pico.strip.last == expect


def test_version_mismatch_is_an_error_and_blocks_events() -> None:
    s = LinkSession(lambda: 0)
    s.start()
    s.take_outgoing()
    bad_hello = bytes((P.PROTOCOL_VERSION + 1,)) + bytes(7) + b"old"
    snap = P.encode_snapshot(0, 8, True, b"\xff")
    wire = (
        P.encode_frame(P.MSG_HELLO, 0, bad_hello)
        + P.encode_frame(P.MSG_SNAPSHOT, 1, snap)
        + P.encode_frame(P.MSG_CHANGES, 2, P.encode_changes(0, [(1, False)]))
    )
    assert s.receive(wire) == []
    assert s.error is not None and "firmware install" in s.error


def test_no_pico_found_is_reported() -> None:
    link = SerialLink(None, find_port=lambda: None, clock=lambda: 0)
    assert link.poll() == []
    h = link.health()
    assert not h.connected and h.error and "2E8A" in h.error
    assert h.to_dict()["ok"] is False


def _ready_session() -> LinkSession:
    s = LinkSession(lambda: 0)
    s.start()
    s.receive(
        P.encode_frame(P.MSG_HELLO, 0, P.encode_hello(16, 4, 250, 3, "t"))
        + P.encode_frame(P.MSG_SNAPSHOT, 1, P.encode_snapshot(0, 16, True, b"\x00\x00"))
    )
    return s


@settings(
    derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.binary(max_size=600))
def test_fuzz_session_garbage_yields_nothing_then_resyncs(garbage: bytes) -> None:
    assume(P.Decoder().feed(garbage) == [])
    s = _ready_session()
    assert s.receive(garbage) == []
    after = P.encode_frame(P.MSG_CHANGES, 2, P.encode_changes(0, [(5, True)]))
    assert [(c.index, c.closed) for c in s.receive(after)] == [(5, True)]


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=40)), max_size=10
    )
)
def test_fuzz_session_well_framed_nonsense_never_crashes(
    frames: list[tuple[int, int, bytes]],
) -> None:
    """Valid CRCs around nonsense payloads: the session must not raise."""
    s = _ready_session()
    for t, q, p in frames:
        for c in s.receive(P.encode_frame(t, q, p)):
            assert 0 <= c.index < 16


def test_pawns_on_the_board_at_boot_reach_a_host_that_asked_early() -> None:
    """The host greets at the firmware's first heartbeat, sent at boot, so its snapshot
    request can arrive before the chain is trusted (four good reads). The firmware sends
    the real state once it has it."""
    pico = Pico()
    pico.chain.set(4, True)
    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=pico.port)
    assert link.connect()
    changes = poll_for(link, 100)
    assert [(c.index, c.closed) for c in changes] == [(4, True)]
    assert link.health().chain_ok is True
