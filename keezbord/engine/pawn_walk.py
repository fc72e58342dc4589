"""How far and which way a pawn went between two positions, and the reasons about it
``explain`` gives: a wrong step count, or a rule of the home (a pawn never leaves its
home; one comes home only forward through its own start hole, and not fresh from it)."""

from __future__ import annotations

from .position import FRESH, HOME, NEST, Position, location_hole
from .rule_text import RULE_TEXT, Reason, cap, card_words
from .text import Text
from .violations import FRESH_HOME


def forward_steps(pos: Position, seat: int, frm: int, to: int) -> int | None:
    """Steps forward along the seat's path from frm to to (through its start into its
    home), or None if ``to`` is not ahead of ``frm``."""
    topo = pos.topology
    start = topo.start(seat)
    f = start if frm == FRESH else frm
    t = start if to == FRESH else to
    if f > HOME:
        return t - f if t > f else None
    if t > HOME:
        return (start - f) % topo.ring + (t - HOME) + (topo.ring if frm == FRESH else 0)
    if f == NEST or t == NEST:
        return None
    return (t - f) % topo.ring or None


def backward_steps(pos: Position, frm: int, to: int, seat: int) -> int | None:
    topo = pos.topology
    f = topo.start(seat) if frm == FRESH else frm
    if not (0 <= f < HOME and 0 <= to < HOME):
        return None
    return (f - to) % topo.ring or None


def wrong_steps(card: str, want: int, got: int, holes: tuple[str, ...], backward: bool) -> Reason:
    nl_card, en_card = card_words(card)
    way_nl, way_en = ("achteruit", "backward") if backward else ("", "")
    return Reason(
        "wrong_steps",
        Text(
            " ".join(f"met {nl_card} gaat een pion precies {want} stappen {way_nl}".split())
            + f"; deze ging er {got}",
            " ".join(f"{cap(en_card)} moves a pawn exactly {want} steps {way_en}".split())
            + f"; this one went {got}",
        ),
        holes,
    )


def home_rule(
    pos: Position, card: str, movers: list[tuple[int, int, int]], holes: tuple[str, ...]
) -> Reason | None:
    """A pawn that left its home, or came home where going forward cannot have brought
    it: the rule broken, not a step count round a lap the pawn did not make."""
    topo = pos.topology
    for seat, frm, to in movers:
        if frm > HOME and to <= HOME:
            return Reason(
                "home_stays",
                Text(
                    "een pion in het thuishonk gaat er nooit meer uit",
                    "a pawn in its home never leaves it",
                ),
                holes,
            )
        if to <= HOME or card == "4":  # the 4 into a home: its own reason
            continue
        if frm == FRESH:
            return Reason(FRESH_HOME, Text(*RULE_TEXT[FRESH_HOME]), holes)
        start = topo.start(seat)
        if 0 <= frm < HOME and (frm - start) % topo.ring < (start - frm) % topo.ring:
            hole = location_hole(topo, seat, frm).name
            return Reason(
                "home_past_start",
                Text(
                    f"een pion gaat alleen vooruit het thuishonk in, via zijn eigen startplek "
                    f"T{start}: de pion van {hole} is daar al voorbij en moet eerst verder het "
                    "bord rond",
                    f"a pawn goes into its home only forward, through its own start hole "
                    f"T{start}: the pawn from {hole} has passed it and must first go on round "
                    "the board",
                ),
                (*holes, f"T{start}"),
            )
    return None
