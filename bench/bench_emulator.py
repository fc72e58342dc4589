"""The firmware on the emulated Pico (tests/emulator, rp2040js): figures in simulated time,
cycle-accurate for the CPU (8 ns a cycle at 125 MHz).

    .venv/bin/python bench/bench_emulator.py [--minutes 5] [--skip-game]
        [--only-game | --only-latencies] [--game g101-4seats-standard] [--events 90]
        [--led-burst 3]

Prints: scans per second idle, under full LED frames at the host's cap (20/s)
and with every LED animating a pattern; CPU cycles per scan and per LED frame; switch
change to host event (debounce included); host LED frame to last bit on the pin (and an
update asked 5-45 ms after another, the host's pacing included); free heap
over `--minutes` simulated minutes of play and its trend; the longest gap between two
scans (what a GC pause in the scan loop would show as); magnet lifted to target LEDs lit
through the emulated Pico and the host referee (a recorded game, its first `--events`
trace events; 400 plays any of them whole). The host runs on a clock that reads simulated
time, so the emulator may run flat out (pace 0) without the link timing out, and the
host's LED pacing is what it is on a real Pico however slowly the emulator runs.
"""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import argparse
import bisect
import itertools
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "emulator"))
sys.path.insert(0, str(ROOT / "firmware"))

from emu import FIRMWARE, MS, EmulatedPico  # noqa: E402

from keezbord.host.drivers import link_protocol as P  # noqa: E402
from keezbord.host.drivers import link_session  # noqa: E402
from keezbord.host.drivers.link_serial import SerialLink  # noqa: E402
from keezbord.host.drivers.link_session import LED_MIN_INTERVAL_MS  # noqa: E402

CLK = 125_000_000
# The largest board the firmware's defaults describe: 24 chips, 192 LEDs, reference chain.
BOARD: dict[str, Any] = {
    "chips": 24,
    "leds": 192,
    "tail_level": 1,
    "signature": 0xA5,
    "heartbeat_ms": 1000,
}
N_LEDS = 192


def frames_with_times(log: list[list[Any]]) -> list[tuple[int, P.Frame]]:
    dec = P.Decoder()
    out = []
    for t, hexdata in log:
        for f in dec.feed(bytes.fromhex(hexdata)):
            out.append((int(t), f))
    return out


