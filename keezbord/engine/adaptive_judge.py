"""The judge's budget spent where the verdict is in doubt (issue 38: faster analysis).

The even judgement (judge.judge_even) plays every candidate of the hand out as often as
any other and the move made against the best once more on fresh deals, however plain
the verdict. Most verdicts are plain: a forced move has none to give, most candidates
stand far below the best, and most moves made are either the best or clearly within an
inaccuracy of it. Here the same playouts (the search's, on the same sampled deals, the
same paired differences) are spent in three steps:

1. **Screen**: every candidate ``screen`` deals (paired); then successive halving: the
   better half gets ``screen`` more deals, until two are left (the move made stays in
   the race as any other). A forced move is played out ``screen`` deals for its chances
   (the chart) and has no verdict to give.
2. **The verdict**: the move made against the best other candidate, on fresh deals in
   batches of ``screen``, paired; after each batch the mean difference ``d`` and its
   standard error ``se`` (from the deals' own differences) say whether a label threshold
   (judge.THRESHOLDS, on the shown scale: ``d`` and ``se`` are carried there by
   calibration.slope) could still lie within ``Z`` standard errors of ``d``; it stops
   when none can, or at ``MAX_BATCHES``. When the move made led the best other on the
   screen's first deals by more than ``Z`` standard errors, no fresh deal is needed:
   it is the best.
3. The loss is the fresh difference (unbiased, as the even judge's second pass). The
   best is the other candidate, unless the move made led the screen and the fresh deals
   agree (then the move made); as with the even judge, the other's chance may then
   stand below the move's (a loss of 0).

Deterministic for a seed and a budget: the deals come from the seed alone and the
stopping rule reads only the playouts' values.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from .alternatives import Alternative, Evaluation, _key_after, shown_alternative
from .board import Board, from_move
from .calibration import slope
from .leaf import team_order
from .notation import Move
from .position import Position
from .search import MAX_CANDIDATES, Candidate, Known, play_out, root_candidates

# The first pass's deals per candidate, and the batch of the verdict's fresh deals.
DEFAULT_SCREEN: Final = 8
# The verdict's fresh deals stop at MAX_BATCHES batches (a difference right on a
# threshold: more deals would not settle it either).
MAX_BATCHES: Final = 10
# How many standard errors away a threshold must be for the verdict to stop.
Z: Final = 2.5
# The smallest standard deviation of a deal's difference believed (a few deals that
# all came out alike say little about the next ones).
SD_FLOOR: Final = 0.02
AGAIN: Final = 500_000_000  # the fresh deals' seed offset (judge.AGAIN)


def _deals(
    board: Board,
    seat: int,
    hand: Sequence[str],
    known: Known,
    cands: Sequence[Candidate],
    n: int,
    rng: random.Random,
) -> list[list[float]]:
    """``n`` deals, every candidate played out on each; each deal's win chances of the
    seat's team, per candidate (the same draws as ``play_out(..., n, ...)``)."""
    out: list[list[float]] = []
    for _ in range(n):
        before = [c.total for c in cands]
        play_out(board, seat, hand, known, cands, 1, rng, None)
        out.append([c.total - b for c, b in zip(cands, before, strict=True)])
    return out


def _mean_se(diffs: Sequence[float]) -> tuple[float, float]:
    n = len(diffs)
    d = sum(diffs) / n
    var = sum((x - d) ** 2 for x in diffs) / max(1, n - 1)
    return d, max(math.sqrt(var), SD_FLOOR) / math.sqrt(n)


def settled(d: float, se: float, thresholds: Sequence[float]) -> bool:
    """No threshold lies within ``Z`` standard errors of the difference ``d``."""
    return all(abs(d - t) > Z * se for t in thresholds)


