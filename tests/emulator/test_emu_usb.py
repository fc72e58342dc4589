"""The firmware's own USB serial port (firmware/usb_cdc.py) on the emulated Pico: a frame
in 1-, 64- and 512-byte host writes, a frame cut off mid-way, bytes arriving while a
frame is decoded, a host that stops reading, the host's LED bursts, and the device the
host sees."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import Host, needs_node
from emu import MS, EmulatedPico
from test_emu_link import decoded_frames, expected_words

from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.link_session import LED_BURST, LED_MIN_INTERVAL_MS

pytestmark = [pytest.mark.emulator, needs_node, pytest.mark.timeout(300)]

MakePico = Callable[..., EmulatedPico]
MakeHost = Callable[..., Host]
N_LEDS = 96  # a LEDS message of 96 LEDs is 300 bytes on the wire: five USB packets


def colours(k: int) -> list[tuple[int, int, int]]:
    return [((i * 5 + k) % 200 + 1, (i * 3 + k) % 200, (i + 7 * k) % 200) for i in range(N_LEDS)]


def raw(host: Host, data: bytes) -> None:
    """Bytes on the wire as the host's port writes them (no framing by the session)."""
    port = host.link._port
    assert port is not None
    port.write(data)


def shown(pico: EmulatedPico, since: int, want: list[int]) -> Callable[[], bool]:
    return lambda: any(f["words"] == want for f in pico.frames(since)["frames"])


def counters(host: Host) -> dict[str, int]:
    return dict(host.link.health().firmware_counters)


@pytest.fixture
def rig(make_pico: MakePico, host_for: MakeHost) -> tuple[EmulatedPico, Host]:
    pico = make_pico({"leds": N_LEDS, "heartbeat_ms": 100})
    host = host_for(pico)
    host.connect()
    host.synced()
    return pico, host


@pytest.mark.parametrize("packet", [1, 64, 512])
def test_a_frame_in_packets_of_any_size(rig: tuple[EmulatedPico, Host], packet: int) -> None:
    pico, host = rig
    pico.usb_packet(packet)
    want = expected_words(colours(packet), N_LEDS, 96, 1500)
    since = pico.frames()["next"]
    t0 = pico.now_ns()
    assert host.link.send_leds(colours(packet))
    host.poll_until(shown(pico, since, want), what=f"the frame sent in {packet}-byte packets")
    sizes = [n for _, n in pico.call("out_packets", since=t0)["log"]]
    assert sum(sizes) >= 3 * N_LEDS
    assert max(sizes) == min(packet, 64)  # the device arms 64-byte buffers
    if packet == 1:
        assert len(sizes) >= 3 * N_LEDS  # really one byte a packet
    bad = host.link.health().firmware_counters.get("rx_bad", 0)
    assert bad == 0 and host.link.health().frames_bad == 0


