"""How fast may players follow each other? Generated bot games (tests/host/referee/
fuzz_games.py: a person's hands, the next player acting ``gap`` ms after the previous
placement) refereed at fixed gaps, with and without a card reader; prints the derailed
games per gap. Issue 11: the tolerated pace is the shortest gap with none derailed.

    .venv/bin/python bench/bench_referee_pace.py [--games 60] [--gaps 0,25,50,100,200]
                                                 [--no-reader-only | --reader-only]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "host" / "referee"))

from fuzz_games import CASES, derailment, pace_game, referee


def run(reader: bool, gap: int, games: int, seed0: int) -> tuple[int, int, float]:
    bad = moves = 0
    t0 = time.perf_counter()
    for i in range(games):
        seats, profile = CASES[i % len(CASES)]
        sim = pace_game(seats, profile, seed0 + i, reader=reader, gap=(gap, gap))
        out = referee(sim.setup, sim.events)
        moves += len(sim.moves)
        if derailment(sim, out, reader=reader):
            bad += 1
    return bad, moves, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--gaps", default="0,25,50,100,200")
    ap.add_argument("--seed", type=int, default=7000)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--reader-only", action="store_true")
    group.add_argument("--no-reader-only", action="store_true")
    args = ap.parse_args()
    try:
        gaps = [int(g) for g in args.gaps.split(",")]
    except ValueError:
        print("--gaps: a comma-separated list of milliseconds", file=sys.stderr)
        return 2
    modes = [True] if args.reader_only else [False] if args.no_reader_only else [True, False]
    for reader in modes:
        for gap in gaps:
            bad, moves, secs = run(reader, gap, args.games, args.seed)
            print(
                f"{'reader' if reader else 'no reader':9s} gap {gap:4d} ms: "
                f"{bad}/{args.games} games derailed ({moves} moves, {secs:.0f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
