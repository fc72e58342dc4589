"""Precomputed walks for the fast playout board (board.py), one table set per board shape.

Every forward or backward walk a pawn can make depends only on the seat, the departure,
the step count and whether the pawn is fresh; which of those walks are *legal* depends on
the pawns on the way. So each walk is computed once, as the landing plus two bitmasks of
what it passes (the track holes, and the seats whose start hole is among them), and a
move is checked with a few integer operations against the board's own bitmasks instead of
a hole-by-hole walk.
"""

from __future__ import annotations

from functools import lru_cache

from .cards import BACK_STEPS, KING_STEPS
from .position import HOME

# A route: (landing location, passed track holes, seats whose start hole is passed).
# The landing is a track index, or HOME + k for home slot k entered from the own start.
Route = tuple[int, int, int]
# A backward walk: (landing, passed holes, starts passed, passes its own start hole).
BackRoute = tuple[int, int, int, bool]


class Paths:
    """Walk tables for ``seats`` seats of ``segment`` holes under one ``home_entry`` rule.

    ``forward[seat][i][k]``: the routes of a pawn of ``seat`` going ``k`` steps forward
    from track hole ``i`` (``i == ring``: fresh on its own start); a home route first
    (when the walk turns in), then the track route (``may_pass``, or no turn-in).
    ``backward[seat][i]``: its 4-back walk. ``window[t]``: the holes 1 to 12 behind ``t``.
    """

    __slots__ = ("backward", "forward", "ring", "seats", "segment", "start", "window")

    def __init__(self, seats: int, segment: int, may_pass: bool) -> None:
        ring = seats * segment
        # A 13-step walk never comes back to its departure (topology.MIN_SEGMENT).
        assert ring > KING_STEPS
        self.seats = seats
        self.segment = segment
        self.ring = ring
        self.start = tuple(s * segment for s in range(seats))
        start_of = {s * segment: s for s in range(seats)}

        def masks(passed: list[int]) -> tuple[int, int]:
            holes = starts = 0
            for t in passed:
                holes |= 1 << t
                if t in start_of:
                    starts |= 1 << start_of[t]
            return holes, starts

        # Most walks are the same for every seat (only a seat's own start turns it in):
        # equal routes and route tuples are stored once, so 8 seats cost little more
        # than one (0.6 MB instead of 2.2 MB for 8 seats of 16).
        routes: dict[Route, Route] = {}
        lists: dict[tuple[Route, ...], tuple[Route, ...]] = {}

        def route(landing: int, passed: list[int]) -> Route:
            r = (landing, *masks(passed))
            return routes.setdefault(r, r)

        def done(out: list[Route]) -> tuple[Route, ...]:
            t = tuple(out)
            return lists.setdefault(t, t)

        def walk(seat: int, dep: int, fresh: bool, k: int) -> tuple[Route, ...]:
            start = seat * segment
            out: list[Route] = []
            passed: list[int] = []
            t = dep
            while k > 0:
                if t == start and not fresh:
                    if k <= 4:
                        out.append(route(HOME + k, passed))
                    if not may_pass:
                        return done(out)
                fresh = False
                t = t + 1 if t + 1 < ring else 0
                k -= 1
                if k == 0:
                    out.append(route(t, passed))
                else:
                    passed.append(t)
            return done(out)

        def back(seat: int, dep: int) -> BackRoute:
            start = seat * segment
            passed = [(dep - j) % ring for j in range(1, BACK_STEPS)]
            return ((dep - BACK_STEPS) % ring, *masks(passed), dep != start and start in passed)

        self.forward = tuple(
            tuple(
                tuple(
                    walk(seat, i if i < ring else seat * segment, i == ring, k)
                    for k in range(KING_STEPS + 1)
                )
                for i in range(ring + 1)
            )
            for seat in range(seats)
        )
        self.backward = tuple(
            tuple(back(seat, i if i < ring else seat * segment) for i in range(ring + 1))
            for seat in range(seats)
        )
        window = []
        for t in range(ring):
            m = 0
            for b in range(1, 13):
                m |= 1 << ((t - b) % ring)
            window.append(m)
        self.window = tuple(window)


@lru_cache(maxsize=32)
def paths(seats: int, segment: int, may_pass: bool) -> Paths:
    """The (shared, immutable) tables of one board shape."""
    return Paths(seats, segment, may_pass)
