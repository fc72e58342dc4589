"""The one judge of a move played: the coach during the game and the analysis after it
ask it the same question and get the same kind of answer on the same scale.

Every candidate of the hand (of the card played only, when the rest of the hand is not
known) is played out equally on the same sampled deals (alternatives.py); when the move
made is not the best, the two are played out again on fresh deals for an unbiased
difference (the best of several noisy estimates stands higher than it is). The loss is
the best's win chance less the move's, and the label follows from ``THRESHOLDS``.

The coach (advice.coach) speaks when the label is ``COACH_LABEL`` or worse, and says the
numbers of this judgement; the analysis (analysis.judge_turn) labels the row with them.
Both judge adaptively (``judge``, adaptive_judge.py; ``judge_even`` is the old even
judgement, kept as the benchmarks' reference) and seed the judgement alike
(``judge_seed``: the game's seed and the turn's number), so at the same budget they give
the same verdict; the coach's time buys the analysis's budget or less (``coach_screen``),
and at a smaller one they differ by its noise only (bench/bench_coach_agreement.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .adaptive_judge import DEFAULT_SCREEN, judge_adaptive
from .alternatives import DEFAULT_PLAYOUTS, Alternative, Evaluation, evaluate_moves
from .notation import Move
from .position import Position
from .search import Known
from .text import Text

# Loss in the team's calibrated win chance (0 to 1) from which a decision is labelled,
# worst first: 0.05 / 0.03 / 0.02 on the hand-made leaf's raw scale (the judge's until
# 2026-12-06), carried to the judge's calibrated one (calibration.py) at the same share
# of greedy play's decisions (0.073 / 0.042 / 0.027), each to the nearest hundredth (a
# loss shown in whole points then keeps its label); docs/analysis.md says how.
THRESHOLDS: Final = (("blunder", 0.07), ("mistake", 0.04), ("inaccuracy", 0.03))
# The coach speaks from this label on (the loss of THRESHOLDS' blunder, the coach's
# margin before the judge was one, carried over likewise).
COACH_LABEL: Final = "blunder"
COACH_THRESHOLD: Final = dict(THRESHOLDS)[COACH_LABEL]
LABEL_WORDS: Final = {
    "inaccuracy": Text("onnauwkeurigheid", "inaccuracy"),
    "mistake": Text("fout", "mistake"),
    "blunder": Text("blunder", "blunder"),
}
AGAIN: Final = 500_000_000  # the seed offset of the second judgement
# The analysis's budget (``judge``'s ``playouts``): the adaptive judgement's first pass,
# playouts a candidate (adaptive_judge.py; docs/analysis.md "Time and label agreement").
ANALYSIS_PLAYOUTS: Final = DEFAULT_SCREEN
# The first pass's share of ``playouts`` by number of seats, where it is not all of it:
# a 6-seat decision costs about twice a 4-seat one (more candidates, longer playouts),
# and half the first pass keeps its labels agreeing with a twenty times larger budget as
# often (docs/analysis.md "Time and label agreement": 13.1 s to 5.8 s for g102).
SCREEN_SHARE: Final = {6: 0.5}
# What the adaptive judgement spends a decision, on average, for each deal of its screen
# (every candidate's playout counted): 11 to 14 on 4- and 6-seat self-play (random and
# greedy, screens 4 and 8; docs/hints.md "The coach and the analysis"). Turns a budget
# for the decision (the coach's, from a time) into a screen.
PLAYOUTS_PER_SCREEN: Final = 12


def seat_screen(seats: int, playouts: int) -> int:
    """The first pass a candidate for ``playouts`` on a board of ``seats``."""
    return max(1, math.ceil(playouts * SCREEN_SHARE.get(seats, 1.0)))


def screen_for(total: int) -> int:
    """The adaptive judgement's screen that spends about ``total`` playouts a decision."""
    return max(1, total // PLAYOUTS_PER_SCREEN)


def coach_screen(total: int) -> int:
    """The coach's screen for its budget ``total`` (from its time): ``screen_for``, but
    never more than the analysis's, so that where the time affords the analysis's budget
    the coach's verdict is the analysis's own (same judge, seed and budget), and where
    it does not, the analysis's at a smaller budget (they differ by its noise)."""
    return min(ANALYSIS_PLAYOUTS, screen_for(total))


def coach_playouts(total: int | None, playouts: int = ANALYSIS_PLAYOUTS) -> int:
    """The coach's ``judge`` budget, passed as ``playouts`` with no ``total``: for a
    time's budget ``total``, ``coach_screen``'s, else ``playouts``; so that at 6 seats
    it is cut like the analysis's and the two judge alike."""
    return playouts if total is None else coach_screen(total)


def label_of(loss: float) -> str | None:
    for name, at in THRESHOLDS:
        if loss >= at:
            return name
    return None


def shown_loss(loss: float) -> float:
    """The loss as a person reads it, in points of win chance (0 to 100): cut down (never
    rounded up) to whole points, or to the fewest decimals that keep the label the loss
    has. ``label_of`` compares with ``>=``, so a cut value is never above the next
    threshold and, with enough decimals, not below its own: 0.0459 is a mistake shown
    as 4, not a 5 beside a blunder's 5 (issue 40, item 14)."""
    label = label_of(loss)
    cut = 0.0
    for decimals in range(4):
        scale = 10**decimals
        cut = math.floor(100 * loss * scale + 1e-9) / scale
        if label_of(cut / 100) == label:
            break
    return cut


def loss_text(loss: float, lang: str) -> str:
    """``shown_loss`` written in ``lang``: "4", "2.5" (English), "2,5" (Dutch)."""
    v = shown_loss(loss)
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return s.replace(".", ",") if lang == "nl" else s


def judge_seed(seed: int, index: int) -> int:
    """The judgement's seed for turn ``index`` of a game seeded ``seed``."""
    return seed * 1_000_003 + index


@dataclass(frozen=True, slots=True)
class Verdict:
    """A move judged: ``first`` every candidate, ``judged`` what the numbers come from
    (the best and the move played out again when they differ, else ``first``)."""

    first: Evaluation
    judged: Evaluation
    mine: Alternative
    best: Alternative
    win: float
    best_win: float
    dist: tuple[float, ...]  # every team's chance after the move made (leaf.team_order)
    best_dist: tuple[float, ...]  # after the best

    @property
    def loss(self) -> float:
        return max(0.0, self.best_win - self.win)

    @property
    def label(self) -> str | None:
        return label_of(self.loss)


def judge_even(
    pos: Position,
    hand: Sequence[str],
    known: Known | None,
    card: str,
    move: Move,
    *,
    hand_known: bool = True,
    playouts: int = DEFAULT_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
) -> Verdict:
    """Judge ``move`` with ``card`` from ``hand`` by the seat to play (``pos.turn``);
    ``seed``: ``judge_seed(game seed, turn index)``; the budget ``playouts`` per
    candidate, or ``total`` for the decision."""
    cards = None if hand_known else [card]
    ev = evaluate_moves(
        pos,
        hand,
        known,
        playouts=playouts,
        total=total,
        seed=seed,
        include=(card, move),
        cards=cards,
    )
    mine, best = ev.find(card, move, pos), ev.best
    assert mine is not None and best is not None
    judged = ev
    if mine is not best:
        judged = evaluate_moves(
            pos,
            hand,
            known,
            playouts=ev.playouts,
            seed=seed + AGAIN,
            only=((best.card, best.move), (card, move)),
            cards=cards,
        )
        mine_again = judged.find(card, move, pos)
        best_again = judged.find(best.card, best.move, pos)
        assert mine_again is not None and best_again is not None
        mine, best = mine_again, best_again
    return Verdict(ev, judged, mine, best, mine.win, best.win, mine.dist, best.dist)


def judge(
    pos: Position,
    hand: Sequence[str],
    known: Known | None,
    card: str,
    move: Move,
    *,
    hand_known: bool = True,
    playouts: int = ANALYSIS_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
) -> Verdict:
    """Judge ``move`` with ``card`` from ``hand`` by the seat to play (``pos.turn``);
    ``seed``: ``judge_seed(game seed, turn index)``. ``playouts``: the adaptive
    judgement's first pass a candidate (adaptive_judge.py: the deals go where the
    verdict is in doubt); ``total``: a budget for the decision instead (from a time),
    turned into a first pass by ``screen_for``: the same judge at another budget.
    ``playouts`` (no ``total``) is cut to ``seat_screen``'s share (half at 6 seats);
    ``total`` is not, as ``screen_for`` already spends about ``total`` at any board."""
    playouts = screen_for(total) if total is not None else seat_screen(pos.seats, playouts)
    first, judged, mine, best = judge_adaptive(
        pos,
        hand,
        known,
        card,
        move,
        [at for _, at in THRESHOLDS],
        hand_known=hand_known,
        screen=playouts,
        seed=seed,
    )
    return Verdict(first, judged, mine, best, mine.win, best.win, mine.dist, best.dist)
