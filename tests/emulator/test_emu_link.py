"""The unchanged firmware on an emulated Pico, the real SerialLink on the other end of
the USB CDC: boot, switch events, LED frames on the pin, heartbeats, resync."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from conftest import BOARD, Host, chain_for, needs_node
from emu import MS, EmulatedPico, grb_words
from leds import render

from keezbord.host.drivers import link_protocol as P

pytestmark = [pytest.mark.emulator, needs_node, pytest.mark.timeout(300)]

MakePico = Callable[..., EmulatedPico]
MakeHost = Callable[..., Host]


def decoded_frames(rx_log: list[list[object]]) -> list[tuple[int, P.Frame]]:
    """The link frames the emulated host received, with the simulated time of the USB
    packet that completed each."""
    dec = P.Decoder()
    out = []
    for t, hexdata in rx_log:
        assert isinstance(t, int | float) and isinstance(hexdata, str)
        for f in dec.feed(bytes.fromhex(hexdata)):
            out.append((int(t), f))
    return out


def expected_words(
    rgb: list[tuple[int, int, int]], n_leds: int, brightness: int, max_ma: int
) -> list[int]:
    """What the firmware's own renderer makes of a host frame, as 24-bit GRB words."""
    flat = bytes(c for px in rgb for c in px)
    grb = render(flat, n_leds, brightness, max_ma)
    return [(grb[3 * i] << 16) | (grb[3 * i + 1] << 8) | grb[3 * i + 2] for i in range(n_leds)]


def test_boot_to_first_valid_frame(make_pico: MakePico, host_for: MakeHost) -> None:
    pico = make_pico(chain={"closed": [0, 9]})
    host = host_for(pico)
    host.connect()
    host.synced()
    hello = host.link.session.hello
    assert hello is not None and hello.n_bits == 24 and hello.n_leds == 8
    # The first snapshot reports the two pawns already on the board.
    assert sorted(c.index for c in host.changes if c.closed) == [0, 9]
    st = pico.status()
    assert st["usb"] and st["boots"] == 1 and st["latches"] > 0 and st["spi_mode"] == 0
    # The firmware's first frame on the wire decodes (the host accepted it above) and
    # follows USB enumeration.
    frames = decoded_frames(pico.call("rx_log")["log"])
    assert frames and frames[0][0] > st["usb_at"]
    assert host.link.health().frames_bad == 0
    # The LEDs' first frame on the pin is whole and within the WS2812B timing.
    pico.run_for(50)
    leds = pico.frames()["frames"]
    assert leds, "no LED frame on the pin"
    assert all(len(f["words"]) == 8 and f["violations"] == [] for f in leds)


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmulatedPico, Host]]:
    """One boot shared by the scenarios below (each boot costs about 0.6 s simulated):
    a pawn on switch 3; each scenario uses switches of its own."""
    pico = EmulatedPico(
        tmp_path_factory.mktemp("link"), BOARD, chain={**chain_for(BOARD), "closed": [3]}
    )
    host = Host(pico)
    host.connect()
    host.synced()
    try:
        yield pico, host
    finally:
        host.close()
        pico.stop()


def test_switch_reaches_host_and_leds_reach_pin(rig: tuple[EmulatedPico, Host]) -> None:
    pico, host = rig
    host.changes.clear()

    t_set = pico.set_switches([(5, True), (17, True)])
    host.poll_until(lambda: len(host.changes) >= 2, what="two switch changes")
    assert sorted((c.index, c.closed) for c in host.changes) == [(5, True), (17, True)]
    arrived = [
        t
        for t, f in decoded_frames(pico.call("rx_log", since=t_set)["log"])
        if f.type == P.MSG_CHANGES
    ]
    assert arrived and arrived[0] > t_set  # debounced on the Pico, after the change

    host.changes.clear()
    pico.set_switches([(5, False)])
    host.poll_until(lambda: len(host.changes) >= 1, what="the lift")
    assert [(c.index, c.closed) for c in host.changes] == [(5, False)]

    # A host LED frame comes out of the PIO as the right GRB words.
    rgb = [(255, 0, 0), (0, 0, 0), (0, 0, 255), (10, 20, 30), (0, 255, 0)]
    since = pico.frames()["next"]
    assert host.link.send_leds(rgb)
    want = expected_words(rgb, 8, 96, 1500)
    assert want[:3] == grb_words([(96, 0, 0), (0, 0, 0), (0, 0, 96)])  # brightness 96

    def shown() -> bool:
        return any(f["words"] == want for f in pico.frames(since)["frames"])

    host.poll_until(shown, what="the host's frame on the LED pin")
    frames = pico.frames(since)
    assert all(f["violations"] == [] for f in frames["frames"])
    timing = frames["timing"]
    assert timing["min0"] >= 242 and timing["max0"] <= 558  # T0H 0.40 us +-150 ns
    assert timing["min1"] >= 642 and timing["max1"] <= 958  # T1H 0.80 us +-150 ns


