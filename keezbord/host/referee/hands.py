"""Which pawn stands where: the pawns as the touches carried them (issue 22).

The switches sense presence only, so a pawn's colour, and where it stood when the turn
began (its *origin*), follow from the hand that moved it: a pawn lifted from a hole and
put down on another while nothing else is in hand is the same pawn. With two or more
pawns in hand, which one went where is unknown, so every reading is kept (a *world*: the
pawns on the holes, by colour and by origin, and those still in hand), up to
``MAX_WORLDS``. A switch that contradicts every world (a pawn lifted from a hole no world
has a pawn on, one put down with none in hand) loses the tracking: ``()``, until the
next move is taken.

The referee narrows the worlds by its own readings (step.py): a board at rest that it
reads as a legal move is that move (both pawns of a jack swap in hand at once are the
swap), an accepted move leaves the position it leads to (and a new turn's origins are
where the pawns stand), and a board it takes as put back is the position before. So a
pawn knocked after a swap and put back is known to be the swapped pawn, a swap undone
through a third hole one pawn at a time is known to be undone, and a move whose pawn
did not go where the move says (a 7 capturing its own pawn on a hole that was never
emptied) is no candidate.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from keezbord.engine.notation import Move, Step
from keezbord.engine.position import Position

from .recognize import board_sig, colour_pairs, nest_seat, pos_sig, step_from, step_to
from .state import World, Worlds

MAX_WORLDS: Final = 16  # two pawns in hand give 2 readings; three give 6


def start(pos: Position, sensed: frozenset[str]) -> Worlds:
    """The board showing ``pos`` (nest pawns in their own nests); lost when it does not."""
    if board_sig(sensed, pos.seats) != pos_sig(pos):
        return ()
    nests = {(h, s) for h in sensed if (s := nest_seat(h)) is not None}
    pairs = colour_pairs(pos) | nests
    return ((pairs, _here(pairs), ()),)


def _here(pairs: frozenset[tuple[str, int]]) -> frozenset[tuple[str, str]]:
    """Each pawn's origin where it stands (nest holes are interchangeable: ``N2``)."""
    return frozenset((h, h if h[0] != "N" else h[: h.index(".")]) for h, _ in pairs)  # hole_key


def rebase(worlds: Worlds) -> Worlds:
    """A new turn: the origins are where the pawns stand now."""
    return _distinct((pairs, _here(pairs), hand) for pairs, _, hand in worlds)


def lift(worlds: Worlds, hole: str) -> Worlds:
    out: list[World] = []
    for pairs, origins, hand in worlds:
        seat = next((s for h, s in pairs if h == hole), None)
        origin = next((o for h, o in origins if h == hole), None)
        if seat is None or origin is None:
            return ()
        out.append(
            (
                pairs - {(hole, seat)},
                origins - {(hole, origin)},
                tuple(sorted((*hand, (seat, origin)))),
            )
        )
    return _distinct(out)


def place(worlds: Worlds, hole: str) -> Worlds:
    """A pawn put down: any pawn in hand may be it, but a pawn put in a nest is one of
    that nest's colour when one is in hand (a captured pawn carried home)."""
    out: list[World] = []
    owner = nest_seat(hole)
    for pairs, origins, hand in worlds:
        if not hand:
            return ()
        pawns = [p for p in hand if p[0] == owner] or hand
        for pawn in dict.fromkeys(pawns):  # any pawn in hand may be the one put down
            rest = list(hand)
            rest.remove(pawn)
            out.append((pairs | {(hole, pawn[0])}, origins | {(hole, pawn[1])}, tuple(rest)))
    return _distinct(out)


def distinct(worlds: Iterable[World]) -> Worlds:
    """The worlds once each; () when there are too many to keep (the tracking is lost)."""
    return _distinct(worlds)


def _distinct(worlds: Iterable[World]) -> Worlds:
    out = tuple(worlds)
    if len(out) > 1:  # (one world, the common case, needs no hashing)
        out = tuple(dict.fromkeys(out))
    return out if len(out) <= MAX_WORLDS else ()


def shows(world: World, pos: Position) -> bool:
    """The world is ``pos``: every track and home pawn of its colour, every nest pawn in
    its own nest, nothing in hand."""
    pairs, _, hand = world
    if hand:
        return False
    want = colour_pairs(pos)
    return want <= pairs and pairs - want <= _own_nests(pos.seats)


def fits(world: World, pos: Position, move: Move, after: Position) -> bool:
    """The world is ``after`` and each pawn ``move`` moves from ``pos`` stands where the
    move takes it (a part's landing holds the pawn from its departure)."""
    if not shows(world, after):
        return False
    topo = pos.topology
    went: dict[str, str] = {}  # landing hole -> origin of the pawn that must stand there
    for part in move.parts:
        if isinstance(part, Step):
            # (A later part landing on the same hole captured the first one's pawn.)
            went[step_to(topo, part)] = step_from(topo, part)
        else:
            went[f"T{part.b}"], went[f"T{part.a}"] = f"T{part.a}", f"T{part.b}"
    return went.items() <= world[1]


@lru_cache(maxsize=8)
def _own_nests(seats: int) -> frozenset[tuple[str, int]]:
    return frozenset((f"N{s}.{k}", s) for s in range(seats) for k in range(1, 5))


def narrow(worlds: Worlds, positions: Iterable[Position]) -> Worlds:
    """The worlds that show one of ``positions``."""
    ps = list(positions)
    return tuple(w for w in worlds if any(shows(w, p) for p in ps))


def certain(worlds: Worlds) -> World | None:
    """A world, when every world puts the same colours on the same holes (they may
    differ in which of two pawns of one colour is which)."""
    if not worlds:
        return None
    first = worlds[0]
    seats = [s for s, _ in first[2]]
    same = all(w[0] == first[0] and [s for s, _ in w[2]] == seats for w in worlds[1:])
    return first if same else None


def owners(world: World) -> dict[str, int]:
    """Track and home holes -> the seat of the pawn there."""
    return {h: s for h, s in world[0] if h[0] != "N"}


def disputed(worlds: Worlds) -> frozenset[str]:
    """Track and home holes whose colour the worlds do not agree on."""
    maps = [owners(w) for w in worlds]
    holes: set[str] = set().union(*maps)
    return frozenset(h for h in holes if len({m.get(h) for m in maps}) > 1)


def knocked_off(worlds: Worlds, sensed: frozenset[str]) -> list[int]:
    """The seats of the pawns in hand that were lifted from a track or home hole another
    pawn now stands on (a capture's victim, its own colour's or another's); [] when the
    touches do not know."""
    world = certain(worlds)
    if world is None:
        return []
    return [s for s, origin in world[2] if origin[0] in "TH" and origin in sensed]
