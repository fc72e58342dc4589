"""LED traffic from the host to the Pico (issue 9, item 2): only on change, only the
changed span, paced by a token bucket (issue 29: an update right after another goes at
once, up to LED_BURST of them) and never more than LED_UPDATES_PER_S in any second, in
play and in the selftest, and a port that stops taking data causes neither a reconnect storm
nor a backlog."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

import serial
from test_link_session import FakePort, Pico

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.leds import LedRenderer, LedSettings
from keezbord.host.drivers.link_serial import (
    PICO_PID,
    PICO_VID,
    SerialLink,
    find_pico_port,
)
from keezbord.host.drivers.link_session import LED_BURST, LED_MIN_INTERVAL_MS, LED_UPDATES_PER_S
from keezbord.host.drivers.polled import SerialBoard
from keezbord.host.selftest import link_led_show

WIRING = default_wiring(Topology(4, 16))
HOLES = [h for h in WIRING.led_order if h is not None]
SETTINGS = LedSettings(brightness=0.5, budget_ma=None)


class RecordingPort(FakePort):
    """Records the host's frames with the time they were written; can stall."""

    def __init__(self, pico: Pico) -> None:
        super().__init__(pico)
        self.frames: list[tuple[int, P.Frame]] = []
        self.decoder = P.Decoder()
        self.stall = False
        self.backlog = 0
        self.writes = 0

    @property
    def out_waiting(self) -> int:
        return self.backlog

    def write(self, data: bytes, /) -> int:
        self.writes += 1
        if self.stall:
            raise serial.SerialTimeoutException("Write timeout")
        t = self.pico.clock.ms()
        self.frames += [(t, f) for f in self.decoder.feed(data)]
        return int(super().write(data))

    def led_frames(self) -> list[tuple[int, P.Frame]]:
        return [(t, f) for t, f in self.frames if f.type in (P.CMD_LEDS, P.CMD_PATTERNS)]


def rig(**kw: Any) -> tuple[Pico, SerialLink, list[RecordingPort]]:
    pico = Pico(chips=WIRING.chips, leds=len(WIRING.led_order))
    ports: list[RecordingPort] = []

    def open_port(name: str) -> RecordingPort:
        pico.port(name)
        ports.append(RecordingPort(pico))
        return ports[-1]

    link = SerialLink(
        "/dev/fake", clock=pico.clock.ms, open_port=open_port, emit_initial=False, **kw
    )
    return pico, link, ports


def test_nothing_is_sent_while_the_frame_is_unchanged() -> None:
    pico, link, ports = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    board.show_leds({HOLES[3]: "target", HOLES[5]: "error"}, 0)
    for k in range(600):  # 3 s of polling (5 ms of Pico time per poll), blinking included
        board.pump(k * 5)
    sent = ports[0].led_frames()
    # one update at connection (colours and patterns of all LEDs), nothing after
    assert [f.type for _, f in sent] == [P.CMD_LEDS, P.CMD_PATTERNS]
    assert link.session.led_updates == 1
    assert pico.app.strip_writes > 20  # while the firmware animates the error blink


def test_only_the_changed_span_goes() -> None:
    pico, link, ports = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    frame = {HOLES[3]: "target"}
    board.show_leds(frame, 0)
    for k in range(100):
        board.pump(k * 5)
    n0 = len(ports[0].led_frames())
    i = WIRING.led_index(HOLES[40])
    board.show_leds({**frame, HOLES[40]: "target"}, 600)
    for k in range(120, 140):
        board.pump(k * 5)
    new = [f for _, f in ports[0].led_frames()[n0:]]
    assert [f.type for f in new] == [P.CMD_PATTERNS, P.CMD_LEDS] or [f.type for f in new] == [
        P.CMD_LEDS
    ]  # same pattern id: colours only
    leds = next(f for f in new if f.type == P.CMD_LEDS)
    assert leds.payload[:2] == P.u16(i) and len(leds.payload) == 2 + 3
    r, g, b = LedRenderer(WIRING.led_order, SETTINGS).base({HOLES[40]: "target"})[0][i]
    assert pico.app.rgb[3 * i : 3 * i + 3] == bytes((r, g, b))


