"""Moves in words, Dutch and English, for move lists a person reads."""

from __future__ import annotations

from .movegen import apply_part
from .notation import Move, Step
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST, Position, loc_str
from .text import Text, card_name
from .topology import SEAT_COLOURS


def colour(seat: int) -> Text:
    c = SEAT_COLOURS[seat]
    return Text(c.nl, c.en)


def _where(pos: Position, seat: int, loc: int) -> Text:
    if loc == NEST:
        return Text("het startvak", "the nest")
    if loc == FRESH:
        start = pos.topology.start(seat)
        return Text(f"T{start} (start)", f"T{start} (start)")
    if loc > HOME:
        return Text(f"thuis H{loc - HOME}", f"home H{loc - HOME}")
    return Text(loc_str(loc), loc_str(loc))


def describe_move(pos: Position, move: Move) -> Text:
    """E.g. "rood zet een pion op" / "red brings a pawn out"; captures named."""
    nl: list[str] = []
    en: list[str] = []
    cur = pos
    for part in move.parts:
        if isinstance(part, Step):
            who = colour(part.seat)
            if part.frm == NEST:
                nl.append(f"{who.nl} zet een pion op")
                en.append(f"{who.en} brings a pawn out")
            else:
                a, b = _where(cur, part.seat, part.frm), _where(cur, part.seat, part.to)
                nl.append(f"{who.nl} {a.nl} → {b.nl}")
                en.append(f"{who.en} {a.en} → {b.en}")
            dest = cur.topology.start(part.seat) if part.to == FRESH else part.to
            occ = cur.at(dest) if 0 <= dest < HOME else EMPTY
            if occ != EMPTY:
                dep = cur.topology.start(part.seat) if part.frm == FRESH else part.frm
                if dest != dep:
                    v = colour(occ % BLOCKADE)
                    nl[-1] += f", slaat {v.nl} eraf"
                    en[-1] += f", sending {v.en} back to the nest"
        else:
            a, b = colour(part.seat_a), colour(part.seat_b)
            nl.append(f"{a.nl} T{part.a} ⇄ {b.nl} T{part.b}")
            en.append(f"{a.en} T{part.a} ⇄ {b.en} T{part.b}")
        cur = apply_part(cur, part)
    card = card_name(move.card)
    return Text(
        f"{card.nl.capitalize()}: " + "; ".join(nl), f"{card.en.capitalize()}: " + "; ".join(en)
    )