class SimHost:
    """SerialLink on simulated time (its pings and LED pacing follow the emulator)."""

    def __init__(self, pico: EmulatedPico, ping_ms: int = 500) -> None:
        self.pico = pico
        self.link = SerialLink(pico.path, clock=lambda: pico.now_ns() // MS, ping_ms=ping_ms)
        pico.wait_first_frame(timeout=600)  # wall seconds: a heavily loaded machine
        assert self.link.connect(), self.link.last_error
        self.until(lambda: self.link.session.state is not None)

    def until(self, cond: Any, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < end, f"bench timed out: {self.link.health().to_dict()}"
            self.link.poll(0.005)

    def run_sim(self, ms: float, every: Any = None, period_ms: float = 0) -> None:
        """Poll the link for `ms` simulated ms; call every(now_ms) each period_ms."""
        t_end = self.pico.now_ns() + ms * MS
        nxt = self.pico.now_ns()
        while True:
            now = self.pico.now_ns()
            if now >= t_end:
                return
            if every is not None and now >= nxt:
                every(now // MS)
                nxt += period_ms * MS
            self.link.poll(0.002)


def window(
    pico: EmulatedPico, host: SimHost, ms: float, every: Any = None, period_ms: float = 0
) -> dict[str, float]:
    a = pico.status()
    pico.call("scan_gaps", reset=True)
    host.run_sim(ms, every, period_ms)
    b = pico.status()
    gaps = pico.call("scan_gaps")
    dt = (b["t"] - a["t"]) / 1e9
    scans = b["latches"] - a["latches"]
    busy = b["busy_cycles"] - a["busy_cycles"]
    return {
        "s": dt,
        "scans": scans,
        "rate": scans / dt,
        "busy": busy,
        "busy_pct": 100 * busy / (dt * CLK),
        "frames": b["led_frames"] - a["led_frames"],
        "max_gap_ms": gaps["max"] / MS,
        "mean_gap_ms": gaps["mean"] / MS,
    }


def colours(k: int) -> list[tuple[int, int, int]]:
    return [((i * 7 + k) % 64, (i * 3 + 2 * k) % 64, (i + 5 * k) % 64) for i in range(N_LEDS)]


def rates_pico(work: Path, fw: Path) -> EmulatedPico:
    return EmulatedPico(
        work / "rates",
        BOARD,
        chain={"chips": 24, "tail_level": 1, "signature": 0xA5},
        pace=0,
        firmware_dir=fw,
    )


def bench_rates(work: Path, fw: Path = FIRMWARE) -> dict[str, Any]:
    pico = rates_pico(work, fw)
    try:
        host = SimHost(pico)
        host.run_sim(500)
        idle = window(pico, host, 3000)
        k = [0]

        def full_frame(_now: int) -> None:
            k[0] += 1
            host.link.send_leds(colours(k[0]))

        leds = window(pico, host, 3000, full_frame, 50)
        host.link.set_leds([(40, 10, 0)] * N_LEDS, [5] * N_LEDS)  # every LED pulsing
        host.run_sim(300)
        anim = window(pico, host, 3000)
        per_scan = idle["busy"] / idle["scans"]
        led_extra = leds["busy"] - per_scan * leds["scans"]
        sent = leds["s"] * 20
        out = {
            "idle": idle,
            "leds": leds,
            "anim": anim,
            "per_scan": per_scan,
            "per_led_frame": led_extra / sent,
            "led_frames_sent": sent,
        }
        out.update(bench_latencies(pico, host))
        return out
    finally:
        pico.stop()


def bench_latencies(pico: EmulatedPico, host: SimHost) -> dict[str, Any]:
    rnd = random.Random(10)
    # Switch change -> the CHANGES frame in the host's USB buffer.
    sw: list[float] = []
    i = 0
    for trial in range(20):
        if trial % 2 == 0:
            i = rnd.randrange(0, 190)  # placed, then lifted in the next trial
        closed = trial % 2 == 0
        at = pico.now_ns() + rnd.randrange(5, 50) * MS // 10 + 20 * MS
        pico.call("switches", set=[[i, closed]], at=at)
        host.run_sim((at - pico.now_ns()) / MS + 60)
        got = [
            t
            for t, f in frames_with_times(pico.call("rx_log", since=at)["log"])
            if f.type == P.MSG_CHANGES
            and (d := P.decode_changes(f.payload)) is not None
            and (i, closed) in d[1]
        ]
        if got:
            sw.append((got[0] - at) / MS)
    # Host LED message -> last bit of the frame on the pin: a full frame, a 4-LED span.
    full: list[float] = []
    span: list[float] = []
    for trial in range(16):
        since_tx = pico.now_ns()
        before = pico.frames()["next"]
        if trial % 2 == 0:
            host.link.send_leds(colours(1000 + trial))
        else:
            cs = colours(1000 + trial - 1)
            for j in range(4):
                cs[100 + j] = (60, trial, 0)
            host.link.session.led_sent = None  # so set_leds sends a span from what is shown
            host.link.set_leds(colours(1000 + trial - 1))
            host.run_sim(120)
            since_tx = pico.now_ns()
            before = pico.frames()["next"]
            host.link.set_leds(cs)
        host.run_sim(100)
        tx = pico.call("tx_log", since=since_tx)["log"]
        fr = pico.frames(before)["frames"]
        if tx and fr:
            (full if trial % 2 == 0 else span).append((fr[-1]["end"] - tx[0][0]) / MS)
    # An LED update right after another (a lift's targets 5-45 ms after the place's LEDs):
    # from the host's request to the last bit on the pin, the host's LED pacing included.
    follow: list[float] = []
    base = colours(3000)
    host.link.set_leds(base)
    for trial in range(12):
        host.run_sim(300)  # quiet: the pacing's tokens are back
        place = list(base)
        lift = list(base)
        for j in range(4):
            place[20 + j] = (60, trial, 0)
            lift[120 + j] = (0, 60, trial)
        host.link.set_leds(place)
        host.run_sim(5 + 40 * trial / 11)
        before = pico.frames()["next"]
        asked = pico.now_ns()
        host.link.set_leds(lift)
        host.run_sim(150)
        fr = pico.frames(before)["frames"]
        if fr:
            follow.append((fr[-1]["end"] - asked) / MS)
        base = lift
    return {"switch_to_host": sw, "led_full": full, "led_span": span, "led_follow": follow}


def bench_heap(work: Path, minutes: float, fw: Path = FIRMWARE) -> dict[str, Any]:
    pico = EmulatedPico(
        work / "heap",
        BOARD,
        chain={"chips": 24, "tail_level": 1, "signature": 0xA5, "closed": list(range(0, 64, 4))},
        pace=0,
        firmware_dir=fw,
    )
    try:
        host = SimHost(pico)
        host.run_sim(500)
        rnd = random.Random(5)
        samples: list[tuple[float, int]] = []  # (simulated s, free bytes)
        pico.call("scan_gaps", reset=True)
        t0 = pico.now_ns()
        scans0 = pico.status()["latches"]
        pawns = set(range(0, 64, 4))
        step = [0]

        def play(now_ms: int) -> None:
            # A move every 1.5 s: lift, light four targets blinking, place, LEDs calm.
            k = step[0] % 3
            step[0] += 1
            if k == 0:
                src = rnd.choice(sorted(pawns))
                pawns.discard(src)
                pico.call("switches", set=[[src, False]])
                cs = [(0, 0, 0)] * N_LEDS
                ids = [0] * N_LEDS
                for j in rnd.sample(range(N_LEDS), 4):
                    cs[j], ids[j] = (0, 60, 0), 2
                host.link.set_leds(cs, ids)
            elif k == 1:
                dst = rnd.choice([i for i in range(190) if i not in pawns])
                pawns.add(dst)
                pico.call("switches", set=[[dst, True]])
            else:
                host.link.set_leds([(8, 8, 8) if j % 9 == 0 else (0, 0, 0) for j in range(N_LEDS)])
            if step[0] % 10 == 0:
                h = pico.call("heap")
                samples.append(((pico.now_ns() - t0) / 1e9, int(h["free"])))

        began = time.monotonic()
        host.run_sim(minutes * 60_000, play, 500)
        wall = time.monotonic() - began
        gaps = pico.call("scan_gaps")
        st = pico.status()
        health = host.link.health()
        return {
            "samples": samples,
            "gaps": gaps,
            "wall": wall,
            "scans": st["latches"] - scans0,
            "sim_s": (st["t"] - t0) / 1e9,
            "health": health,
            "boots": st["boots"],
        }
    finally:
        pico.stop()


def bench_game(
    work: Path, fw: Path = FIRMWARE, events: int = 90, game: str = "g101-4seats-standard"
) -> dict[str, Any]:
    from game import EmulatedTable, consistent

    trace = ROOT.parent / "shared" / "conformance" / "games" / f"{game}.trace.jsonl"
    # The link on simulated time: its LED pacing as a real host's, at any emulator speed.
    table = EmulatedTable(trace, work / "game", firmware_dir=fw, sim_clock=True)
    try:
        run = table.play(events)
        frames = table.frames()
        boot_at = table.boot_at()
        rx = frames_with_times(table.pico.call("rx_log")["log"])
        tx = frames_with_times(table.pico.call("tx_log")["log"])
        gaps = table.pico.call("scan_gaps")  # since the boot: the whole game
        sim_s = (table.pico.now_ns() - boot_at) / 1e9
    finally:
        table.close()
    pump_at = [p[0] for p in run.pumps]
    lit: list[float] = []
    fw_part: list[float] = []
    host_ms: list[float] = []
    host_sim: list[float] = []
    pin_part: list[float] = []
    since_led: list[float] = []  # the lift's CHANGES in, after the LED update before it
    led_tx = sorted({t for t, f in tx if f.type in (P.CMD_LEDS, P.CMD_PATTERNS)})
    superseded = 0
    host_cpu: list[float] = []
    on_own_core: list[float] = []
    span_cpu: list[float] = []  # host CPU over every pump from CHANGES in to LED message out
    for (now_ms, hole, cs, ids, wall_ms), cpu_ms in zip(run.lifts, run.lift_cpu_ms, strict=True):
        if not any(c != (0, 0, 0) for c in cs):
            continue  # a lift that lights nothing (no card yet, or not the player's pawn)
        # The switch opened at the last scheduled lift of that hole before the host had it
        # (a lift-place-lift blip of a millisecond is debounced away on the Pico).
        cands = [t for t, h in table.lift_times if h == hole and t <= now_ms * MS]
        if not cands:
            continue
        t_lift = cands[-1]
        shown = [
            f
            for f in frames
            if t_lift <= f["start"] <= t_lift + 1000 * MS
            and consistent(f["words"], cs, ids, int((f["start"] - boot_at) // MS))
        ]
        if not shown:
            superseded += 1  # the next change came before the host's LED pacing sent it
            continue
        lit.append((shown[0]["end"] - t_lift) / MS)
        host_ms.append(wall_ms)
        ch = [t for t, f in rx if t >= t_lift and f.type == P.MSG_CHANGES]
        if ch:
            fw_part.append((ch[0] - t_lift) / MS)
            before = [t for t in led_tx if t < ch[0]]
            if before:
                since_led.append((ch[0] - before[-1]) / MS)
            led = [
                t
                for t, f in tx
                if ch[0] <= t <= shown[0]["start"] and f.type in (P.CMD_LEDS, P.CMD_PATTERNS)
            ]
            if led:
                host_sim.append((led[0] - ch[0]) / MS)
                pin_part.append((shown[0]["end"] - led[0]) / MS)
                host_cpu.append(cpu_ms)
                # The lift with the host's part counted in its CPU time, not in the
                # simulated time that passed while it ran (on a loaded machine the process
                # waits for a core, and that wait is counted as host time): every pump
                # from the one the CHANGES arrived in to the one that wrote the LED message
                # (idle polls included), what a host on a core of its own takes.
                a = max(0, bisect.bisect_right(pump_at, ch[0]) - 1)
                b = max(a + 1, bisect.bisect_right(pump_at, led[0]))
                span_cpu.append(sum(p[1] for p in run.pumps[a:b]))
                on_own_core.append(fw_part[-1] + span_cpu[-1] + pin_part[-1])
    return {
        "lit": lit,
        "fw_part": fw_part,
        "host_ms": host_ms,
        "superseded": superseded,
        "host_sim": host_sim,
        "pin_part": pin_part,
        "since_led": since_led,
        "game": game,
        "scan_gaps": gaps,
        "host_cpu": host_cpu,
        "on_own_core": on_own_core,
        "span_cpu": span_cpu,
        "speed": sim_s / run.wall_s if run.wall_s else float("nan"),
    }


def stats(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    return (
        f"median {statistics.median(xs):.1f} ms, min {min(xs):.1f}, max {max(xs):.1f} (n={len(xs)})"
    )


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(len(ys) * p / 100))]


def trend(samples: list[tuple[float, int]]) -> float:
    """Least-squares slope of free heap, bytes per simulated minute."""
    if len(samples) < 2:
        return 0.0
    xs = [s for s, _ in samples]
    ys = [f for _, f in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return 60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


def print_game(gm: dict[str, Any]) -> None:
    print(
        f"  magnet lifted -> targets lit:  {stats(gm['lit'])}  ({gm['game']} through "
        "SerialLink, SerialBoard and the referee; the link's clock simulated time, the host's "
        f"work counted as the emulator saw it pass; LED pacing bursts of {link_session.LED_BURST})"
    )
    print(
        f"    90th percentile {pct(gm['lit'], 90):.1f} ms, 99th {pct(gm['lit'], 99):.1f} ms;"
        " lifts whose lit targets were "
        f"superseded before they showed: {gm['superseded']}"
    )
    near = [x for x in gm["since_led"] if x < LED_MIN_INTERVAL_MS]
    print(
        f"    lifts within {LED_MIN_INTERVAL_MS} ms of an earlier LED update (one pacing "
        f"interval): "
        f"{len(near)} (closest {min(gm['since_led'], default=float('nan')):.1f} ms); "
        f"longest gap between scans over the game {gm['scan_gaps']['max'] / MS:.2f} ms"
    )
    print(f"    of which Pico to host:       {stats(gm['fw_part'])}")
    print(f"    host (CHANGES in -> LED message out): {stats(gm['host_sim'])}")
    print(f"      its referee step for the lift (wall, this machine): {stats(gm['host_ms'])}")
    print(f"      host CPU in the pump that took the lift: {stats(gm['host_cpu'])}")
    print(
        f"      host CPU over the pumps from CHANGES in to LED message out: {stats(gm['span_cpu'])}"
    )
    print(f"    LED message in -> last bit:  {stats(gm['pin_part'])}")
    own = gm["on_own_core"]
    print(
        f"    lift -> lit with the host's part in its CPU time (Pico parts in simulated time; "
        f"the host on a core of its own): {stats(own)}, "
        f"p90 {pct(own, 90):.1f}, p99 {pct(own, 99):.1f} ms"
    )
    print(
        f"    (the emulator ran at {100 * gm['speed']:.0f} % of real time over the game; "
        "pace 1: never ahead of the wall clock)"
    )


def print_latencies(r: dict[str, Any]) -> None:
    print(
        f"  switch change -> host event:   {stats(r['switch_to_host'])}  "
        "(debounce included; arrival in the host's USB buffer)"
    )
    print(f"  host LED frame -> last bit:    full 192-LED frame {stats(r['led_full'])}")
    print(f"                                 4-LED span {stats(r['led_span'])}")
    print(
        f"  LED update 5-45 ms after another, asked -> last bit: {stats(r['led_follow'])}"
        f"  (pacing: bursts of {link_session.LED_BURST}, "
        f"at most {1000 // LED_MIN_INTERVAL_MS} in any second)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--minutes",
        type=float,
        default=5.0,
        help="simulated minutes of play for the heap figures (default 5)",
    )
    ap.add_argument("--skip-game", action="store_true", help="no recorded-game latency")
    ap.add_argument("--only-game", action="store_true", help="only the recorded-game latency")
    ap.add_argument(
        "--only-latencies", action="store_true", help="only the switch and LED latencies"
    )
    ap.add_argument("--firmware", type=Path, default=FIRMWARE, help="firmware folder to boot")
    ap.add_argument(
        "--events", type=int, default=90, help="trace events of the game to play (default 90)"
    )
    ap.add_argument(
        "--game",
        default="g101-4seats-standard",
        help="recorded game of ../shared/conformance/games (default g101-4seats-standard)",
    )
    ap.add_argument(
        "--led-burst",
        type=int,
        default=link_session.LED_BURST,
        help="the host's LED pacing burst (default %(default)s; 1 is the pacing before "
        "issue 29's host change: one update per 50 ms)",
    )
    args = ap.parse_args()
    link_session.LED_BURST = args.led_burst  # read by LinkSession.pump_leds at each call
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        began = time.monotonic()
        if args.only_game:
            print_game(bench_game(work, args.firmware, args.events, args.game))
            return
        if args.only_latencies:
            pico = rates_pico(work, args.firmware)
            try:
                host = SimHost(pico)
                host.run_sim(500)
                print_latencies(bench_latencies(pico, host))
            finally:
                pico.stop()
            return
        r = bench_rates(work, args.firmware)
        i, le, an = r["idle"], r["leds"], r["anim"]
        print(
            "Firmware on the emulated Pico (MicroPython 1.28, RP2040 at 125 MHz), "
            "board of 24 chips + signature, 192 LEDs"
        )
        print(
            f"  scans/s idle:                  {i['rate']:.1f}  (CPU busy {i['busy_pct']:.1f} %,"
            f" longest gap between scans {i['max_gap_ms']:.2f} ms)"
        )
        print(
            f"  scans/s, full frames at 20/s:  {le['rate']:.1f}  (CPU busy "
            f"{le['busy_pct']:.1f} %, {le['frames']} frames on the pin, longest gap "
            f"{le['max_gap_ms']:.2f} ms)"
        )
        print(
            f"  scans/s, 192 LEDs pulsing:     {an['rate']:.1f}  (CPU busy "
            f"{an['busy_pct']:.1f} %, {an['frames']} frames on the pin, longest gap "
            f"{an['max_gap_ms']:.2f} ms)"
        )
        print(
            f"  CPU cycles per scan step:      {r['per_scan']:,.0f}  "
            f"({r['per_scan'] / CLK * 1e3:.3f} ms; idle loop incl. link service)"
        )
        print(
            f"  CPU cycles per 192-LED frame:  {r['per_led_frame']:,.0f}  "
            f"({r['per_led_frame'] / CLK * 1e3:.2f} ms: receive 588 bytes, render, "
            "hand to the PIO)"
        )
        print_latencies(r)
        h = bench_heap(work, args.minutes, args.firmware)
        free = [f for _, f in h["samples"]]
        print(
            f"  free heap over {h['sim_s'] / 60:.1f} simulated minutes of play: "
            f"first {free[0] if free else 0:,} B, min {min(free) if free else 0:,}, "
            f"max {max(free) if free else 0:,}, last {free[-1] if free else 0:,}; "
            f"trend {trend(h['samples']):+.0f} B/min ({len(free)} samples, "
            f"{h['scans'] / h['sim_s']:.1f} scans/s, resets {h['boots'] - 1})"
        )
        g = h["gaps"]
        ups = [b - a for a, b in itertools.pairwise(free) if b > a]
        print(
            f"  free heap rose between samples {len(ups)} times, by at most "
            f"{max(ups, default=0)} B (explicit frees or a collection: next to nothing "
            "for the GC to do)"
        )
        print(
            f"  longest gap between scans:     {g['max'] / MS:.2f} ms over {g['n']:,} "
            f"intervals (mean {g['mean'] / MS:.3f} ms; period 4 ms: a GC pause or any "
            f"stall shows as the excess, {max(0.0, g['max'] / MS - 4):.2f} ms)"
        )
        print(f"  (heap run: {h['wall']:.0f} s wall for {h['sim_s']:.0f} s simulated)")
        if not args.skip_game:
            print_game(bench_game(work, args.firmware, args.events, args.game))
        print(f"(bench took {time.monotonic() - began:.0f} s wall)")


if __name__ == "__main__":
    main()
