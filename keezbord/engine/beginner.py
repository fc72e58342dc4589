"""The beginner: a bot that plays like a person in a first game (issue 38, section 5).

Not random moves: it scores its moves as the greedy bot does (bots.py), but at each
decision where one of the mistakes people make is on offer, it makes it at that
mistake's rate (``MISTAKES``):

- ``partner_capture``: takes a capture that sends its partner's (or its own) pawn back
  ("a capture!", forgetting whose pawn it is);
- ``start_lane``: leaves a pawn on an opponent's start hole while that opponent still
  has pawns to bring out (the next ace or king there captures it);
- ``no_new_pawn``: moves a pawn already out instead of bringing a new one out with an
  ace or king;
- ``waste_4_7``: spends a 4 or a 7 on an ordinary step when another card would do
  (the 4 goes backwards to home, the 7 splits: both are worth keeping).

The mistakes are tried in that order; the first that is on offer (its best move differs
from the greedy choice) and whose draw falls under its rate is made. The same seed gives
the same game. ``last_mistake`` names the one made at the last decision (None: none).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, FastMove, Undo
from .bots import Choice, FastChoice, GreedyBot, _fast_choose, greedy_candidates
from .position import NEST, Position

# How often a first-game player makes each mistake when it is on offer.
MISTAKES: dict[str, float] = {
    "partner_capture": 0.5,
    "start_lane": 0.5,
    "no_new_pawn": 0.5,
    "waste_4_7": 0.5,
}
MISTAKE_KINDS: tuple[str, ...] = tuple(MISTAKES)


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate move with the greedy bot's score and the mistakes it makes."""

    score: float
    card: str
    move: FastMove
    kinds: frozenset[str]


def _mistakes(board: Board, seat: int, card: str, move: FastMove, undo: Undo) -> set[str]:
    """The mistakes of ``move`` (already made on ``board``; ``undo`` its record)."""
    out: set[str] = set()
    team = board.team[seat]
    for u in undo:
        if len(u) == 5 and u[3] >= 0 and u[3] in team:
            out.add("partner_capture")
    starts = board.start
    for part in move[1]:
        if len(part) == 3 and part[0] in team and 0 <= part[2] < board.ring:
            for other in range(board.seats):
                if other not in team and starts[other] == part[2] and NEST in board.pawns[other]:
                    out.add("start_lane")
    if card in ("4", "7") and not any(len(p) == 3 and p[1] == NEST for p in move[1]):
        out.add("waste_4_7")
    return out


def scored_moves(board: Board, seat: int, hand: Sequence[str], rng: random.Random) -> list[Scored]:
    """Every distinct (card, position) of the hand with the greedy score (its keep term
    and tie-breaking jitter included) and its mistakes."""
    out = [
        Scored(score, card, move, frozenset(_mistakes(board, seat, card, move, undo)))
        for score, card, move, undo in greedy_candidates(board, seat, hand, rng.random)
    ]
    enters = any(len(p) == 3 and p[1] == NEST for s in out for p in s.move[1])
    if enters:  # not bringing a pawn out: every move that leaves the nest as it is
        out = [
            Scored(s.score, s.card, s.move, s.kinds | {"no_new_pawn"})
            if not any(len(p) == 3 and p[1] == NEST for p in s.move[1])
            else s
            for s in out
        ]
    return out


class BeginnerBot:
    """Greedy's choice, but making ``rates``' mistakes when they are on offer."""

    name = "beginner"

    def __init__(self, rng: random.Random, rates: dict[str, float] | None = None) -> None:
        self.rng = rng
        self.rates = MISTAKES if rates is None else rates
        self.last_mistake: str | None = None
        self._greedy = GreedyBot(rng)

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice:
        self.last_mistake = None
        moves = scored_moves(board, seat, hand, self.rng)
        if not moves:
            return None
        best = max(moves, key=lambda s: s.score)
        for kind in MISTAKE_KINDS:
            offered = [s for s in moves if kind in s.kinds]
            if not offered:
                continue
            worse = max(offered, key=lambda s: s.score)
            if worse is best:
                continue
            if self.rng.random() < self.rates.get(kind, 0.0):
                self.last_mistake = kind
                return worse.card, worse.move
        return best.card, best.move

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        return _fast_choose(self, pos, hand)

    def choose_positions(self, pos: Position, hand: Sequence[str]) -> Choice:
        return _fast_choose(self, pos, hand)

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        return self._greedy.give(pos, hand)
