"""Bots for self-play and hints: ``random`` and a greedy one-move-lookahead heuristic.

A bot is given the position (its seat to play) and its hand and answers with a card and
a move, or ``None`` to discard (only when no card of the hand has a legal move: the
caller checks must-play).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, Protocol

from .movegen import successor_positions, successors
from .notation import Move
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST, Position
from .scoring import distance_home

BotKind = Literal["random", "greedy"]
BOT_KINDS: tuple[BotKind, ...] = ("random", "greedy")

Choice = tuple[str, Move] | None


class Bot(Protocol):
    name: str

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice: ...

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        """The card to pass to the partner (profile ``partner_exchange``)."""
        ...


class RandomBot:
    """A random playable card, then a random legal move of it."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        cards = sorted(set(hand), key=hand.index)
        self.rng.shuffle(cards)
        for card in cards:
            moves = list(successors(pos, card))
            if moves:
                return card, self.rng.choice(moves)[0]
        return None

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        return self.rng.choice(list(hand))


class GreedyBot:
    """Plays the move that most improves its team's position by a simple evaluation:
    pawns home and far along, opponents captured, the partner spared, the own start kept
    free for entering, pawns kept out of reach of opponents behind them. Among equal
    moves it keeps its most flexible cards (A, K, 4, 7, J) for later."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        me = pos.turn
        base = evaluate(pos, me)
        best: tuple[float, str, Move] | None = None
        for card in sorted(set(hand), key=hand.index):
            for after, move in successor_positions(pos, card).items():
                # Tiny random jitter breaks ties without a fixed bias.
                score = evaluate(after, me) - base - CARD_KEEP.get(card, 0.0)
                score += self.rng.random() * 1e-3
                if best is None or score > best[0]:
                    best = (score, card, move)
        return None if best is None else (best[1], best[2])

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        # Pass the partner what helps it most to enter: an A or K if it has nest pawns.
        partner = pos.partner(pos.turn)
        if partner is not None and NEST in pos.pawns[partner]:
            for card in ("A", "K"):
                if card in hand:
                    return card
        return min(hand, key=lambda c: CARD_KEEP.get(c, 0.0))


# What a card is worth keeping in hand (subtracted when played).
CARD_KEEP: dict[str, float] = {"A": 3.0, "K": 3.0, "4": 2.0, "7": 2.0, "J": 1.5}


def evaluate(pos: Position, me: int) -> float:
    """Higher is better for ``me`` and its partner."""
    team = pos.team_of(me)
    ring = pos.topology.ring
    total = 0.0
    if pos.winner() == team:
        return 1e6
    for seat in range(pos.seats):
        value = 0.0
        for loc in pos.pawns[seat]:
            if loc > HOME:
                value += 100 + 3 * (loc - HOME)
            elif loc != NEST:
                d = distance_home(pos, seat, loc) or 0
                value += 30 + 50 * (ring - d) / ring
                if loc != FRESH:
                    value -= 8 * _threats(pos, seat, loc)
        start_occ = pos.track[pos.topology.start(seat)]
        if start_occ != EMPTY and start_occ % BLOCKADE == seat and NEST in pos.pawns[seat]:
            value -= 4  # its own pawn blocks its next entry
        total += value if seat in team else -value / max(1, pos.seats - len(team)) * len(team)
    return total


def _threats(pos: Position, seat: int, loc: int) -> int:
    """Opponent pawns 1 to 12 holes behind this pawn (a single card can reach it)."""
    ring = pos.topology.ring
    team = pos.team_of(seat)
    n = 0
    for back in range(1, 13):
        occ = pos.track[(loc - back) % ring]
        if occ != EMPTY and occ < BLOCKADE and occ not in team:
            n += 1
    return n


def make_bot(kind: str, rng: random.Random) -> Bot:
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return GreedyBot(rng)
    raise ValueError(f"unknown bot {kind!r} (random or greedy)")


def greedy_move(pos: Position, card: str) -> Move | None:
    """The greedy bot's choice with this card (for hints), deterministic."""
    choice = GreedyBot(random.Random(0)).choose(pos, [card])
    return None if choice is None else choice[1]
