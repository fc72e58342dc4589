"""What a move is about, as a teacher files it: the themes of a puzzle (puzzles.py) and of
a lesson (issue 26). Read from the move and the position before it."""

from __future__ import annotations

from typing import Final, Literal

from .movegen import apply_part
from .notation import Move, Step, Swap
from .position import BLOCKADE, EMPTY, FRESH, HOME, Position
from .text import Text

Theme = Literal["capture", "seven_split", "jack", "home_entry", "partner", "blockade"]
THEMES: Final[dict[str, Text]] = {
    "capture": Text("slaan", "capture"),
    "seven_split": Text("de 7 splitsen", "7 split"),
    "jack": Text("de boer", "jack"),
    "home_entry": Text("naar huis", "home entry"),
    "partner": Text("samenspel met je partner", "partner"),
    "blockade": Text("blokkade", "blockade"),
}


def themes_of(pos: Position, move: Move) -> tuple[str, ...]:
    """What a move is about, as a teacher would file it (THEMES)."""
    me = pos.turn
    team = pos.team_of(me)
    topo = pos.topology
    ring = topo.ring
    out: list[str] = []
    if move.card == "J":
        out.append("jack")
    if move.card == "7" and len(move.parts) > 1:
        out.append("seven_split")
    cur = pos
    for part in move.parts:
        if isinstance(part, Swap):
            if {part.seat_a, part.seat_b} <= set(team) and len(team) > 1:
                out.append("partner")
            cur = apply_part(cur, part)
            continue
        assert isinstance(part, Step)
        if part.seat != me and part.seat in team:
            out.append("partner")
        if part.to > HOME and part.frm < HOME:
            out.append("home_entry")
        dest = topo.start(part.seat) if part.to == FRESH else part.to
        dep = topo.start(part.seat) if part.frm == FRESH else part.frm
        if 0 <= dest < HOME and dest != dep:
            occ = cur.at(dest)
            if occ != EMPTY and occ % BLOCKADE not in team:
                out.append("capture")
        others = frozenset(range(pos.seats)) - set(team)
        if part.to == FRESH and _behind(cur, dest, ring, others):
            out.append("blockade")  # a new blockade in an opponent's way
        if part.frm == FRESH and _behind(cur, dep, ring, frozenset(team)):
            out.append("blockade")  # lifts its own blockade from its own team's way
        cur = apply_part(cur, part)
    return tuple(t for t in THEMES if t in out)


def _behind(pos: Position, hole: int, ring: int, seats: frozenset[int]) -> bool:
    """A pawn of one of ``seats`` 1 to 13 holes behind ``hole`` (a blockade there stands
    in its way)."""
    for back in range(1, 14):
        occ = pos.at((hole - back) % ring)
        if occ != EMPTY and occ % BLOCKADE in seats:
            return True
    return False
