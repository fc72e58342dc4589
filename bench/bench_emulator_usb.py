"""The Pico's USB link on the emulated Pico (issue 29, and issue 24's write stall): figures
in simulated time (8 ns a cycle at 125 MHz), for the firmware in firmware/ or any other
(``--firmware DIR``, e.g. an older checkout's, for before/after figures by one method).

    .venv/bin/python bench/bench_emulator_usb.py [--firmware DIR] [--trials 12]

Prints, for a 96-LED board (12 chips + signature) and a 192-LED board (24 + signature):
  - LED message -> end of its WS2812 output: from the moment the message's last byte is
    handed to USB (it enters the emulated host's CDC FIFO) to the last bit of the frame that
    shows it on the pin; for a full frame and for a 4-LED span;
  - the longest gap between two scans (/PL latches) while the host sends full frames 20 a
    second, while it wants a new full frame at every poll (its LED pacing then sends a burst
    and 20 a second), while it sends the pacing's worst bunching (a full burst of frames
    whenever the bucket is full again), while it floods the port (frames back to back, as
    fast as USB takes them), while every LED gets a new colour and a new pattern id 20 times
    a second (a LEDS and a PATTERNS message each time) and while it sends nothing; idle CPU
    (busy / all cycles);
  - a host that stops reading for 3 s (its IN packets not taken) while the firmware beats
    every 50 ms: the longest gap between scans then (the firmware's worst write stall) and
    the frames it dropped.
"""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "emulator"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_emulator import CLK, SimHost, window  # noqa: E402
from emu import FIRMWARE, MS, EmulatedPico  # noqa: E402

from keezbord.host.drivers import link_protocol as P  # noqa: E402
from keezbord.host.drivers.link_session import LED_BURST, LED_MIN_INTERVAL_MS  # noqa: E402


def board(chips: int, leds: int, **extra: Any) -> dict[str, Any]:
    return {"chips": chips, "leds": leds, "tail_level": 1, "signature": 0xA5, **extra}


def colours(n: int, k: int) -> list[tuple[int, int, int]]:
    return [((i * 7 + k) % 64 + 1, (i * 3 + 2 * k) % 64, (i + 5 * k) % 64) for i in range(n)]


def boot(work: Path, name: str, b: dict[str, Any], fw: Path) -> tuple[EmulatedPico, SimHost]:
    pico = EmulatedPico(
        work / name,
        b,
        chain={"chips": b["chips"], "tail_level": 1, "signature": 0xA5},
        pace=0,
        firmware_dir=fw,
    )
    host = SimHost(pico)
    host.run_sim(500)
    return pico, host


