"""Dealing and turn order (RULES.md, "Dealing" and "Controlled pawns, teams, turns").

``Table`` tracks only counts (who deals, which round, how many cards each seat still
holds, whose turn it is): that is all the referee can know at a real table. ``deal_hands``
adds the cards themselves, from a seeded shuffle, for self-play and the simulator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cards import ROUND_SIZES, deck


@dataclass(frozen=True, slots=True)
class Table:
    seats: int
    dealer: int
    shuffle_no: int = 0  # shuffles so far, 0-based
    round_no: int = 0  # 0, 1, 2 within a shuffle: 5, 4, 4 cards
    cards_left: tuple[int, ...] = ()
    turn: int | None = None  # None once every hand is played or discarded

    @classmethod
    def first(cls, seats: int, dealer: int = 0) -> Table:
        """The table as the first round of the game is dealt."""
        size = ROUND_SIZES[0]
        return cls(seats, dealer % seats, 0, 0, (size,) * seats, (dealer + 1) % seats)

    @property
    def leader(self) -> int:
        """The seat after the dealer leads each round."""
        return (self.dealer + 1) % self.seats

    @property
    def round_over(self) -> bool:
        return self.turn is None

    @property
    def round_size(self) -> int:
        return ROUND_SIZES[self.round_no]

    def sitting_out(self) -> tuple[int, ...]:
        return tuple(s for s, n in enumerate(self.cards_left) if n == 0)

    def played(self, seat: int) -> Table:
        """``seat`` played one card."""
        left = list(self.cards_left)
        left[seat] -= 1
        return self._advance(seat, tuple(left))

    def discarded(self, seat: int) -> Table:
        """``seat`` threw away its hand: it sits out until the next deal."""
        left = list(self.cards_left)
        left[seat] = 0
        return self._advance(seat, tuple(left))

    def _advance(self, seat: int, left: tuple[int, ...]) -> Table:
        return replace(self, cards_left=left, turn=next_holder(left, seat))

    def next_round(self) -> Table:
        """Deal the next round: same dealer for three rounds, then the next seat
        clockwise shuffles and deals."""
        if self.round_no + 1 < len(ROUND_SIZES):
            dealer, shuffle_no, round_no = self.dealer, self.shuffle_no, self.round_no + 1
        else:
            dealer, shuffle_no, round_no = (self.dealer + 1) % self.seats, self.shuffle_no + 1, 0
        size = ROUND_SIZES[round_no]
        return Table(
            self.seats,
            dealer,
            shuffle_no,
            round_no,
            (size,) * self.seats,
            (dealer + 1) % self.seats,
        )


def next_holder(held: Sequence[object], seat: int) -> int | None:
    """The first seat after ``seat``, clockwise, that still holds cards (``held``: each
    seat's hand, or its count of cards); None when none does: the round is over."""
    seats = len(held)
    for i in range(1, seats + 1):
        s = (seat + i) % seats
        if held[s]:
            return s
    return None


def shuffled_deck(seats: int, rng: random.Random) -> list[str]:
    cards = deck(seats)
    rng.shuffle(cards)
    return cards


def deal_hands(table: Table, stock: list[str]) -> tuple[list[list[str]], list[str]]:
    """Deal the table's round from the stock, one card at a time starting with the
    leader. Returns the hands (by seat) and what is left of the stock."""
    hands: list[list[str]] = [[] for _ in range(table.seats)]
    stock = list(stock)
    for _ in range(table.round_size):
        for i in range(table.seats):
            hands[(table.leader + i) % table.seats].append(stock.pop())
    return hands, stock
