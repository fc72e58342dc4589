"""Which seat's pawn stands where, for the page's drawing of the board.

The switches sense presence only; the colours come from the position after every move
the referee accepts (``recolour``), and between moves each lift and place is followed
(``track``): a lifted pawn goes into the hand (``held``), a placed one comes out of it.
Pure bookkeeping, no time and no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keezbord.engine.notation import Move, Step
from keezbord.engine.position import NEST, Position, location_hole
from keezbord.host.events import HoleEvent
from keezbord.host.referee import colours, nest_seat


class PawnTracker:
    def __init__(self) -> None:
        self.pawn_seat: dict[str, int | None] = {}  # sensed hole -> seat of its pawn
        self.held: list[int | None] = []  # pawns off the board, last lifted last
        self.last: dict[str, Any] | None = None  # the last lift or place, for the page

    def recolour(self, pos: Position, sensed: frozenset[str]) -> None:
        """Seat of every sensed pawn from the position (after a move is accepted or the
        game is opened); pawns the position does not explain keep their tracked seat."""
        expected = colours(pos)
        old = self.pawn_seat
        self.pawn_seat = {h: _seat_of(h, expected, old) for h in sensed}
        missing = [h for h in expected if h not in sensed]
        nests = [0] * pos.seats
        for h in sensed:
            s = nest_seat(h)
            if s is not None:
                nests[s] += 1
        held: list[int | None] = [expected[h] for h in sorted(missing)]
        for s, locs in enumerate(pos.pawns):
            held += [s] * max(0, sum(1 for loc in locs if loc == NEST) - nests[s])
        total = 4 * pos.seats
        held += [None] * max(0, total - len(sensed) - len(held))
        self.held = held[: max(0, total - len(sensed))]

    def track(self, ev: HoleEvent, seat_hint: int | None = None, by: str = "player") -> None:
        """Follow one lift or place; ``seat_hint``: the seat of the pawn put down, when
        known (a bot's move), ``by``: who did it, for the page."""
        if ev.action == "lift":
            self.held.append(self.pawn_seat.pop(ev.hole, None))
        else:
            idx = len(self.held) - 1
            want = nest_seat(ev.hole) if ev.hole[0] == "N" else seat_hint
            if want is not None and want in self.held:
                idx = len(self.held) - 1 - self.held[::-1].index(want)
            seat = self.held.pop(idx) if self.held else None
            self.pawn_seat[ev.hole] = seat
        self.last = {"action": ev.action, "hole": ev.hole, "by": by}

    def reset(self) -> None:
        self.pawn_seat = {}
        self.last = None


def landing_seats(pos: Position, move: Move) -> dict[str, int]:
    """Hole -> seat of the pawn that ends there (to draw a bot's pawns in hand right)."""
    out: dict[str, int] = {}
    for part in move.parts:
        if isinstance(part, Step):
            out[location_hole(pos.topology, part.seat, part.to).name] = part.seat
    return out


def _seat_of(hole: str, expected: Mapping[str, int], old: Mapping[str, int | None]) -> int | None:
    if hole in expected:
        return expected[hole]
    if hole[0] in "NH":
        return int(hole[1 : hole.index(".")])
    return old.get(hole)