def led_latency(pico: EmulatedPico, host: SimHost, n: int, trials: int) -> dict[str, list[float]]:
    """Last byte of an LED message into USB -> last bit of its frame on the pin."""
    full: list[float] = []
    span: list[float] = []
    for trial in range(trials):
        base = colours(n, 1000 + trial)
        if trial % 2:
            host.link.session.led_sent = None
            host.link.set_leds(base)
            host.run_sim(150)
            cs = list(base)
            for j in range(4):
                cs[n // 2 + j] = (60, trial, 1)
        t0 = pico.now_ns()
        before = pico.frames()["next"]
        if trial % 2:
            host.link.set_leds(cs)
        else:
            host.link.send_leds(base)
        host.run_sim(120)
        last = last_byte_of_leds(pico.call("tx_log", since=t0)["log"])
        fr = pico.frames(before)["frames"]
        if last is not None and fr:
            (span if trial % 2 else full).append((fr[-1]["end"] - last) / MS)
    return {"full": full, "span": span}


def last_byte_of_leds(tx_log: list[list[Any]]) -> int | None:
    """When the chunk holding the last byte of the last LED message (LEDS or PATTERNS)
    entered the device's USB FIFO: the host's pings and other frames are skipped."""
    dec = P.Decoder()
    last = None
    for t, hexdata in tx_log:
        if any(f.type in (P.CMD_LEDS, P.CMD_PATTERNS) for f in dec.feed(bytes.fromhex(hexdata))):
            last = int(t)
    return last


def gaps_under(
    pico: EmulatedPico, host: SimHost, n: int, how: str, ms: float = 3000
) -> dict[str, float]:
    k = [0]
    port = host.link._port
    assert port is not None

    def cap(_now: int) -> None:  # whole frames at the host's cap, 20 a second
        k[0] += 1
        host.link.send_leds(colours(n, k[0]))

    def paced(_now: int) -> None:  # a new whole frame at every poll, through the pacing
        k[0] += 1
        host.link.set_leds(colours(n, k[0]))

    def bursts(_now: int) -> None:  # the bucket's worst bunching: a full burst, then quiet
        for _ in range(LED_BURST):
            k[0] += 1
            host.link.set_leds(colours(n, k[0]))

    def flood(_now: int) -> None:  # raw frames back to back whenever the port drains
        if int(getattr(port, "out_waiting", 0)) < 2048:
            body = P.u16(0) + bytes(c for px in colours(n, k[0]) for c in px)
            port.write(
                b"".join(P.encode_frame(P.CMD_LEDS, 40000 + k[0] + j, body) for j in range(4))
            )
            k[0] += 4

    def patterned(_now: int) -> None:  # every LED a new colour and a new pattern id
        k[0] += 1
        host.link.set_leds(colours(n, k[0]), [(i + k[0]) % 7 for i in range(n)])

    if how == "cap":
        return window(pico, host, ms, cap, 50)
    if how == "patterns":
        return window(pico, host, ms, patterned, 50)
    if how == "paced":
        return window(pico, host, ms, paced, 2)
    if how == "bursts":
        return window(pico, host, ms, bursts, LED_BURST * LED_MIN_INTERVAL_MS)
    if how == "flood":
        return window(pico, host, ms, flood, 2)
    return window(pico, host, ms)


def write_stall(work: Path, fw: Path, hold_ms: float = 3000) -> dict[str, Any]:
    pico, host = boot(work, "stall", board(12, 96, heartbeat_ms=50), fw)
    try:
        pico.call("scan_gaps", reset=True)
        t0 = pico.hold_output(True)
        pico.run_for(hold_ms)
        gaps = pico.call("scan_gaps")
        pico.hold_output(False)
        host.run_sim(1500)
        h = host.link.health()
        return {
            "max_gap_ms": gaps["max"] / MS,
            "at_ms": ((gaps["max_at"] or t0) - t0) / MS,
            "scans": gaps["n"],
            "tx_dropped": h.firmware_counters.get("tx_dropped"),
            "frames_bad": h.frames_bad,
        }
    finally:
        pico.stop()


def stats(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    return (
        f"median {statistics.median(xs):.2f} ms, min {min(xs):.2f}, max {max(xs):.2f} (n={len(xs)})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--firmware", type=Path, default=FIRMWARE, help="firmware folder to boot")
    ap.add_argument("--trials", type=int, default=12, help="LED messages per board (default 12)")
    args = ap.parse_args()
    began = time.monotonic()
    print(f"Firmware from {args.firmware} on the emulated Pico (RP2040 at 125 MHz, simulated time)")
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for chips, n in ((12, 96), (24, 192)):
            pico, host = boot(work, f"b{n}", board(chips, n), args.firmware)
            try:
                lat = led_latency(pico, host, n, args.trials)
                idle = gaps_under(pico, host, n, "idle")
                cap = gaps_under(pico, host, n, "cap")
                paced = gaps_under(pico, host, n, "paced")
                bursts = gaps_under(pico, host, n, "bursts")
                flood = gaps_under(pico, host, n, "flood", 2000)
                pats = gaps_under(pico, host, n, "patterns")
                h = host.link.health()
            finally:
                pico.stop()
            wire = len(P.encode_frame(P.CMD_LEDS, 1, bytes(2 + 3 * n)))
            print(f"{n} LEDs ({chips} chips + signature):")
            print(f"  full frame ({wire} B), last byte -> output end: {stats(lat['full'])}")
            print(f"  4-LED span, last byte -> output end:       {stats(lat['span'])}")
            for name, w in (
                ("idle", idle),
                ("20 full frames/s", cap),
                ("paced, every poll", paced),
                (f"paced, bursts of {LED_BURST}", bursts),
                ("flood", flood),
                ("colours+patterns", pats),
            ):
                print(
                    f"  {name:17s} scans/s {w['rate']:6.1f}, longest gap {w['max_gap_ms']:5.2f} ms,"
                    f" CPU busy {w['busy_pct']:5.1f} %, frames on the pin {w['frames']}"
                )
            c = h.firmware_counters
            print(
                f"  counters: rx_bad {c.get('rx_bad')}, overruns {c.get('overruns')}, "
                f"tx_dropped {c.get('tx_dropped')}; host frames_bad {h.frames_bad}"
            )
        st = write_stall(work, args.firmware)
        print(
            f"host stops reading for 3 s (heartbeats every 50 ms): longest gap between scans "
            f"{st['max_gap_ms']:.2f} ms ({st['at_ms']:.0f} ms into the stall), "
            f"{st['scans']} scans, tx_dropped {st['tx_dropped']}, host frames_bad after "
            f"{st['frames_bad']}"
        )
    print(f"(cycles: {CLK:,} a second; bench took {time.monotonic() - began:.0f} s wall)")


if __name__ == "__main__":
    main()
