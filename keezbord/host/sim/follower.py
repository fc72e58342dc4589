"""The set-up front end of the simulated person who follows the lights (led_person.py,
issue 26): one whole instruction of the set-up mode, with a person's pace and mistakes.

This person sees the board as a person does, colours and all (``board``: hole -> seat,
the pawns that are really there; ``beside``: pawns next to the board), and reads only
the LED frame (hole -> role, FORMATS.md) and the instruction line (``Told``: its kind
and the colour it names). They never look at the referee's state. What each lit role
asks is read once, by led_person.py's ``asked`` (the same reading as the live loop's
``next_touch``); ``respond`` returns the hole events of carrying out one instruction,
with a person's timing, and updates what stands where. Mistakes are drawn at the rates
of ``Mistakes``: a pawn of another colour taken (from another nest: a hole not lit), a
pawn put on a hole next to the lit one, a second pawn picked up with the first (two in
hand: the switches cannot tell which went where), two pawns put down exchanged.

What the instruction line adds to the lights, one instruction at a time:

- ``move``: of the pawns to lift (``source``, or ``error``) the one of the colour named
  when several are lit (a nest), else the one off the board; the victims go first; then
  the pawn goes on a lit ``target`` hole, or, with none lit, in the nest of its colour.
- ``swap``: lift both lit ``source`` pawns and put each where the other stood.
- ``ask``: lift the lit pawn of the colour named and put it back.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from keezbord.host.events import HoleEvent
from keezbord.host.referee import nest_seat

from .led_person import Asked, asked

Kind = Literal["move", "swap", "ask", "done", "none"]


@dataclass(frozen=True, slots=True)
class Told:
    """What the instruction line says, as the person reads it: what to do and the
    colour it names (None: no colour named)."""

    kind: Kind
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Mistakes:
    """How often (0 to 1, per instruction) the person gets it wrong."""

    wrong_colour: float = 0.0  # takes a pawn of another colour (from another nest)
    wrong_hole: float = 0.0  # puts it on a free hole next to the lit one
    two_at_once: float = 0.0  # picks up a second pawn with the first, puts it back
    exchange: float = 0.0  # lifts two pawns of different colours, puts them down swapped


@dataclass(frozen=True, slots=True)
class Pace:
    """A person's timing in ms: reading the instruction, reaching for a pawn, carrying
    it, and how often a switch bounces as a magnet passes."""

    read: tuple[int, int] = (800, 2000)
    reach: tuple[int, int] = (200, 600)
    carry: tuple[int, int] = (300, 1200)
    bounce: float = 0.1


@dataclass
class LedFollower:
    board: dict[str, int]  # what really stands where (the person sees colours)
    rng: random.Random
    ring: int = 64  # track holes (T0 .. T<ring-1>): where "next to a hole" is
    mistakes: Mistakes = field(default_factory=Mistakes)
    pace: Pace = field(default_factory=Pace)
    beside: list[int] = field(default_factory=list)  # pawns next to the board, by colour
    made: list[str] = field(default_factory=list)  # the mistakes made, in order

    def __post_init__(self) -> None:
        self._events: list[HoleEvent] = []
        self._t = 0
        self._hand: list[int] = []

    # -- one instruction ----------------------------------------------------------------

    def respond(self, frame: Mapping[str, str], told: Told, t: int) -> list[HoleEvent]:
        """The hole events of carrying out ``told`` as ``frame`` lights it, from ``t``."""
        self._events, self._t = [], t
        self._wait(self.pace.read)
        a = asked(frame, self.board)
        if told.kind == "move":
            self._move(a, told.seat)
        elif told.kind == "swap":
            self._swap(list(a.lift))
        elif told.kind == "ask":
            self._answer(a, told.seat)
        return self._events

    def _move(self, a: Asked, seat: int | None) -> None:
        lit = sorted(a.lift + a.errors)
        mk = self.mistakes
        if mk.exchange and self.rng.random() < mk.exchange and self._exchange():
            return  # (the instruction is done afresh once the board has asked)
        src = self._pick(lit, seat)
        if mk.wrong_colour and self.rng.random() < mk.wrong_colour:
            src = self._other_colour(seat, src) or src
        pawn = self._take(src)
        if pawn is None:
            return
        second = None
        if mk.two_at_once and self.rng.random() < mk.two_at_once:
            second = self._second(src, pawn)
        for h in [h for h in a.victims if h in self.board]:  # (a second pawn may be lifted)
            self._victim(h, a.nests)  # a capture: the victim goes first, to its lit nest hole
        free = sorted(h for h in a.to + a.victims if h not in self.board)
        to: str | None
        if free:
            to = self.rng.choice(free)
            if mk.wrong_hole and self.rng.random() < mk.wrong_hole:
                to = self._beside(to, second[0] if second else None) or to
        else:
            to = self._nest_hole(pawn)
        if second is not None and self.rng.random() < 0.5:
            self._put(second[0], second[1])
            second = None
        if to is None:
            self.beside.append(pawn)  # off the board
            self._hand.remove(pawn)
        else:
            self._put(to, pawn)
        if second is not None:
            self._put(second[0], second[1])

    def _answer(self, a: Asked, seat: int | None) -> None:
        mine = [h for h in a.lift if self.board[h] == seat]
        if not mine:
            return
        h = mine[0]
        pawn = self._take(h)
        assert pawn is not None
        self._put(h, pawn)

    def _swap(self, holes: list[str]) -> None:
        if len(holes) != 2:
            return
        a, b = holes
        pa, pb = self._take(a), self._take(b)
        assert pa is not None and pb is not None
        self._put(a, pb)
        self._put(b, pa)

    # -- choosing pawns and holes -------------------------------------------------------

    def _pick(self, lit: list[str], seat: int | None) -> str | None:
        """The lit pawn of the colour named, else any lit one; None: one beside the
        board (or, in hand already, that one)."""
        if self._hand:
            return None
        right = [h for h in lit if seat is None or self.board[h] == seat]
        if right:
            return self.rng.choice(right)
        if seat is not None and seat in self.beside:
            return None
        if lit:
            return self.rng.choice(lit)
        return None

    def _other_colour(self, seat: int | None, src: str | None) -> str | None:
        """A pawn of another colour, from a nest: the person reached for the wrong one."""
        want = seat if seat is not None else (self.board.get(src) if src else None)
        if want is None:
            return None
        others = sorted(h for h, s in self.board.items() if h[0] == "N" and s != want)
        if not others:
            return None
        self.made.append("wrong_colour")
        return self.rng.choice(others)

    def _second(self, src: str | None, pawn: int) -> tuple[str, int] | None:
        """A second pawn of another colour lifted with the first (a neighbour's)."""
        near = sorted(h for h, s in self.board.items() if h != src and s != pawn)
        if not near:
            return None
        h = self.rng.choice(near)
        p = self._take(h)
        assert p is not None
        self.made.append("two_at_once")
        return h, p

    def _exchange(self) -> bool:
        """Two pawns of different colours on track holes lifted and put down swapped."""
        track = sorted(h for h in self.board if h[0] == "T")
        pairs = [(a, b) for a in track for b in track if a < b and self.board[a] != self.board[b]]
        if not pairs:
            return False
        a, b = self.rng.choice(pairs)
        self.made.append("exchange")
        self._swap([a, b])
        return True

    def _beside(self, hole: str, keep: str | None = None) -> str | None:
        """A free track hole next to ``hole`` (not ``keep``, where a pawn in hand goes
        back): a miscount."""
        if hole[0] != "T":
            return None
        i = int(hole[1:])
        for j in (i + 1, i - 1):
            h = f"T{j % self.ring}"
            if h not in self.board and h != keep:
                self.made.append("wrong_hole")
                return h
        return None

    def _nest_hole(self, seat: int) -> str | None:
        free = [f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in self.board]
        return free[0] if free else None

    def _victim(self, hole: str, nests: tuple[str, ...]) -> None:
        pawn = self._take(hole)
        assert pawn is not None
        nest = [h for h in nests if nest_seat(h) == pawn and h not in self.board]
        to = nest[0] if nest else self._nest_hole(pawn)
        if to is not None:
            self._put(to, pawn)

    # -- the hands ------------------------------------------------------------------------

    def _take(self, hole: str | None) -> int | None:
        """Lift the pawn on ``hole`` (None: the one in hand, else one beside the board)."""
        if hole is None:
            if self._hand:
                return self._hand[-1]
            if not self.beside:
                return None
            pawn = self.beside.pop(0)
            self._hand.append(pawn)
            return pawn
        self._wait(self.pace.reach)
        pawn = self.board.pop(hole)
        self._event("lift", hole)
        if self.rng.random() < self.pace.bounce:  # the switch bounces as the magnet leaves
            self._t += 1
            self._event("place", hole)
            self._t += 1
            self._event("lift", hole)
        self._hand.append(pawn)
        return pawn

    def _put(self, hole: str, pawn: int) -> None:
        self._wait(self.pace.carry)
        self._hand.remove(pawn)
        self.board[hole] = pawn
        self._event("place", hole)

    def _wait(self, span: tuple[int, int]) -> None:
        self._t += self.rng.randint(*span)

    def _event(self, action: Literal["lift", "place"], hole: str) -> None:
        self._events.append(HoleEvent(self._t, action, hole))


def told_of(view: Mapping[str, object] | None) -> Told:
    """The instruction line of the set-up mode (``setup_view``), as the person reads it."""
    if view is None:
        return Told("none")
    kind = view.get("kind")
    seat = view.get("seat")
    if kind not in ("move", "ask", "swap", "done"):
        return Told("none")
    return Told(kind, seat if isinstance(seat, int) else None)
