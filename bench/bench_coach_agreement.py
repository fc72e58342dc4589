"""Coach and analysis, one judge (engine/judge.py): how far the coach's verdict during the
game (at its budget) lies from the analysis's after it (at its own), against the noise of
each budget alone (docs/hints.md, "The coach and the analysis"). CPU-heavy: run niced.

    nice -n 10 .venv/bin/python bench/bench_coach_agreement.py --games 3 --coach-total 200

For every decision of seeded 4-seat games (random on seats 0 and 2, greedy on 1 and 3: a
mix of good and bad moves) the judge runs four times: at the coach's budget (a total for
the decision, as the web coach's ``coach_ms`` gives it, judged as advice.coach judges it:
adaptively at ``coach_screen``; ``--even-coach``: evenly, as before) with two seeds, and
at the analysis's default (playouts a candidate) with two seeds. Printed: each budget's noise
(the standard deviation of the loss between its two seeds, and how often they disagree
on "blunder"), the coach against the analysis (mean absolute difference of the loss,
how often the coach's "speak" and the analysis's blunder label agree), and the cases
the playtest found (the coach speaking on a move the analysis calls at most a mistake,
or silent on an analysis blunder) counted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from keezbord.engine.hand_record import TurnRecord, bots_for, record_selfplay
from keezbord.engine.judge import (
    ANALYSIS_PLAYOUTS,
    COACH_THRESHOLD,
    coach_playouts,
    coach_screen,
    judge,
    judge_even,
    judge_seed,
)

EVEN_COACH = False


def loss(turn: TurnRecord, total: int | None, playouts: int, s: int) -> float:
    """The judge's loss of the move made, at a budget and seed: ``total`` a decision as
    the coach spends it (advice.coach: ``coach_playouts``), else ``playouts`` a candidate.
    ``--even-coach``: the coach as it was before it judged adaptively."""
    assert turn.card is not None and turn.move is not None
    if total is not None and EVEN_COACH:
        return judge_even(
            turn.pos,
            turn.hand,
            turn.known,
            turn.card,
            turn.move,
            hand_known=turn.hand_known,
            total=total,
            seed=judge_seed(s, turn.index),
        ).loss
    return judge(
        turn.pos,
        turn.hand,
        turn.known,
        turn.card,
        turn.move,
        hand_known=turn.hand_known,
        playouts=coach_playouts(total, playouts),
        seed=judge_seed(s, turn.index),
    ).loss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=91_000)
    ap.add_argument("--coach-total", type=int, default=200, help="the coach's playouts")
    ap.add_argument("--playouts", type=int, default=ANALYSIS_PLAYOUTS, help="analysis's")
    ap.add_argument("--max-turns", type=int, default=120)
    ap.add_argument("--even-coach", action="store_true", help="the coach judged evenly (before)")
    args = ap.parse_args()
    global EVEN_COACH
    EVEN_COACH = args.even_coach
    coach_a: list[float] = []
    coach_b: list[float] = []
    an_a: list[float] = []
    an_b: list[float] = []
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        kinds = ["random", "greedy"] * 2
        rec = record_selfplay(4, "standard", seed, bots_for(kinds, seed), max_turns=args.max_turns)
        for turn in rec.decisions:
            assert turn.card is not None and turn.move is not None

            coach_a.append(loss(turn, args.coach_total, 0, seed))
            coach_b.append(loss(turn, args.coach_total, 0, seed + 7_777))
            an_a.append(loss(turn, None, args.playouts, seed))
            an_b.append(loss(turn, None, args.playouts, seed + 7_777))
    n = len(coach_a)
    t = COACH_THRESHOLD

    def sd(a: list[float], b: list[float]) -> float:
        return statistics.pstdev([x - y for x, y in zip(a, b, strict=True)]) / 2**0.5

    def agree(a: list[float], b: list[float]) -> float:
        return sum((x >= t) == (y >= t) for x, y in zip(a, b, strict=True)) / n

    def mad(a: list[float], b: list[float]) -> float:
        return sum(abs(x - y) for x, y in zip(a, b, strict=True)) / n

    print(f"{n} decisions of {args.games} games, {time.perf_counter() - t0:.0f} s")
    how = "evenly" if EVEN_COACH else f"adaptively, screen {coach_screen(args.coach_total)}"
    print(
        f"coach budget {args.coach_total} a decision ({how}); analysis {args.playouts} a candidate"
    )
    print(
        f"noise of one loss (sd): coach {sd(coach_a, coach_b):.4f}, analysis {sd(an_a, an_b):.4f}"
    )
    print(
        f"blunder agreement between two seeds: coach {agree(coach_a, coach_b):.3f}, "
        f"analysis {agree(an_a, an_b):.3f}"
    )
    print(
        f"coach vs analysis: mean |loss difference| {mad(coach_a, an_a):.4f}, "
        f"blunder agreement {agree(coach_a, an_a):.3f}"
    )
    spoke_small = sum(c >= t and a < 0.03 for c, a in zip(coach_a, an_a, strict=True))
    silent_blunder = sum(c < t and a >= t for c, a in zip(coach_a, an_a, strict=True))
    print(
        f"coach spoke, analysis below a mistake: {spoke_small}; coach silent on an "
        f"analysis blunder: {silent_blunder}; analysis blunders: {sum(a >= t for a in an_a)}"
    )
    big = sum(abs(c - a) >= 0.05 for c, a in zip(coach_a, an_a, strict=True))
    print(f"coach and analysis losses 0.05 or more apart: {big}")


if __name__ == "__main__":
    main()
