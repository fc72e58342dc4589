"""The simulated table puts a board back to a position (after an undo), as a person would:
one pawn in hand at a time, lifted from where the position has none and put where it
has one. Only which holes are occupied is fixed here; the colours follow from the
position (PawnTracker.recolour), as they do after every accepted move.
Pure: no time, no I/O.
"""

from __future__ import annotations

from typing import Literal, Protocol

from keezbord.engine.position import NEST, Position
from keezbord.host.events import HoleEvent
from keezbord.host.referee import RefereeState, certain, colours, nest_seat
from keezbord.host.sim import agree
from keezbord.host.sim.pawns import PawnTracker


def put_back(pos: Position, sensed: frozenset[str]) -> list[tuple[Literal["lift", "place"], str]]:
    """The (action, hole) steps that turn the sensed board into ``pos``'s: first a place
    for each pawn already in hand (a turn cut off mid-move), then pairs of a lift and a
    place, so no two pawns are ever in hand (two in hand would read as a possible swap).
    Nest pawns may stand in any hole of their nest."""
    expected = colours(pos)  # track and home holes -> seat
    lifts = sorted(h for h in sensed if nest_seat(h) is None and h not in expected)
    places = sorted(h for h in expected if h not in sensed)
    for seat, locs in enumerate(pos.pawns):
        want = sum(1 for loc in locs if loc == NEST)
        holes = [f"N{seat}.{k}" for k in range(1, 5)]
        have = [h for h in holes if h in sensed]
        if len(have) > want:
            lifts += have[want:]
        else:
            places += [h for h in holes if h not in sensed][: want - len(have)]
    in_hand = max(0, len(places) - len(lifts))
    steps: list[tuple[Literal["lift", "place"], str]] = [("place", h) for h in places[:in_hand]]
    for frm, to in zip(lifts, places[in_hand:], strict=False):
        steps += [("lift", frm), ("place", to)]
    return steps


class TableHost(Protocol):
    """What putting the board back needs of the running game (the web hub)."""

    pawns: PawnTracker

    @property
    def referee_state(self) -> RefereeState: ...

    def feed(self, event: HoleEvent) -> object: ...

    def now(self) -> int: ...

    def changed(self) -> None: ...

    def track(self, ev: HoleEvent, seat_hint: int | None = None) -> None: ...


def put_back_on(host: TableHost) -> None:
    """After an undo in the simulator, or a bot's turn cut off mid-move: the table puts
    the pawns back itself (no flag, the bots play on), each lift and place through the
    referee like a hand's; the colours then follow the position."""
    st = host.referee_state
    for action, hole in put_back(st.pos, st.sensed):
        ev = HoleEvent(host.now(), action, hole)
        host.track(ev)
        host.feed(ev)
    st = host.referee_state
    host.pawns.recolour(st.pos, st.sensed)
    host.changed()


def put_drawn_back(host: TableHost) -> None:
    """The simulator's "put the board right" (and its take-backs): the drawn pawns
    (``host.pawns``, the person's board) turned into the position, colours and all,
    each lift and place through the referee like a hand's (sim/agree.py's steps: one
    pawn at a time when the referee follows the colours, else all at once)."""
    st = host.referee_state
    drawn = host.pawns.pawn_seat
    world = certain(st.worlds)
    known = {h: s for h, s in drawn.items() if s is not None}
    together = world is None or bool(world[2]) or dict(world[0]) != known
    # Pawns drawn right that the referee reads in another colour are read afresh.
    misread = () if world is None else {h for h, s in world[0] if known.get(h) != s}
    steps = agree.put_right(st.pos, drawn, host.pawns.held, together, misread)
    for action, hole, seat in steps:
        ev = HoleEvent(host.now(), "lift" if action == "lift" else "place", hole)
        host.track(ev, seat)
        host.feed(ev)
    host.changed()
