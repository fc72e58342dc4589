"""Small builders shared by the engine tests: positions from pawn lists, and the moves
and resulting pawn lists of a card, in the JSON/notation forms of FORMATS.md."""

from __future__ import annotations

from typing import Any

from keezbord.engine.movegen import successors
from keezbord.engine.position import Position

Rows = tuple[tuple[str, ...], ...]
NEST4 = ["N", "N", "N", "N"]
HOME4 = ["H1", "H2", "H3", "H4"]


def pos(*rows: list[str], **kw: Any) -> Position:
    """A position from one pawn list per seat (missing turn: 0, profile: standard)."""
    data: dict[str, Any] = {"seats": len(rows), "pawns": [list(r) for r in rows]}
    data.update(kw)
    return Position.from_dict(data)


def board(seats: int, placed: dict[int, list[str]], **kw: Any) -> Position:
    """``seats`` seats, every seat all in the nest except those given (padded with N)."""
    rows = [list(placed.get(s, [])) + ["N"] * (4 - len(placed.get(s, [])))
            for s in range(seats)]
    return pos(*rows, **kw)


def rows_of(p: Position) -> Rows:
    return tuple(tuple(r) for r in p.pawn_strings())


def results(p: Position, card: str) -> set[Rows]:
    """The pawn lists (canonical order) every legal move of the card leads to."""
    return {rows_of(after) for _, after in successors(p, card)}


def moves(p: Position, card: str) -> set[str]:
    """The notation of every legal move of the card."""
    return {m.text(p.topology) for m, _ in successors(p, card)}


def rows(seats: int, placed: dict[int, list[str]], **kw: Any) -> Rows:
    """Canonical pawn lists of a board built like ``board`` (for expected results)."""
    return rows_of(board(seats, placed, **kw))


def row(p: Position, seat: int) -> tuple[str, ...]:
    return tuple(p.pawn_strings()[seat])
