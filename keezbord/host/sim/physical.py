"""Render an engine move as the hole events a person's hands make on the board.

People lift and place in any order, bounce a reed switch, slide a pawn over empty holes,
count a move hole by hole, pause, carry a captured pawn to its nest before or after the
capturing pawn lands, and swap jack pawns holding both at once. The referee must read all
of it as the one move intended. Times are milliseconds; the renderer never rests longer
than ``max_rest`` on a hole that is not the move's end (default: under the settle time).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from keezbord.engine.movegen import apply_part
from keezbord.engine.notation import Move, Step, Swap
from keezbord.engine.position import NEST, Position, location_hole
from keezbord.host.events import Event, HoleEvent
from keezbord.host.referee import board_of, path_holes, victim_of


class _Hands:
    """Accumulates events with a clock, tracking the physical board."""

    def __init__(self, board: frozenset[str], rng: random.Random, t0: int, max_rest: int) -> None:
        self.board = set(board)
        self.rng = rng
        self.t = t0
        self.max_rest = max_rest
        self.events: list[Event] = []

    def wait(self, lo: int, hi: int) -> None:
        self.t += self.rng.randint(lo, hi)

    def lift(self, hole: str) -> None:
        self.wait(20, 250)
        self._ev("lift", hole)
        if self.rng.random() < 0.15:  # the switch bounces as the magnet leaves
            self.t += 1
            self._ev("place", hole)
            self.t += 1
            self._ev("lift", hole)

    def place(self, hole: str) -> None:
        self.wait(30, 300)
        self._ev("place", hole)
        if self.rng.random() < 0.15:
            self.t += 1
            self._ev("lift", hole)
            self.t += 1
            self._ev("place", hole)

    def travel(self, path: Iterable[str]) -> None:
        """Carry a lifted pawn along ``path``: through the air, slid over the holes
        (brief closes), or counted hole by hole (short rests)."""
        style = self.rng.random()
        if style < 0.5:
            return
        for hole in path:
            if hole in self.board:
                continue  # slid or counted over a pawn: no switch changes
            if style < 0.75:  # slid: the switch closes for a moment
                self.t += self.rng.randint(2, 15)
                self._ev("place", hole)
                self.t += self.rng.randint(1, 5)
                self._ev("lift", hole)
            else:  # counted: rests on each hole
                self.t += self.rng.randint(20, 80)
                self._ev("place", hole)
                self.t += self.rng.randint(20, self.max_rest)
                self._ev("lift", hole)

    def _ev(self, action: str, hole: str) -> None:
        if action == "lift":
            self.board.discard(hole)
            self.events.append(HoleEvent(self.t, "lift", hole))
        else:
            self.board.add(hole)
            self.events.append(HoleEvent(self.t, "place", hole))

    def free_nest(self, seat: int) -> str:
        free = [f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in self.board]
        return self.rng.choice(free)


def events_for_move(
    before: Position,
    move: Move,
    after: Position,
    rng: random.Random,
    t0: int,
    board: frozenset[str] | None = None,
    *,
    max_rest: int = 150,
) -> list[Event]:
    """The hole events of ``move`` played from ``before`` (``after`` is where it leads:
    used to check the rendering). ``board`` is the physical board (default: nest pawns
    in the lowest nest holes)."""
    hands = _Hands(board_of(before) if board is None else board, rng, t0, max_rest)
    cur = before
    for i, part in enumerate(move.parts):
        if i:
            hands.wait(100, 1500)  # thinking between the parts of a 7
        if isinstance(part, Swap):
            a, b = f"T{part.a}", f"T{part.b}"
            first, second = rng.sample([a, b], 2)
            hands.lift(first)
            hands.lift(second)
            # Both pawns in hand; put each where the other stood, in either order.
            for h in rng.sample([a, b], 2):
                hands.place(h)
        else:
            _render_step(hands, cur, move.card, part)
        cur = apply_part(cur, part)
    if cur.pawns != after.pawns:
        raise ValueError("the move does not lead to the given position")
    return hands.events


def _render_step(hands: _Hands, base: Position, card: str, step: Step) -> None:
    topo = base.topology
    rng = hands.rng
    if step.frm == NEST:
        nests = sorted(h for h in hands.board if h.startswith(f"N{step.seat}."))
        src = rng.choice(nests)
    else:
        src = location_hole(topo, step.seat, step.frm).name
    dst = location_hole(topo, step.seat, step.to).name
    victim = victim_of(base, step)
    path = path_holes(base, card, step)
    if victim is None:
        hands.lift(src)
        hands.travel(path)
        hands.place(dst)
        return
    order = rng.randrange(3)
    if order == 0:  # victim home first, then the move
        hands.lift(dst)
        hands.place(hands.free_nest(victim))
        hands.lift(src)
        hands.travel(path)
        hands.place(dst)
    elif order == 1:  # lift the mover, take the victim off, land, then carry it home
        hands.lift(src)
        hands.travel(path)
        hands.lift(dst)
        hands.place(dst)
        hands.place(hands.free_nest(victim))
    else:  # victim in one hand, mover in the other
        hands.lift(dst)
        hands.lift(src)
        hands.place(dst)
        hands.place(hands.free_nest(victim))


def apply_events(board: frozenset[str], events: Iterable[Event]) -> frozenset[str]:
    """The board after some hole events."""
    out = set(board)
    for ev in events:
        if isinstance(ev, HoleEvent):
            if ev.action == "lift":
                out.discard(ev.hole)
            else:
                out.add(ev.hole)
    return frozenset(out)
