"""Small builders shared by the engine tests: positions from pawn lists, and the moves
and resulting pawn lists of a card, in the JSON/notation forms of FORMATS.md."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from keezbord.engine.movegen import successors
from keezbord.engine.position import InvalidPositionError, Position

Rows = tuple[tuple[str, ...], ...]
# The example position of FORMATS.md; its text form is TEXT_EXAMPLE.
EXAMPLE: dict[str, Any] = {
    "seats": 4,
    "profile": "standard",
    "turn": 0,
    "pawns": [
        ["S", "T20", "N", "N"],
        ["T33", "N", "N", "N"],
        ["H4", "H3", "T60", "N"],
        ["N", "N", "N", "N"],
    ],
}
TEXT_EXAMPLE = "NNST20/NNNT33/NT60H3H4/NNNN 0 standard"
NEST4 = ["N", "N", "N", "N"]
HOME4 = ["H1", "H2", "H3", "H4"]


def pos(*rows: list[str], **kw: Any) -> Position:
    """A position from one pawn list per seat (missing turn: 0, profile: standard)."""
    data: dict[str, Any] = {"seats": len(rows), "pawns": [list(r) for r in rows]}
    data.update(kw)
    return Position.from_dict(data)


def board(seats: int, placed: dict[int, list[str]], **kw: Any) -> Position:
    """``seats`` seats, every seat all in the nest except those given (padded with N)."""
    rows = [list(placed.get(s, [])) + ["N"] * (4 - len(placed.get(s, []))) for s in range(seats)]
    return pos(*rows, **kw)


def rows_of(p: Position) -> Rows:
    return tuple(tuple(r) for r in p.pawn_strings())


def results(p: Position, card: str) -> set[Rows]:
    """The pawn lists (canonical order) every legal move of the card leads to."""
    return {rows_of(after) for _, after in successors(p, card)}


def moves(p: Position, card: str) -> set[str]:
    """The notation of every legal move of the card."""
    return {str(m) for m, _ in successors(p, card)}


def rows(seats: int, placed: dict[int, list[str]], **kw: Any) -> Rows:
    """Canonical pawn lists of a board built like ``board`` (for expected results)."""
    return rows_of(board(seats, placed, **kw))


def row(p: Position, seat: int) -> tuple[str, ...]:
    return tuple(p.pawn_strings()[seat])


PROFILE_NAMES = ["standard", "keezspel", "wikipedia", "reiseditie", "nk", "bordspel"]
# (seats, profile, seed): one game of each profile, seat counts from 2 to 8 (the games
# the undo and the referee are checked on, game by game).
PROFILE_GAMES = [
    (4, "standard", 1),
    (6, "keezspel", 2),
    (2, "nk", 3),
    (3, "reiseditie", 4),
    (8, "bordspel", 5),
    (4, "wikipedia", 6),
]


def random_position(
    rng: random.Random, seats: int | None = None, profile: str | None = None
) -> dict[str, Any]:
    """Crowded positions with pawns near starts, fresh pawns, homes and whole teams home
    (seat count and profile random unless given)."""
    seats = rng.randint(2, 8) if seats is None else seats
    ring = seats * 16
    used: set[int] = set()
    pawns = []
    for s in range(seats):
        row: list[str] = []
        slots = rng.sample([1, 2, 3, 4], 4)
        all_home = rng.random() < 0.15
        for _ in range(4):
            r = 0.9 if all_home else rng.random()
            if r < 0.25:
                row.append("N")
            elif r < 0.72:
                while True:
                    t = rng.choice(
                        [
                            rng.randrange(ring),
                            s * 16,
                            (s * 16 - rng.randint(1, 6)) % ring,
                            ((s + 1) * 16) % ring,
                            (s * 16 + rng.randint(1, 4)) % ring,
                        ]
                    )
                    if t not in used:
                        break
                used.add(t)
                row.append("S" if t == s * 16 and rng.random() < 0.5 else f"T{t}")
            else:
                row.append(f"H{slots.pop()}")
        pawns.append(row)
    teams = rng.choice([None, None, "none"])
    d: dict[str, Any] = {
        "seats": seats,
        "profile": rng.choice(PROFILE_NAMES) if profile is None else profile,
        "turn": rng.randrange(seats),
        "pawns": pawns,
    }
    if teams:
        d["teams"] = teams
    return d


def random_positions(n: int, seed: int) -> list[Position]:
    """``n`` valid positions of ``random_position`` (the invalid ones drawn are passed over)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        with contextlib.suppress(InvalidPositionError):
            out.append(Position.from_dict(random_position(rng)))
    return out
