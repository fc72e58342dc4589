# mypy: disable-error-code="import-not-found"
"""The serial link end to end: the firmware under the MicroPython unix port on a pty,
the host's SerialLink (pyserial) on the other end.

    .venv/bin/python bench/bench_link.py [--seconds S]

Prints: ping round trip; latency from a (fake) switch change inside the firmware to the
host's SwitchChange, debounce included; switch events a second when every switch
toggles as fast as the debounce allows; raw LED frames (192 LEDs) a second; then the LED
updates the host really sends (SerialLink.set_leds: on change, changed span only, paced:
bursts of 3, at most 20 in any second) in play (SerialBoard, an 8-player board) and in the
selftest walk, in a calm and in a worst case (a new frame at every poll), with the
firmware's scan rate.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
sys.path.insert(0, str(ROOT))

from unix_pico import UnixPico  # noqa: E402

from keezbord.engine.topology import Topology  # noqa: E402
from keezbord.hardware.wiring import default_wiring  # noqa: E402
from keezbord.host.drivers.leds import ROLES, LedRenderer, LedSettings  # noqa: E402
from keezbord.host.drivers.link_serial import SerialLink, SwitchChange  # noqa: E402
from keezbord.host.drivers.link_session import LED_BURST, LED_UPDATES_PER_S  # noqa: E402
from keezbord.host.drivers.polled import SerialBoard  # noqa: E402
from keezbord.host.selftest import link_led_show  # noqa: E402

CHIPS, LEDS, HZ, DEBOUNCE = 24, 192, 250, 4


def pct(xs: list[float], p: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(p * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pico = UnixPico(
            Path(tmp) / "strip.txt",
            "--chips",
            str(CHIPS),
            "--leds",
            str(LEDS),
            "--scan-hz",
            str(HZ),
            "--debounce",
            str(DEBOUNCE),
        )
        try:
            rc = run(pico, args.seconds)
        finally:
            err = pico.stop()
        if rc:
            print("firmware exit:", pico.proc.returncode, "stderr:", err[-3000:])
        return rc


def run(pico: UnixPico, seconds: float) -> int:
    link = SerialLink(pico.path)
    assert link.connect(), link.last_error
    while link.session.state is None:
        link.poll(0.01)
    s = link.session
    print(
        f"firmware under the MicroPython unix port: {CHIPS} chips, {LEDS} LEDs, "
        f"{HZ} Hz scan, debounce {DEBOUNCE} samples"
    )

    rtts = []
    for i in range(200):
        tag = i.to_bytes(2, "little")
        t0 = time.perf_counter()
        s.ping(tag)
        link.poll(0)
        while not any(p == tag for _, p in s.pongs):
            link.poll(0.001)
        rtts.append((time.perf_counter() - t0) * 1000)
    print(
        f"ping round trip:           median {statistics.median(rtts):6.2f} ms, "
        f"p95 {pct(rtts, 0.95):6.2f} ms  ({len(rtts)} pings)"
    )

    lat = []
    for i in range(100):
        closed = i % 2 == 0
        t0 = time.perf_counter()
        s.test_switches([(37, closed)])
        link.poll(0)
        got: list[SwitchChange] = []
        while not got:
            got = link.poll(0.001)
        lat.append((time.perf_counter() - t0) * 1000)
    print(
        f"switch -> host event:      median {lat and statistics.median(lat):6.2f} ms, "
        f"p95 {pct(lat, 0.95):6.2f} ms  (debounce {DEBOUNCE} x {1000 // HZ} ms included)"
    )

    events = 0
    closed = True
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s.test_switches([(i, closed) for i in range(CHIPS * 8)])
        link.poll(0)
        n = 0
        while n < CHIPS * 8:
            n += len(link.poll(0.005))
        events += n
        closed = not closed
    dt = time.perf_counter() - t0
    print(
        f"switch events:             {events / dt:8.0f} events/s "
        f"(all {CHIPS * 8} switches toggling, {events} events in {dt:.1f} s)"
    )

    before = link.health().firmware_counters.get("led_frames", 0)
    frames = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        colour = (frames % 256, 40, 200)
        link.send_leds([colour] * LEDS)
        frames += 1
        s.ping(b"sync")
        end = time.perf_counter() + 2
        while not any(p == b"sync" for _, p in s.pongs) and time.perf_counter() < end:
            link.poll(0.001)
        if time.perf_counter() >= end:
            print("LED frame not acknowledged:", link.health())
            return 1
        s.pongs.clear()
    dt = time.perf_counter() - t0
    end = time.perf_counter() + 1.5  # the next heartbeats carry the firmware's count
    while time.perf_counter() < end:
        link.poll(0.01)
    shown = link.health().firmware_counters.get("led_frames", 0) - before
    print(
        f"LED frames ({LEDS} LEDs):     {frames / dt:8.1f} frames/s sent and acknowledged "
        f"({shown} counted by the firmware)"
    )
    h = link.health()
    print(
        f"link health: frames ok {h.frames_ok}, bad {h.frames_bad}, gaps {h.gaps}, "
        f"firmware rx_bad {h.firmware_counters.get('rx_bad')}, "
        f"overruns {h.firmware_counters.get('overruns')}"
    )
    paced_updates(link, seconds)
    link.close()
    return 0


WIRING = default_wiring(Topology(8, 16))  # 24 chips, 192 LEDs, as the firmware here
HOLES = [h for h in WIRING.led_order if h is not None]


def counters(link: SerialLink) -> dict[str, int]:
    """The firmware's counters from its next heartbeat, with its clock as "t"."""
    end = time.perf_counter() + 1.2
    before = link.session.heartbeat
    while time.perf_counter() < end and link.session.heartbeat is before:
        link.poll(0.01)
    beat = link.session.heartbeat
    assert beat is not None
    return {**beat.counters, "t": beat.t}


