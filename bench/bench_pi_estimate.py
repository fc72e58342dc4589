"""What a Raspberry Pi would search in 200 ms a decision (docs/hints.md, "On a Pi"):
this machine's playouts per second of CPU time (one core, the search on decisions of
seeded greedy games, host/search_budget.py's), scaled by the ratio of a published
single-core benchmark of each Pi to the same benchmark run here.

    nice -n 10 .venv/bin/python bench/bench_pi_estimate.py [--rounds 3] [--sysbench-s 10]

The benchmark is sysbench 1.0.20's ``cpu`` test on one thread (the prime numbers up to
10,000), the one single-core figure found published for the Pis and runnable here; it is
measured here per second of CPU time (the machine is shared), so load does not lower it.
A Python interpreter is not a prime sieve: the ratio is an estimate, said so in the docs.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keezbord.engine.search import Known, analyse
from keezbord.host.search_budget import sample_decisions

# Published single-core sysbench ``cpu`` results (events a second, one thread, primes to
# 10,000, sysbench 1.0.20): https://leoncode.co.uk/articles/raspberry-pi-benchmarks
PI5_SYSBENCH = 2737.49  # Raspberry Pi 5 (Cortex-A76, 2.4 GHz)
PI3BPLUS_SYSBENCH = 687.45  # Raspberry Pi 3B+ (Cortex-A53, 1.4 GHz)
# The Zero 2 W has the 3B+'s core at 1.0 GHz: no published figure found; scaled by clock.
ZERO2W_SYSBENCH = PI3BPLUS_SYSBENCH * 1.0 / 1.4
DECISION_S = 0.2


def playouts_per_cpu_second(seats: int, rounds: int) -> float:
    decisions = sample_decisions(seats)
    done = 0
    t0 = time.process_time()
    for r in range(rounds):
        for i, (board, seat, hand) in enumerate(decisions):
            a = analyse(board, seat, hand, Known(), playouts=60, rng=random.Random(r * 100 + i))
            done += a.playouts
    return done / (time.process_time() - t0)


def sysbench_per_cpu_second(seconds: int) -> float | None:
    exe = shutil.which("sysbench")
    if exe is None:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [exe, "cpu", "--threads=1", f"--time={seconds}", "run"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"total number of events:\s+(\d+)", out)
    return None if m is None or cpu <= 0 else int(m.group(1)) / cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="passes over the 8 decisions")
    ap.add_argument("--sysbench-s", type=int, default=10, help="seconds of sysbench")
    args = ap.parse_args()
    here = sysbench_per_cpu_second(args.sysbench_s)
    print(f"sysbench cpu here: {here:.0f} events a CPU second" if here else "no sysbench here")
    for seats in (4, 6):
        rate = playouts_per_cpu_second(seats, args.rounds)
        line = f"{seats} seats: {rate:.0f} playouts a CPU second here"
        line += f", {rate * DECISION_S:.0f} in 200 ms"
        if here:
            for name, score in (("Pi 5", PI5_SYSBENCH), ("Zero 2 W", ZERO2W_SYSBENCH)):
                line += f"; {name} x{score / here:.2f}: {rate * score / here * DECISION_S:.0f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