def test_a_frame_cut_off_mid_way_costs_only_that_frame(rig: tuple[EmulatedPico, Host]) -> None:
    pico, host = rig
    host.poll_until(lambda: "rx_bad" in counters(host), what="a heartbeat")
    bad0 = counters(host)["rx_bad"]
    s = host.link.session
    cut = P.encode_frame(P.CMD_LEDS, 7, P.u16(0) + bytes(c for px in colours(1) for c in px))
    raw(host, cut[: len(cut) // 2])  # the host dies mid-frame (or the cable is pulled)
    pico.run_for(50)
    want = expected_words(colours(2), N_LEDS, 96, 1500)
    since = pico.frames()["next"]
    s.led_sent = None
    assert host.link.send_leds(colours(2))  # the next frame starts with its own 00
    host.poll_until(shown(pico, since, want), what="the frame after the cut one")
    t = pico.now_ns()
    host.poll_until(lambda: pico.now_ns() > t + 300 * MS, what="a fresh heartbeat")
    c = counters(host)
    assert c["rx_bad"] == bad0 + 1  # the cut frame, counted once
    assert not any(
        f["words"] == expected_words(colours(1), N_LEDS, 96, 1500) for f in pico.frames(0)["frames"]
    )


def test_bytes_arriving_during_a_decode_are_kept(rig: tuple[EmulatedPico, Host]) -> None:
    """Three LED messages and a ping in one host write: the later ones arrive in USB
    packets while the firmware decodes and renders the first; all are applied in order."""
    pico, host = rig
    pongs0 = sum(1 for _, f in decoded_frames(pico.call("rx_log")["log"]) if f.type == P.MSG_PONG)
    frames = b"".join(
        P.encode_frame(
            P.CMD_LEDS, 100 + k, P.u16(0) + bytes(c for px in colours(10 + k) for c in px)
        )
        for k in range(3)
    ) + P.encode_frame(P.CMD_PING, 103, b"during")
    since = pico.frames()["next"]
    raw(host, frames)
    last = expected_words(colours(12), N_LEDS, 96, 1500)
    host.poll_until(shown(pico, since, last), what="the last of the three frames")
    pongs = [
        f.payload for _, f in decoded_frames(pico.call("rx_log")["log"]) if f.type == P.MSG_PONG
    ]
    assert b"during" in pongs[pongs0:]
    t = pico.now_ns()
    host.poll_until(lambda: pico.now_ns() > t + 300 * MS, what="a fresh heartbeat")
    c = counters(host)
    assert c["rx_bad"] == 0 and c["overruns"] == 0
    assert c["led_frames"] >= 3


def test_a_host_that_stops_reading_costs_no_scans(make_pico: MakePico, host_for: MakeHost) -> None:
    """The host program stops reading for three simulated seconds while pawns move and
    the firmware beats every 50 ms (more than its 2 KB send queue holds): it keeps
    scanning every period, drops whole frames it cannot queue (counted), and after the
    host reads again every frame it gets is whole and the host knows the board."""
    pico = make_pico({"heartbeat_ms": 50})
    host = host_for(pico)
    host.connect()
    host.synced()
    pico.call("scan_gaps", reset=True)
    t0 = pico.hold_output(True)
    for k in range(10):
        pico.call("switches", set=[[k, k % 2 == 0]], at=t0 + (100 + 200 * k) * MS)
    pico.run_for(3000)
    gaps = pico.call("scan_gaps")
    held = pico.call("hold_output", hold=False)
    assert gaps["n"] > 600 and gaps["max"] < 5 * MS, gaps  # 250 scans a second, no stall
    assert held["t"] - t0 >= 3000 * MS
    host.changes.clear()
    host.poll_until(
        lambda: host.link.session.snapshots >= 2 or len(host.changes) >= 5,
        what="the host catching up",
    )
    t = pico.now_ns()
    host.poll_until(lambda: pico.now_ns() > t + 500 * MS, what="fresh heartbeats")
    h = host.link.health()
    assert h.frames_bad == 0  # nothing was cut: frames went whole or not at all
    assert h.firmware_counters["tx_dropped"] > 0
    closed = {i for i in range(10) if host.link.session.closed(i)}
    assert closed == {0, 2, 4, 6, 8}  # after a resync the host knows the board


def test_the_hosts_led_bursts_cost_no_scans(make_pico: MakePico, host_for: MakeHost) -> None:
    """The host's LED pacing at its burstiest (issue 29: a token bucket): a full burst of
    whole frames whenever the bucket is full again, on the link's own clock in simulated
    time. The firmware scans on (no gap over 5 ms, as many scans as idle) and the strip
    ends on the last state."""
    pico = make_pico({"leds": N_LEDS, "heartbeat_ms": 100})
    host = host_for(pico, clock=lambda: pico.now_ns() // MS)
    host.connect()
    host.synced()
    s = host.link.session

    def window(ms: int, burst: bool) -> dict[str, int]:
        pico.call("scan_gaps", reset=True)
        t0 = nxt = pico.now_ns()
        while (now := pico.now_ns()) < t0 + ms * MS:
            if burst and now >= nxt:
                for _ in range(LED_BURST):
                    k[0] += 1
                    host.link.set_leds(colours(k[0]))
                nxt += LED_BURST * LED_MIN_INTERVAL_MS * MS
            host.changes += host.link.poll(0.002)
        return dict(pico.call("scan_gaps"))

    k = [0]
    idle = window(600, burst=False)
    u0, since = s.led_updates, pico.frames()["next"]
    busy = window(1500, burst=True)
    bursts = 1500 // (LED_BURST * LED_MIN_INTERVAL_MS)
    assert s.led_updates - u0 >= (bursts - 1) * LED_BURST  # the bursts really went
    assert busy["max"] < 5 * MS, busy
    assert busy["n"] >= 0.95 * idle["n"] * 1500 / 600, (busy, idle)
    want = expected_words(colours(k[0]), N_LEDS, 96, 1500)
    host.poll_until(shown(pico, since, want), what="the last state of the bursts")
    assert host.link.health().frames_bad == 0 and counters(host)["rx_bad"] == 0


def test_the_host_sees_the_same_usb_device(make_pico: MakePico) -> None:
    """usb_cdc.py answers with MicroPython's own CDC descriptors: the emulated host finds
    its CDC data interface on the same endpoints, and the firmware, not the REPL, talks."""
    pico = make_pico()
    first = pico.wait_first_frame()
    st = pico.status()
    assert st["usb"] and first > st["usb_at"]
    pico.inject(b"\x03\r\nprint(6*7)\r\n")
    pico.run_for(300)
    text = b"".join(bytes.fromhex(h) for _, h in pico.call("rx_log")["log"])
    assert b"42" not in text and b">>>" not in text
    assert pico.status()["boots"] == 1
