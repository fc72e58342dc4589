"""The puzzles' only-move margin, calibrated (issue 26 part 3, docs/puzzles.md). Prints
figures; run on demand (about 20 minutes of one core at the defaults):

    .venv/bin/python bench/bench_puzzles.py --games 8

Decisions of seeded greedy games (every ``--every``-th with two candidates or more) are
evaluated three times with independent seeds: twice at the lower budget, once at the
higher (engine/alternatives.py, playouts a candidate). Printed:

- the noise: the standard deviation of the gap (best minus second best) between the two
  evaluations at the lower budget, and of the best's win chance;
- per margin: how many decisions pass at the lower budget (per 100), and of those how
  many the higher budget confirms (the same move first, the gap at least the margin
  again): a margin well inside the noise is confirmed by chance, one far outside finds
  no puzzles;
- the gap's quantiles: how close the choices of a luck-heavy game stand.
"""

from __future__ import annotations

import argparse
import statistics
import time

from keezbord.engine.alternatives import evaluate_moves
from keezbord.engine.hand_record import bots_for, record_selfplay
from keezbord.engine.puzzles import BUDGETS
from keezbord.engine.rollout import LEAVES, Policy

MARGINS = (0.02, 0.03, 0.05, 0.08, 0.10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--every", type=int, default=2, help="every n-th decision")
    ap.add_argument("--seed", type=int, default=9000)
    ap.add_argument("--low", type=int, default=BUDGETS[0])
    ap.add_argument("--high", type=int, default=BUDGETS[1])
    ap.add_argument(
        "--leaf",
        choices=LEAVES,
        default="judge",
        help="what judges the playouts' ends (docs/puzzles.md's figures: hand, the judge's "
        "leaf until 2026-12-06)",
    )
    args = ap.parse_args()
    how = Policy(leaf=args.leaf)
    rows: list[tuple[float, float, float, bool, float, float]] = []
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        rec = record_selfplay(4, "standard", seed, bots_for(["greedy"] * 4, seed))
        for turn in rec.decisions[:: args.every]:
            s = seed * 10_000 + turn.index
            a = evaluate_moves(turn.pos, turn.hand, turn.known, playouts=args.low, seed=s, how=how)
            if a.second is None or a.best is None:
                continue
            b = evaluate_moves(
                turn.pos, turn.hand, turn.known, playouts=args.low, seed=s + 1, how=how
            )
            h = evaluate_moves(
                turn.pos, turn.hand, turn.known, playouts=args.high, seed=s + 2, how=how
            )
            assert b.best is not None and h.best is not None
            same = (a.best.card, a.best.after) == (h.best.card, h.best.after)
            rows.append((a.gap, b.gap, h.gap, same, a.best.win, b.best.win))
        print(f"game {g + 1}/{args.games}: {len(rows)} decisions, {time.perf_counter() - t0:.0f} s")
    n = len(rows)
    print(f"\n{n} decisions with two candidates or more, {args.games} greedy games")
    gap_sd = statistics.pstdev(r[0] - r[1] for r in rows) / 2**0.5
    win_sd = statistics.pstdev(r[4] - r[5] for r in rows) / 2**0.5
    print(
        f"noise at {args.low} playouts a candidate: gap sd {gap_sd:.4f}, best win sd {win_sd:.4f}"
    )
    q = statistics.quantiles([r[0] for r in rows], n=20)
    print("gap quantiles (5% steps):", " ".join(f"{x:.3f}" for x in q))
    print(f"\nmargin  pass@{args.low}/100  confirmed@{args.high}  same best@{args.high}")
    for m in MARGINS:
        sel = [r for r in rows if r[0] >= m]
        if not sel:
            print(f"{m:6.2f}  {0:10.1f}")
            continue
        conf = sum(1 for r in sel if r[3] and r[2] >= m) / len(sel)
        first = sum(1 for r in sel if r[3]) / len(sel)
        print(f"{m:6.2f}  {100 * len(sel) / n:10.1f}  {100 * conf:12.0f}%  {100 * first:12.0f}%")
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
