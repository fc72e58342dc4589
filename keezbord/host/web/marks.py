"""What the board marks beside the LEDs (issue 13): the last move of each seat (from and
to, like lichess's last-move squares), in the middle of a 7 split the steps left, and
the pawns put down that the referee is still checking (issue 25 item 9). Pure functions
of the referee's state, for page.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from keezbord.engine.movegen import apply_part, forward_landings, legal_moves
from keezbord.engine.notation import Move, Step, Swap
from keezbord.engine.position import NEST, Position, location_hole
from keezbord.host.referee import (
    MoveRecord,
    RefereeState,
    board_of,
    board_sig,
    colours,
    nest_seat,
    pos_sig,
)


def _nest_hole(pos: Position, seat: int) -> str:
    """The nest hole a pawn leaves or reaches, as the drawing fills nests from slot 1."""
    k = sum(1 for loc in pos.pawns[seat] if loc == NEST)
    return location_hole(pos.topology, seat, NEST, max(1, k)).name


def move_marks(rec: MoveRecord) -> dict[str, Any]:
    """The holes a move left and reached (a pawn brought out leaves its nest), and the
    seat of the pawn that reached each (``pawns``)."""
    frm, to, pawns = from_to(rec.before, rec.move)
    return {
        "seat": rec.seat,
        "card": rec.card,
        "move": rec.text,
        "from": frm,
        "to": to,
        "pawns": pawns,
    }


def from_to(pos: Position, move: Move) -> tuple[list[str], list[str], list[int]]:
    """The holes ``move`` leaves and reaches from ``pos``, part by part, and the seat of
    the pawn that reaches each."""
    frm: list[str] = []
    to: list[str] = []
    pawns: list[int] = []
    topo = pos.topology
    for part in move.parts:
        nxt = apply_part(pos, part)
        if isinstance(part, Swap):
            frm.append(f"T{part.a}")
            to.append(f"T{part.b}")
            pawns.append(colours(pos).get(f"T{part.a}", part.seat_a))
        elif isinstance(part, Step):
            if part.frm == NEST:
                frm.append(_nest_hole(pos, part.seat))
            else:
                frm.append(location_hole(topo, part.seat, part.frm).name)
            to.append(location_hole(topo, part.seat, part.to).name)
            pawns.append(part.seat)
        pos = nxt
    return frm, to, pawns


def last_moves(
    history: Sequence[MoveRecord], seats: int, sensed: frozenset[str] | None = None
) -> list[dict[str, Any]]:
    """Each seat's last move (oldest first; the last entry is the latest move), for the
    board's last-move marks. Walks back only until every seat is found. A move whose pawn
    is no longer where it went (captured since, or moved on) is not marked: its marks
    pointed at another seat's pawn. With ``sensed``, a pawn that left a nest is marked at
    an empty hole of that nest (its pawns sit in any hole: slot 4 was marked occupied)."""
    found: dict[int, dict[str, Any]] = {}
    now = colours(history[-1].after) if history else {}
    for n in range(len(history) - 1, -1, -1):
        rec = history[n]
        if rec.seat not in found:
            found[rec.seat] = {"n": n + 1, **move_marks(rec)}
            if len(found) == seats:
                break
    out = []
    for m in sorted(found.values(), key=lambda m: int(m["n"])):
        if any(now.get(h) != s for h, s in zip(m["to"], m["pawns"], strict=True)):
            continue
        if sensed is not None:
            m["from"] = [_emptied(h, sensed) for h in m["from"]]
        out.append(m)
    return out


def _emptied(hole: str, sensed: frozenset[str]) -> str:
    """The hole to mark as left: ``hole``, or for an occupied nest hole an empty one of
    the same nest."""
    seat = nest_seat(hole)
    if seat is None or hole not in sensed:
        return hole
    empty = [f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in sensed]
    return empty[0] if empty else hole


def settling(st: RefereeState) -> list[str]:
    """The holes where pawns were put down that the referee has not yet accepted as a
    move (it waits for the board to settle, about 0.5 s): the board at rest, a card in
    play, no flag, and the board not the position's (nor a 7's first part)."""
    if st.card is None or st.seat is None or st.flag is not None or st.ambiguous:
        return []
    if not st.at_rest or board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos):
        return []
    expected = colours(st.pos)
    holes = {h for h in st.sensed if nest_seat(h) is None and h not in expected}
    holes |= {h for h in st.touched if h in st.sensed and nest_seat(h) is not None}
    return sorted(holes)


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