def paced_updates(link: SerialLink, seconds: float) -> None:
    s = link.session
    settings = LedSettings(brightness=0.5)
    renderer = LedRenderer(WIRING.led_order, settings)

    def measure(label: str, step: Callable[[int, float], None], period_s: float) -> None:
        c0 = counters(link)
        u0, m0 = s.led_updates, s.led_messages
        t0 = time.perf_counter()
        k = 0
        while (t := time.perf_counter() - t0) < seconds:
            step(k, t)
            link.poll(period_s)
            k += 1
        dt = time.perf_counter() - t0
        c1 = counters(link)
        span_ms = max(1, c1["t"] - c0["t"])  # the firmware's clock between the beats
        scans = (c1["scans"] - c0["scans"]) * 1000 / span_ms
        writes = (c1["strip_writes"] - c0["strip_writes"]) * 1000 / span_ms
        print(
            f"  {label:44} {(s.led_updates - u0) / dt:5.1f} updates/s "
            f"({(s.led_messages - m0) / dt:5.1f} messages/s); firmware "
            f"{scans:5.0f} scans/s, overruns +{c1['overruns'] - c0['overruns']}, "
            f"strip writes {writes:4.0f}/s"
        )

    print(
        f"LED updates the host sends (SerialLink.set_leds, paced: bursts of {LED_BURST}, "
        f"at most {LED_UPDATES_PER_S} in any second):"
    )
    board = SerialBoard(link, WIRING, settings, timeout_s=0)
    roles = list(ROLES)

    def play_calm(k: int, t: float) -> None:
        # a referee frame that changes about once a second (a move), blinking roles
        n = int(t)
        board.show_leds(
            {HOLES[(n * 7 + j) % len(HOLES)]: roles[j] for j in range(6)}, int(t * 1000)
        )
        board.pump(int(t * 1000))

    def play_worst(k: int, t: float) -> None:
        board.show_leds({HOLES[k % len(HOLES)]: "error"}, int(t * 1000))
        board.pump(int(t * 1000))

    measure("play, a move a second (SerialBoard)", play_calm, 0.002)
    measure("play, a new frame every poll", play_worst, 0.002)
    show = link_led_show(link, renderer)

    def walk(k: int, t: float) -> None:  # the builder moves on every 0.5 s
        show({HOLES[int(t * 2) % len(HOLES)]: "target"}, int(t * 1000))

    def walk_worst(k: int, t: float) -> None:
        show({HOLES[k % len(HOLES)]: "target"}, int(t * 1000))

    measure("selftest, polled every 5 ms", walk, 0.005)
    measure("selftest, a new hole every 5 ms poll", walk_worst, 0.005)


if __name__ == "__main__":
    sys.exit(main())
