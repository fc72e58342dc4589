"""The referee's event latency across commits (issue 22: before and after step.py's split).
Prints figures; run on demand:

    .venv/bin/python bench/bench_referee_versions.py 04673d9 6e31ae2 8c32ecb HEAD [--rounds 8]

Each commit is checked out in a temporary git worktree (removed at the end). The rounds
run the commits one after another (A B C A B C ...), so a change in the machine's load
falls on all of them; each sample is a fresh process under nice 10 with that checkout
alone on sys.path. A sample is bench_referee.py's step figure on its games (wall clock,
event in -> LED frame out: p50, p99), then the same games three times more from a fresh
game with the referee's caches emptied, timing each step's thread CPU time; per event the
least of the three (a loaded machine's interruptions inflate one pass, rarely all three).
Printed per commit: the medians over the rounds, and each figure's ratio to the first
and to the previous commit's in the same round (median and range).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIGURES = ("wall_p50", "wall_p99", "cpu_p50", "cpu_p99", "cpu_total")


def sample() -> dict[str, float]:
    """One sample of the checkout first on sys.path (only names every compared commit has)."""
    import bench_referee

    from keezbord.host.referee.heap import freeze_heap
    from keezbord.host.referee.recognize import clear_caches
    from keezbord.host.referee.step import new_game, step
    from keezbord.host.referee.trace import setup_from_dict
    from keezbord.host.sim.games import simulate

    games = [
        simulate(4, "standard", 11, max_turns=1000),
        simulate(6, "standard", 12, max_turns=1000),
    ]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench_referee.bench_step(games)
    wall = re.search(r"p50 ([\d.]+) ms, p99 ([\d.]+) ms", out.getvalue())
    assert wall, out.getvalue()
    passes: list[list[float]] = []
    for _ in range(3):
        clear_caches()
        cpu: list[float] = []
        for sim in games:
            setup = setup_from_dict(sim.setup)
            state, _ = new_game(setup.position, setup.dealer, setup.config)
            freeze_heap()
            for ev in sim.events:
                c0 = time.thread_time()
                state, _ = step(state, ev)
                cpu.append((time.thread_time() - c0) * 1000)
        passes.append(cpu)
    least = [min(x) for x in zip(*passes, strict=True)]
    return {
        "events": len(least),
        "wall_p50": float(wall[1]),
        "wall_p99": float(wall[2]),
        "cpu_p50": statistics.median(least),
        "cpu_p99": bench_referee.pct(least, 99),
        "cpu_total": sum(least),
    }


def run_sample(checkout: Path, cwd: Path) -> dict[str, float]:
    # -P: not this script's folder first on sys.path, so bench_referee and keezbord are
    # the checkout's; cwd outside every checkout for the same reason.
    env = {**os.environ, "PYTHONPATH": f"{checkout}{os.pathsep}{checkout / 'bench'}"}
    cmd = ["nice", "-n", "10", sys.executable, "-P", __file__, "--sample"]
    done = subprocess.run(cmd, env=env, cwd=cwd, check=True, capture_output=True, text=True)
    got: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return got


def spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commits", nargs="*", help="commits to compare, the first the reference")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--sample", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.sample:
        print(json.dumps(sample()))
        return 0
    if len(a.commits) < 2:
        print("bench_referee_versions: give two commits or more", file=sys.stderr)
        return 2
    repo = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {c: Path(tmp) / f"tree{i}" for i, c in enumerate(a.commits)}
        try:
            for c, tree in trees.items():
                subprocess.run(
                    ["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), c],
                    check=True,
                    capture_output=True,
                )
            rows: list[dict[str, dict[str, float]]] = []
            loads: list[float] = []
            for r in range(a.rounds):
                loads.append(os.getloadavg()[0])
                rows.append({c: run_sample(tree, Path(tmp)) for c, tree in trees.items()})
                print(f"round {r + 1} of {a.rounds} done, load {loads[-1]:.1f}", flush=True)
        finally:
            for tree in trees.values():
                subprocess.run(
                    ["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
                    check=False,
                    capture_output=True,
                )
    first = a.commits[0]
    before = dict(zip(a.commits[1:], a.commits, strict=False))
    print(
        f"{a.rounds} rounds, {rows[0][first]['events']:.0f} events a sample, load "
        f"{min(loads):.1f}-{max(loads):.1f} (1-minute average at each round's start)"
    )
    print(
        "medians over the rounds (least-most), ms; ratios to the first and the previous "
        "commit, paired by round"
    )
    for c in a.commits:
        print(f"{c}:")
        for f in FIGURES:
            line = f"  {f:9s} {spread([row[c][f] for row in rows])}"
            if c != first:
                line += f"   x{spread([row[c][f] / row[first][f] for row in rows])}"
            if c in before and before[c] != first:
                line += (
                    f"   x{spread([row[c][f] / row[before[c]][f] for row in rows])} of the previous"
                )
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
