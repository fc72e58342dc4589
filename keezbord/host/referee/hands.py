"""Which colour stands where: the pawns as the touches carried them (issue 22).

The switches sense presence only, so a pawn's colour follows from the hand that moved
it: a pawn lifted from a hole and put down on another while nothing else is in hand is
the same pawn. With two or more pawns in hand, which one went where is unknown, so
every reading is kept (a *world*: the pawns on the holes and the seats still in hand),
up to ``MAX_WORLDS``. A switch that contradicts every world (a pawn lifted from a hole
no world has a pawn on, one put down with none in hand) loses the tracking: ``()``,
until the next move is taken.

The referee narrows the worlds by its own readings (step.py): a board at rest that it
reads as a legal move is that move (both pawns of a jack swap in hand at once are the
swap), an accepted move leaves the position it leads to, and a board it takes as put
back is the position before. So a pawn knocked after a swap and put back is known to be
the swapped pawn, and a swap undone through a third hole one pawn at a time is known to
be undone.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from keezbord.engine.position import Position

from .recognize import board_sig, colour_pairs, colours, nest_seat, pos_sig
from .state import World, Worlds

MAX_WORLDS: Final = 16  # two pawns of different colours in hand give 2; three give 6


def start(pos: Position, sensed: frozenset[str]) -> Worlds:
    """The board showing ``pos`` (nest pawns in their own nests); lost when it does not."""
    if board_sig(sensed, pos.seats) != pos_sig(pos):
        return ()
    nests = {(h, s) for h in sensed if (s := nest_seat(h)) is not None}
    return ((frozenset(colours(pos).items()) | nests, ()),)


def lift(worlds: Worlds, hole: str) -> Worlds:
    out: list[World] = []
    for board, hand in worlds:
        seat = next((s for h, s in board if h == hole), None)
        if seat is None:
            return ()
        out.append((board - {(hole, seat)}, tuple(sorted((*hand, seat)))))
    return _distinct(out)


def place(worlds: Worlds, hole: str) -> Worlds:
    out: list[World] = []
    for board, hand in worlds:
        if not hand:
            return ()
        for seat in dict.fromkeys(hand):  # any pawn in hand may be the one put down
            rest = list(hand)
            rest.remove(seat)
            out.append((board | {(hole, seat)}, tuple(rest)))
    return _distinct(out)


def _distinct(worlds: Iterable[World]) -> Worlds:
    out = tuple(dict.fromkeys(worlds))
    return out if len(out) <= MAX_WORLDS else ()


def shows(world: World, pos: Position) -> bool:
    """The world is ``pos``: every track and home pawn of its colour, every nest pawn in
    its own nest, nothing in hand."""
    board, hand = world
    if hand:
        return False
    want = colour_pairs(pos)
    return want <= board and board - want <= _own_nests(pos.seats)


@lru_cache(maxsize=8)
def _own_nests(seats: int) -> frozenset[tuple[str, int]]:
    return frozenset((f"N{s}.{k}", s) for s in range(seats) for k in range(1, 5))


def narrow(worlds: Worlds, positions: Iterable[Position]) -> Worlds:
    """The worlds that show one of ``positions``."""
    ps = list(positions)
    return tuple(w for w in worlds if any(shows(w, p) for p in ps))


def certain(worlds: Worlds) -> World | None:
    return worlds[0] if len(worlds) == 1 else None


def owners(world: World) -> dict[str, int]:
    """Track and home holes -> the seat of the pawn there."""
    return {h: s for h, s in world[0] if h[0] != "N"}


def disputed(worlds: Worlds) -> frozenset[str]:
    """Track and home holes whose colour the worlds do not agree on."""
    maps = [owners(w) for w in worlds]
    holes: set[str] = set().union(*maps)
    return frozenset(h for h in holes if len({m.get(h) for m in maps}) > 1)
