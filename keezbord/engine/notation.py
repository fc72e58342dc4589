"""Moves as immutable values, and their notation (FORMATS.md, "Move notation").

``K 0:N-S``, ``7 0:T5-T8 2:T40-T44``, ``J 0:T5<>1:T30``, ``4 0:S-T60``. Captures are not
written: they follow from the position. ``str(move)`` is the notation; ``parse_move`` reads
it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import UnknownCardError, parse_card
from .position import InvalidPositionError, loc_str, parse_loc
from .topology import Topology


class InvalidMoveError(ValueError):
    """Move text that is not well-formed notation (python-chess style: distinct from an
    IllegalMoveError, a well-formed move the rules do not allow)."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""


@dataclass(frozen=True, slots=True)
class Step:
    """One pawn of ``seat`` going from ``frm`` to ``to`` (position location codes)."""

    seat: int
    frm: int
    to: int

    def __str__(self) -> str:
        return f"{self.seat}:{loc_str(self.frm)}-{loc_str(self.to)}"

    def text(self, _topo: object = None) -> str:
        """The notation, as ``str(step)`` (see ``Move.text``)."""
        return str(self)


@dataclass(frozen=True, slots=True, eq=False)
class Swap:
    """A jack: the pawn of ``seat_a`` on track hole ``a`` trades places with the pawn of
    ``seat_b`` on ``b``. Either pawn may be written first (FORMATS.md fixes no order): the
    two orders are the same swap, equal and of one hash; the engine writes the mover's
    pawn first."""

    seat_a: int
    a: int
    seat_b: int
    b: int

    def _pawns(self) -> frozenset[tuple[int, int]]:
        return frozenset(((self.seat_a, self.a), (self.seat_b, self.b)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Swap):
            return NotImplemented
        return self._pawns() == other._pawns()

    def __hash__(self) -> int:
        return hash(self._pawns())

    def __str__(self) -> str:
        return f"{self.seat_a}:T{self.a}<>{self.seat_b}:T{self.b}"

    def text(self, _topo: object = None) -> str:
        """The notation, as ``str(swap)`` (see ``Move.text``)."""
        return str(self)


Part = Step | Swap


@dataclass(frozen=True, slots=True)
class Move:
    card: str
    parts: tuple[Part, ...]

    def __str__(self) -> str:
        return " ".join([self.card, *map(str, self.parts)])

    def text(self, _topo: object = None) -> str:
        """The notation, as ``str(move)``. The notation does not depend on the board; the
        ignored argument only keeps calls written before ``str(move)`` working (the
        referee's ``move.text(pos.topology)``) and goes once they are gone."""
        return str(self)


# fullmatch and [0-9]: "$" lets a trailing newline through, "\d" other scripts' digits.
_STEP_RE = re.compile(r"([0-7]):([A-Z0-9]+)-([A-Z0-9]+)")
_SWAP_RE = re.compile(r"([0-7]):T(0|[1-9][0-9]*)<>([0-7]):T(0|[1-9][0-9]*)")


def parse_move(text: str, topo: Topology) -> Move:
    """Parse move notation; raises InvalidMoveError naming what is malformed."""
    if not isinstance(text, str) or not text.split():
        raise InvalidMoveError("empty move")
    card_text, *part_texts = text.split()
    try:
        card = parse_card(card_text)
    except UnknownCardError as e:
        raise InvalidMoveError(str(e)) from None
    if not part_texts:
        raise InvalidMoveError(f"move {text!r} has a card but no parts")
    parts: list[Part] = []
    for pt in part_texts:
        parts.append(_parse_part(pt, topo))
    return Move(card, tuple(parts))


def _parse_part(pt: str, topo: Topology) -> Part:
    m = _SWAP_RE.fullmatch(pt)
    try:
        if m:
            sa, a, sb, b = int(m[1]), int(m[2]), int(m[3]), int(m[4])
            for seat, idx in ((sa, a), (sb, b)):
                _check_seat(seat, topo, pt)
                parse_loc(topo, seat, f"T{idx}")
            return Swap(sa, a, sb, b)
        m = _STEP_RE.fullmatch(pt)
        if m:
            seat = int(m[1])
            _check_seat(seat, topo, pt)
            return Step(seat, parse_loc(topo, seat, m[2]), parse_loc(topo, seat, m[3]))
    except InvalidPositionError as e:
        raise InvalidMoveError(f"in {pt!r}: {e}") from None
    raise InvalidMoveError(
        f"not a move part: {pt!r} (expected <seat>:<from>-<to> or <seat>:T<i><><seat>:T<j>)"
    )


def _check_seat(seat: int, topo: Topology, pt: str) -> None:
    if seat >= topo.seats:
        raise InvalidMoveError(f"in {pt!r}: there is no seat {seat} on a {topo.seats}-seat board")