def test_heartbeats_and_counters(rig: tuple[EmulatedPico, Host]) -> None:
    pico, host = rig
    t0 = pico.now_ns()
    host.poll_until(lambda: pico.now_ns() > t0 + 1200 * MS, what="1.2 s of simulated time")
    beats = [
        t
        for t, f in decoded_frames(pico.call("rx_log", since=t0)["log"])
        if f.type == P.MSG_HEARTBEAT
    ]
    assert len(beats) >= 4  # every 250 ms
    gaps = [b - a for a, b in itertools.pairwise(beats)]
    assert all(200 * MS < g < 350 * MS for g in gaps), gaps
    h = host.link.health()
    assert h.chain_ok is True and h.firmware_counters["scans"] > 250
    assert h.firmware_counters["chain_errors"] == 0 and h.firmware_counters["rx_bad"] == 0


def test_snapshot_after_reconnect_resyncs(rig: tuple[EmulatedPico, Host]) -> None:
    pico, host = rig
    snaps = host.link.session.snapshots
    host.link.close()  # the host goes away; pawns move meanwhile
    pico.set_switches([(3, False), (20, True)])
    pico.run_for(100)
    host.changes.clear()
    host.connect()
    host.poll_until(lambda: host.link.session.snapshots > snaps, what="the new snapshot")
    host.poll_until(lambda: len(host.changes) >= 2, what="the changes while away")
    assert sorted((c.index, c.closed) for c in host.changes) == [(3, False), (20, True)]
    # An explicit request gives the same picture and no news.
    host.changes.clear()
    host.link.session.request_snapshot()
    n = host.link.session.snapshots
    host.poll_until(lambda: host.link.session.snapshots > n, what="a requested snapshot")
    assert host.changes == []
    assert host.link.session.closed(20) is True and host.link.session.closed(3) is False


def test_pattern_message_blinks_on_the_pin(rig: tuple[EmulatedPico, Host]) -> None:
    """Protocol 2's PATTERNS: the Pico animates the blink itself; on the pin, LED 2 goes
    on and off every 125 ms (blink_fast, 4 Hz) of simulated time, the others stay dark."""
    pico, host = rig
    rgb = [(0, 0, 0)] * 8
    rgb[2] = (200, 100, 0)
    on = expected_words(rgb, 8, 96, 1500)[2]
    assert on != 0
    since = pico.frames()["next"]
    ids = [0] * 8
    ids[2] = 3  # firmware/patterns.py BLINK_FAST
    assert host.link.set_leds(rgb, ids)
    t0 = pico.now_ns()
    host.poll_until(lambda: pico.now_ns() > t0 + 1500 * MS, what="1.5 s of blinking")
    frames = [f for f in pico.frames(since)["frames"] if f["start"] > t0 + 200 * MS]
    assert frames and all(f["violations"] == [] for f in frames)
    assert all(f["words"][:2] == [0, 0] and f["words"][3:] == [0] * 5 for f in frames)
    assert {f["words"][2] for f in frames} == {0, on}
    toggles = [f["start"] for a, f in itertools.pairwise(frames) if a["words"][2] != f["words"][2]]
    phases = [(b - a) / MS for a, b in itertools.pairwise(toggles)]
    assert len(phases) >= 6
    assert all(100 <= p <= 150 for p in phases), phases
