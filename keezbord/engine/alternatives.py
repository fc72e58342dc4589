"""The one evaluator of alternatives: the team's win chance for every candidate move of a
decision, for the hand held and the cards known to be out.

The game analysis (after the game: the best choice against the one made) and the puzzles'
only-move test (one choice clearly best) both ask the same question of a position: how
does each move of this hand stand? The search (search.py) answers a different one (which
move to play, fast) and spends its playouts unevenly by successive halving; here every
candidate gets the same number of playouts on the same sampled deals with the same
random draws for the policy (paired: the luck of the cards weighs on every candidate
alike, so their differences are measured much more sharply than their levels). The
playouts are the search's own (``search.root_candidates`` for the candidates,
``search.play_out`` for the sampled deals played out): one machine for both.

The chances are the calibrated ones (calibration.py: the playouts' mean distribution over
the teams, fitted to how often teams really won): ``win`` and ``dist`` are what a person
is shown, ``raw_dist`` the playouts' own.

Deterministic for a seed and a budget. The budget is playouts per candidate, or a total
for the decision spread evenly over its candidates (the host turns milliseconds into
that total by measuring its machine, search_budget.py: the engine reads no clock).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, FastMove, from_move, to_move
from .calibration import shown as calibrate_for
from .cards import RANKS
from .leaf import team_order
from .notation import Move
from .position import Position
from .rollout import GREEDY, Policy
from .search import MAX_CANDIDATES, Analysis, Candidate, Known, play_out, root_candidates

# Playouts per candidate when nobody says: the analysis of a 4-seat game of 200
# decisions (3.6 candidates a decision on average, at most MAX_CANDIDATES) then plays
# about 70,000 playouts, 30 s on one core of a Raspberry Pi 5 class machine.
DEFAULT_PLAYOUTS = 100

Key = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Alternative:
    """One candidate move and what its playouts found."""

    card: str
    move: Move
    fast: FastMove  # the move on the fast board (board.py)
    after: Key  # the pawns after it (moves reaching the same pawns with a card are one)
    win: float  # the team's mean win chance over the playouts
    lost_rate: float  # playouts in which the team lost a pawn to a capture
    playouts: int
    greedy: float  # the greedy bot's one-ply score (the order candidates were kept in)
    dist: tuple[float, ...] = ()  # every team's win chance after it (leaf.team_order)
    raw_dist: tuple[float, ...] = ()  # the same before calibration (the playouts' mean)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every candidate of one decision, best first (``ranked``); ``playouts`` each."""

    seat: int
    hand: tuple[str, ...]
    ranked: tuple[Alternative, ...]
    playouts: int

    @property
    def best(self) -> Alternative | None:
        return self.ranked[0] if self.ranked else None

    @property
    def second(self) -> Alternative | None:
        return self.ranked[1] if len(self.ranked) > 1 else None

    @property
    def gap(self) -> float:
        """How far the best stands above the second best (1 for a lone choice)."""
        if not self.ranked:
            return 0.0
        return self.ranked[0].win - self.ranked[1].win if len(self.ranked) > 1 else 1.0

    def find(self, card: str, move: Move, pos: Position) -> Alternative | None:
        """The candidate that is ``move`` with ``card`` (or reaches the same pawns with
        it: a 7's parts in another order)."""
        fm = from_move(move)
        for a in self.ranked:
            if a.card == card and a.fast == fm:
                return a
        key = _key_after(Board(pos), fm)
        return next((a for a in self.ranked if a.card == card and a.after == key), None)

    def to_analysis(self) -> Analysis:
        """As the search's result, for what explains one (advice.explain_choice,
        advice.remark_of)."""
        cands = [
            Candidate(
                a.card,
                a.fast,
                a.greedy,
                a.playouts,
                a.win * a.playouts,
                round(a.lost_rate * a.playouts),
                shares=[v * a.playouts for v in a.dist],
            )
            for a in self.ranked
        ]
        return Analysis(self.seat, cands, self.playouts * len(cands))


def _key_after(board: Board, move: FastMove) -> Key:
    undo = board.make(move)
    key = board.key()
    board.unmake(undo)
    return key


def per_candidate(total: int, candidates: int) -> int:
    """A decision's total budget spread evenly over its candidates (at least 1 each)."""
    return max(1, total // max(1, candidates))


def evaluate_moves(
    pos: Position,
    hand: Sequence[str],
    known: Known | None = None,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
    cards: Sequence[str] | None = None,
    include: tuple[str, Move] | None = None,
    only: Sequence[tuple[str, Move]] | None = None,
    limit: int = MAX_CANDIDATES,
    horizon: int | None = None,
    how: Policy = GREEDY,
) -> Evaluation:
    """Every candidate move of the seat to play (``pos.turn``) holding ``hand``, each
    played out ``playouts`` times (or ``total`` for the whole decision, spread evenly)
    on the same sampled deals of the others' hands (``known``: the cards seen this
    deal, the hand sizes, as the search bot samples them).

    ``cards``: only these cards' moves are candidates (a decision whose hand is not
    fully known: the card played is, the rest of the hand is sampled with the others).
    ``include``: a move that must be a candidate (the move played), whatever the greedy
    bot's order; the candidates are otherwise the search's (the best ``limit`` distinct
    positions a card reaches, by the greedy bot's score). ``only``: exactly these
    moves (judging one move against another). ``how``: the playouts' policy and leaf
    (the judge's own, the greedy bot and the judge's leaf, unless a bench asks for
    another). No legal move: no candidates."""
    board = Board(pos)
    seat = pos.turn
    known = known or Known()
    if cards is not None and any(c not in hand for c in cards):
        raise ValueError(f"cards {list(cards)} are not all in the hand {list(hand)}")
    pick = [c for c in dict.fromkeys(hand) if cards is None or c in cards]
    inc = None if include is None else (include[0], from_move(include[1]))
    if only is None:
        cands = root_candidates(board, seat, pick, limit, inc)
    else:
        wanted = {(c, _key_after(board, from_move(m))) for c, m in only}
        cands = [
            c
            for c in root_candidates(board, seat, pick, len(RANKS) * 10_000)
            if (c.card, _key_after(board, c.move)) in wanted
        ]
    each = playouts if total is None else per_candidate(total, len(cands))
    if cands and each > 0:
        play_out(board, seat, hand, known, cands, each, random.Random(seed), horizon, how)
    alts = [shown_alternative(board, seat, c) for c in cands]
    ranked = sorted(range(len(cands)), key=lambda i: (-alts[i].win, i))
    return Evaluation(seat, tuple(hand), tuple(alts[i] for i in ranked), each if cands else 0)


def shown_alternative(board: Board, seat: int, c: Candidate) -> Alternative:
    """The candidate ``c`` of ``seat`` as a person is shown it: its chances calibrated
    (calibration.py), the playouts' own kept as ``raw_dist``."""
    shown = calibrate_for(board.seats, c.dist)
    mine = team_order(board).index(board.team[seat])
    return Alternative(
        c.card,
        to_move(c.move),
        c.move,
        _key_after(board, c.move),
        shown[mine] if shown else c.win,
        c.lost_rate,
        c.playouts,
        c.greedy,
        shown,
        c.dist,
    )
