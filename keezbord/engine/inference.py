"""Hand inference: the cards another seat chose this round are evidence of what else it
held (issue 38; a first step, off unless asked: ``SearchBot(infer=True)``,
``keezbord engine --infer``).

Sampling the hidden hands uniformly (search.sample_hands) treats a seat that brought no
pawn out while it had pawns in its nest as likely to hold an ace as any other. Here each
sampled deal is weighted by how likely a model of the players (the greedy bot's scores,
softened: a softmax at ``TEMPERATURE``) made the choices the seats made this round: at
each observed decision the seat held its sampled hand now plus the cards it has played
since, and chose the card it played among the cards of that hand that could move. Of
``DRAWS`` deals sampled, one is kept with probability proportional to its weight
(sampling importance resampling), so the playouts run on deals as the search always ran
them, only better chosen. Deterministic for the random generator it is given.

What it costs: the greedy score of every rank at every observed decision, computed once
per position (cached), and DRAWS samples a deal instead of one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .board import Board
from .bots import CARD_KEEP, evaluate_board
from .cards import RANKS
from .position import Position

TEMPERATURE = 5.0  # evaluate_board units; a first guess (entering: 23, a 2: 1.6), to tune
DRAWS = 8


@dataclass(frozen=True, slots=True)
class Observed:
    """Another seat's decision this round: the position before it (its turn: that seat)
    and the card it played."""

    pos: Position
    card: str


@lru_cache(maxsize=512)
def card_scores(pos: Position) -> dict[str, float]:
    """The greedy bot's best score with every rank that can move in ``pos`` (for the seat
    to play): the evaluation's gain less what the card is worth keeping."""
    board = Board(pos)
    seat = pos.turn
    base = evaluate_board(board, seat)
    out: dict[str, float] = {}
    for rank in RANKS:
        keep = CARD_KEEP.get(rank, 0.0)
        best = None
        for move in board.moves(rank, seat):
            undo = board.make(move)
            v = evaluate_board(board, seat) - base - keep
            board.unmake(undo)
            if best is None or v > best:
                best = v
        if best is not None:
            out[rank] = best
    return out


def log_weight(hands: Sequence[Sequence[str]], observed: Sequence[Observed]) -> float:
    """log of how likely the softened greedy model made the observed choices, had the
    seats held ``hands`` (now) plus what they played since each choice."""
    total = 0.0
    for i, ob in enumerate(observed):
        seat = ob.pos.turn
        held = set(hands[seat])
        held.update(o.card for o in observed[i:] if o.pos.turn == seat)
        scores = card_scores(ob.pos)
        mine = scores.get(ob.card)
        if mine is None:
            continue  # a choice the model cannot explain says nothing here
        logs = [scores[r] / TEMPERATURE for r in held if r in scores]
        top = max(logs)
        total += mine / TEMPERATURE - (top + math.log(sum(math.exp(v - top) for v in logs)))
    return total


def pick_deal(
    deals: Sequence[list[list[str]]], observed: Sequence[Observed], rng: random.Random
) -> list[list[str]]:
    """One of ``deals``, with probability proportional to its weight."""
    logs = [log_weight(d, observed) for d in deals]
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    x = rng.random() * sum(weights)
    for d, w in zip(deals, weights, strict=True):
        x -= w
        if x <= 0:
            return d
    return deals[-1]
