"""What the board marks beside the LEDs (issue 13): the last move of each seat (from and
to, like lichess's last-move squares) and, in the middle of a 7 split, the steps left.
Pure functions of the referee's state, for page.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from keezbord.engine.movegen import apply_part, forward_landings, legal_moves
from keezbord.engine.notation import Move, Step, Swap
from keezbord.engine.position import NEST, Position, location_hole
from keezbord.host.referee import MoveRecord, RefereeState, board_of, board_sig


def _nest_hole(pos: Position, seat: int) -> str:
    """The nest hole a pawn leaves or reaches, as the drawing fills nests from slot 1."""
    k = sum(1 for loc in pos.pawns[seat] if loc == NEST)
    return location_hole(pos.topology, seat, NEST, max(1, k)).name


def move_marks(rec: MoveRecord) -> dict[str, Any]:
    """The holes a move left and reached (a pawn brought out leaves its nest)."""
    frm, to = from_to(rec.before, rec.move)
    return {"seat": rec.seat, "card": rec.card, "move": rec.text, "from": frm, "to": to}


def from_to(pos: Position, move: Move) -> tuple[list[str], list[str]]:
    """The holes ``move`` leaves and reaches from ``pos``, part by part."""
    frm: list[str] = []
    to: list[str] = []
    topo = pos.topology
    for part in move.parts:
        nxt = apply_part(pos, part)
        if isinstance(part, Swap):
            frm.append(f"T{part.a}")
            to.append(f"T{part.b}")
        elif isinstance(part, Step):
            if part.frm == NEST:
                frm.append(_nest_hole(pos, part.seat))
            else:
                frm.append(location_hole(topo, part.seat, part.frm).name)
            to.append(location_hole(topo, part.seat, part.to).name)
        pos = nxt
    return frm, to


def last_moves(history: Sequence[MoveRecord], seats: int) -> list[dict[str, Any]]:
    """Each seat's last move (oldest first; the last entry is the latest move), for the
    board's last-move marks. Walks back only until every seat is found."""
    found: dict[int, dict[str, Any]] = {}
    for n in range(len(history) - 1, -1, -1):
        rec = history[n]
        if rec.seat not in found:
            found[rec.seat] = {"n": n + 1, **move_marks(rec)}
            if len(found) == seats:
                break
    return sorted(found.values(), key=lambda m: int(m["n"]))


def seven_split(st: RefereeState) -> dict[str, Any] | None:
    """In the middle of a 7 split (the board as sensed is a legal first part): the steps
    left and the holes of the pawns that can take them."""
    if st.card != "7" or st.seat is None or st.flag is not None:
        return None
    pos = st.pos
    sensed = board_sig(st.sensed, pos.seats)
    if sensed == board_sig(board_of(pos), pos.seats):
        return None
    left: int | None = None
    sources: set[str] = set()
    for move in legal_moves(pos, "7", st.seat):
        cur, done = pos, 0
        for i, part in enumerate(move.parts[:-1]):
            if not isinstance(part, Step):
                break
            done += _steps(cur, part)
            cur = apply_part(cur, part)
            if board_sig(board_of(cur), pos.seats) != sensed:
                continue
            if left is None:
                left = 7 - done
            if 7 - done == left:
                nxt = move.parts[i + 1]
                if isinstance(nxt, Step):
                    sources.add(location_hole(cur.topology, nxt.seat, nxt.frm).name)
    if left is None:
        return None
    return {"left": left, "sources": sorted(sources)}


def _steps(pos: Position, step: Step) -> int:
    """How many steps a part of a 7 walks."""
    for k in range(1, 8):
        if any(dest == step.to for dest, _ in forward_landings(pos, step.seat, step.frm, k, True)):
            return k
    return 0