def update_times(port: RecordingPort, since: int = 0) -> list[int]:
    """When each LED update went (its LEDS/PATTERNS messages leave in one write)."""
    return sorted({t for t, _ in port.led_frames()[since:]})


def one_lit(k: int) -> list[tuple[int, int, int]]:
    return [(k + 1, 0, 0) if i == k else (0, 0, 0) for i in range(len(WIRING.led_order))]


def test_an_update_right_after_another_goes_at_once() -> None:
    """A lift's targets right after the place before it (the old rule held the second
    update 50 ms): up to LED_BURST updates at the same moment go at once, the next when
    a token is back, and after a quiet spell the burst is there again."""
    pico, link, ports = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    for k in range(100):  # connected, the first state sent, then quiet
        board.pump(k * 5)
    n0 = len(ports[0].led_frames())
    board.show_leds({HOLES[40]: "target"}, 500)  # a place's LEDs
    board.pump(500)
    board.show_leds({HOLES[41]: "target", HOLES[42]: "target"}, 505)  # the lift 5 ms on
    place, lift = update_times(ports[0], n0)
    assert lift - place <= 5  # in the same or the next poll, not a pacing slot later
    for k in range(101, 101 + LED_BURST * LED_MIN_INTERVAL_MS // 5):
        board.pump(k * 5)  # quiet: every token back
    u0 = link.session.led_updates  # the first state, the place, the lift
    for burst in range(2):
        n0 = len(ports[0].led_frames())
        t0 = pico.clock.ms()
        for j in range(LED_BURST + 1):
            link.set_leds(one_lit(j))  # a new state each time, all at t0
        assert update_times(ports[0], n0) == [t0]
        assert link.session.led_updates == u0 + burst * (LED_BURST + 1) + LED_BURST
        while len(update_times(ports[0], n0)) < 2:
            link.poll()
        late = update_times(ports[0], n0)[1]
        assert t0 + LED_MIN_INTERVAL_MS <= late <= t0 + LED_MIN_INTERVAL_MS + 5
        for _ in range(LED_BURST * LED_MIN_INTERVAL_MS // 5):  # quiet: every token back
            link.poll()
        i = LED_BURST  # the last state is the one shown
        assert any(pico.app.rgb[3 * i : 3 * i + 3]) and sum(pico.app.rgb) == sum(
            pico.app.rgb[3 * i : 3 * i + 3]
        )
    assert link.session.led_updates == u0 + 2 * (LED_BURST + 1)  # each state once


def test_a_flood_of_changes_stays_within_the_bucket_and_the_last_state_arrives() -> None:
    pico, link, ports = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    for k in range(800):  # 4 s, a different frame at every poll
        board.show_leds({HOLES[k % len(HOLES)]: "target"}, k * 5)
        board.pump(k * 5)
    for k in range(800, 820):
        board.pump(k * 5)
    times = update_times(ports[0])
    span = times[-1] - times[0]
    # the bucket's bound, between any two updates: n updates take (n - burst) intervals
    for i, j in itertools.combinations(range(len(times)), 2):
        assert times[j] - times[i] >= (j - i + 1 - LED_BURST) * LED_MIN_INTERVAL_MS
    per_s = max(sum(1 for t in times if s <= t < s + 1000) for s in times)
    assert per_s <= LED_UPDATES_PER_S  # issue 9's cap, in every second, bursts included
    assert len(times) <= LED_BURST + span // LED_MIN_INTERVAL_MS  # on average the rate
    assert len(times) >= 3 * LED_UPDATES_PER_S  # and the flood gets it, no less
    assert sum(1 for a, b in itertools.pairwise(times) if b - a < LED_MIN_INTERVAL_MS) >= 1
    last = HOLES[799 % len(HOLES)]
    i = WIRING.led_index(last)
    assert any(pico.app.rgb[3 * i : 3 * i + 3]) and sum(pico.app.rgb) == sum(
        pico.app.rgb[3 * i : 3 * i + 3]
    )


def test_selftest_sends_on_change_only_within_the_cap() -> None:
    pico, link, _ports = rig()
    show = link_led_show(link, LedRenderer(WIRING.led_order, SETTINGS))
    for k in range(1000):  # the walk shows its frame at every 5 ms poll, 5 s
        hole = HOLES[k // 100]  # the builder moves to the next hole every 0.5 s
        show({hole: "target"}, k * 5)
        link.poll()
    updates = link.session.led_updates
    assert 10 <= updates <= 11  # one per hole (and the first at connection)
    assert pico.app.max_ma == pico.app.own_max_ma and pico.app.brightness == 255


def test_a_port_that_stops_taking_data_causes_no_reconnect_storm() -> None:
    pico, link, ports = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    for k in range(100):
        board.pump(k * 5)
    port = ports[0]
    port.stall = True  # every write times out
    for k in range(100, 900):
        board.show_leds({HOLES[k % 50]: "error"}, k * 5)
        board.pump(k * 5)
    assert link.connected and link.reconnects == 0 and len(ports) == 1
    assert link.tx_timeouts >= 1
    assert port.writes <= 4 * 5 + 10  # pings (every 500 ms) and held-back LED updates
    port.stall = False
    for k in range(900, 1200):
        board.pump(k * 5)
    i = WIRING.led_index(HOLES[899 % 50])
    assert any(pico.app.rgb[3 * i : 3 * i + 3])  # the latest frame, once it flows again
    assert link.health().reconnects == 0


def test_a_backed_up_port_holds_led_updates_but_not_pings() -> None:
    _pico, link, ports = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    for k in range(100):
        board.pump(k * 5)
    ports[0].backlog = 5000  # bytes the OS still holds for the Pico
    n0 = len(ports[0].led_frames())
    pings0 = sum(1 for _, f in ports[0].frames if f.type == P.CMD_PING)
    for k in range(100, 500):
        board.show_leds({HOLES[k % 50]: "target"}, k * 5)
        board.pump(k * 5)
    assert len(ports[0].led_frames()) == n0
    assert sum(1 for _, f in ports[0].frames if f.type == P.CMD_PING) > pings0


def test_host_cap_is_not_sent_when_not_configured_and_never_raises_the_picos() -> None:
    pico, link, _ = rig()
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    for k in range(100):
        board.pump(k * 5)
    assert link.session.config == (255, 0)
    assert pico.app.max_ma == pico.app.own_max_ma == 60_000  # the rig's own maximum
    pico2, link2, _ = rig()
    pico2.app.own_max_ma = pico2.app.max_ma = 1500
    board2 = SerialBoard(link2, WIRING, LedSettings(budget_ma=2000), timeout_s=0)
    for k in range(100):
        board2.pump(k * 5)
    assert link2.session.config == (255, 2000) and pico2.app.max_ma == 1500


def port_info(device: str, vid: int | None, pid: int | None) -> SimpleNamespace:
    return SimpleNamespace(device=device, vid=vid, pid=pid)


def test_discovery_ignores_a_debug_probe() -> None:
    probe = port_info("/dev/ttyACM0", PICO_VID, 0x000C)  # sorts first
    pico = port_info("/dev/ttyACM1", PICO_VID, PICO_PID)
    other = port_info("/dev/ttyUSB0", 0x0403, 0x6001)
    assert find_pico_port([probe, other, pico]) == "/dev/ttyACM1"
    assert find_pico_port([probe, other]) is None
    assert (PICO_VID, PICO_PID) == (0x2E8A, 0x0005)


class CountingPort(RecordingPort):
    """Counts how often the read timeout is set (pyserial reconfigures termios each time)."""

    def __init__(self, pico: Pico) -> None:
        self.timeout_sets = 0
        self._t: float | None = 0.0
        super().__init__(pico)
        self.timeout_sets = 0  # count the link's settings only

    @property
    def timeout(self) -> float | None:
        return self._t

    @timeout.setter
    def timeout(self, v: float | None) -> None:
        self.timeout_sets += 1
        self._t = v


def test_termios_is_not_reconfigured_on_every_poll() -> None:
    pico = Pico()
    ports: list[CountingPort] = []

    def open_port(name: str) -> CountingPort:
        ports.append(CountingPort(pico))
        return ports[-1]

    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=open_port)
    for _ in range(200):
        link.poll(0.01)
    link.poll(0.0)
    assert ports[0].timeout_sets == 2  # 0.01 once, then 0.0 once