def _evaluation(
    board: Board, seat: int, hand: Sequence[str], ranked: Sequence[Candidate]
) -> Evaluation:
    """``ranked`` best first, as an ``Evaluation`` (its chances as shown)."""
    return Evaluation(
        seat,
        tuple(hand),
        tuple(shown_alternative(board, seat, c) for c in ranked),
        max((c.playouts for c in ranked), default=0),
    )


def _to_shown(board: Board, seat: int, pair: Sequence[Candidate]) -> float:
    """The factor carrying the pair's raw difference (and its error) to the shown scale
    of the thresholds (calibration.py), at the two's mean chances."""
    a, b = pair[0].dist, pair[1].dist
    if not a or not b:
        return 1.0
    mid = [(x + y) / 2 for x, y in zip(a, b, strict=True)]
    return slope(board.seats, mid, team_order(board).index(board.team[seat]))


def judge_adaptive(
    pos: Position,
    hand: Sequence[str],
    known: Known | None,
    card: str,
    move: Move,
    thresholds: Sequence[float],
    *,
    hand_known: bool = True,
    screen: int = DEFAULT_SCREEN,
    seed: int = 0,
) -> tuple[Evaluation, Evaluation, Alternative, Alternative]:
    """(the screen, what the numbers come from, the move made, the best) for ``move``
    with ``card`` from ``hand`` by the seat to play; see the module doc."""
    board = Board(pos)
    seat = pos.turn
    known = known or Known()
    pick = [c for c in dict.fromkeys(hand) if hand_known or c == card]
    inc = (card, from_move(move))
    cands = root_candidates(board, seat, pick, MAX_CANDIDATES, inc)
    key = _key_after(board, inc[1])
    mine = next(
        c
        for c in cands
        if c.card == card and (c.move == inc[1] or _key_after(board, c.move) == key)
    )
    rng = random.Random(seed)
    screen = max(1, screen)
    alive = list(cands)
    first = _deals(board, seat, hand, known, alive, screen, rng)
    col = {id(c): i for i, c in enumerate(cands)}

    def by_win(group: list[Candidate]) -> list[Candidate]:
        return sorted(group, key=lambda c: (-c.win, col[id(c)]))

    dropped: list[Candidate] = []  # the later a candidate dropped out, the higher it ranks
    while len(alive) > 2:
        alive = by_win(alive)
        keep = max(2, (len(alive) + 1) // 2)
        dropped = alive[keep:] + dropped
        alive = alive[:keep]
        _deals(board, seat, hand, known, alive, screen, rng)
    ranked = by_win(alive) + dropped
    ev = _evaluation(board, seat, hand, ranked)
    me = shown_alternative(board, seat, mine)
    if len(cands) == 1:
        return ev, ev, me, me
    # The best other candidate by the screen, and whether the move made clearly led it
    # (on the first deals, where every candidate was played out on the same ones).
    other = next(c for c in ranked if c is not mine)
    i, j = col[id(mine)], col[id(other)]
    lead, se = _mean_se([deal[i] - deal[j] for deal in first])
    if lead > Z * se:
        return ev, ev, me, me
    # The verdict: the two again on fresh deals, batch by batch, until it is settled.
    again = [
        Candidate(mine.card, mine.move, mine.greedy),
        Candidate(other.card, other.move, other.greedy),
    ]
    fresh = random.Random(seed + AGAIN)
    diffs: list[float] = []
    for _ in range(MAX_BATCHES):
        diffs += [o - m for m, o in _deals(board, seat, hand, known, again, screen, fresh)]
        d, se = _mean_se(diffs)
        k = _to_shown(board, seat, again)
        if settled(d * k, se * k, thresholds):
            break
    judged = _evaluation(board, seat, hand, sorted(again, key=lambda c: -c.win))
    m_alt = shown_alternative(board, seat, again[0])
    o_alt = shown_alternative(board, seat, again[1])
    if again[1].win <= again[0].win and ranked[0] is mine:
        return ev, judged, m_alt, m_alt  # it led the screen and the fresh deals agree
    return ev, judged, m_alt, o_alt
