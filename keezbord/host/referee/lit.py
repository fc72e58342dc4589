"""Moves chosen far away (issue 28): a remote seat's move, or the move the linked board
accepted, lit for the people at this table to carry out (``Lit``), and the table held
while such a move has not come (``Hold``). docs/referee.md, "Moves chosen far away".

A lit move is read like a tapped card whose only moves are those leading to the lit
move's position (``expected``): the same recognition, patience, flags and restore
guidance as any move, against that one move. Its LEDs (``roles``) stand in for the
hints: the part being carried out, in the move's order.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from keezbord.engine.describe import describe_move
from keezbord.engine.movegen import apply, apply_part
from keezbord.engine.notation import (
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Step,
    Swap,
    parse_move,
)
from keezbord.engine.position import Position
from keezbord.engine.text import Text

from . import reasons
from .recognize import (
    Expectation,
    board_sig,
    expectation,
    expectations,
    nest_seat,
    pos_sig,
    step_from,
    step_to,
    victim_of,
)
from .state import Decision, Effect, Hold, Lit, RefereeState

LIT_ALREADY = Text("er is deze beurt al een zet opgelicht", "a move is already lit for this turn")
OTHER_CARD = Text(
    "er is deze beurt al een andere kaart gespeeld", "another card was already played this turn"
)
NOT_LEGAL = Text("die zet kan niet met die kaart", "that move is not legal with that card")


def expected(state: RefereeState) -> list[Expectation]:
    """What the board is read against: the lit move (its card's moves that lead to its
    position: a 7's parts in either order), nothing while a hold stands, else the turn's
    card (without a reader, every card)."""
    if state.lit is not None:
        only = _only(state.pos, state.lit)
        return [] if only is None else [only]
    if state.hold is not None:
        return []
    return expectations(state.pos, state.card, state.config.reader)


@lru_cache(maxsize=4)
def _only(pos: Position, move: Move) -> Expectation | None:
    try:
        target = apply(pos, move.card, move)
    except (IllegalMoveError, InvalidMoveError, ValueError):
        return None
    only = expectation(pos, move.card).leading_to(target)
    return only if only.legal else None


def light(state: RefereeState, ev: Lit, t: int, effects: list[Effect]) -> RefereeState:
    """Light ``ev.move`` for the seat to play: its card taken as tapped (the checks of a
    tap: the deal's cards, a legal move), the board judged afresh against it."""
    pos = state.pos
    data = {"seat": state.seat, "move": ev.move}

    def refused(why: Text) -> RefereeState:
        effects.append(Decision(t, "lit", {**data, "ok": False}, why))
        return state

    if state.over:
        return refused(reasons.GAME_OVER)
    if state.lit is not None:
        return refused(LIT_ALREADY)
    try:
        move = parse_move(ev.move, pos.topology)
    except (InvalidMoveError, ValueError):
        return refused(NOT_LEGAL)
    if state.card is not None and state.card != move.card:
        return refused(OTHER_CARD)
    if state.card is None and sum(1 for c, _ in state.cards_played if c == move.card) >= pos.seats:
        return refused(reasons.rank_played(move.card, pos.seats))
    if _only(pos, move) is None:
        return refused(NOT_LEGAL)
    said = describe_move(pos, move)
    follow = Text(f"{said.nl}: volg de lampjes", f"{said.en}: follow the lights")
    effects.append(Decision(t, "lit", {**data, "move": str(move), "ok": True}, follow))
    played = state.cards_played
    if state.card is None:
        played = (*played, (move.card, None))
    return replace(
        state,
        lit=move,
        lit_part=0,
        card=move.card,
        cards_played=played,
        hint=(),
        since=t,
        stage=0,
        outcome="none",
    )


def hold(state: RefereeState, ev: Hold, t: int, effects: list[Effect]) -> RefereeState:
    """Hold the table (``ev.reason``) or let it go (None); the board judged afresh."""
    if ev.reason == state.hold:
        return state
    on = ev.reason is not None
    effects.append(Decision(t, "hold", {"seat": state.seat, "on": on}, ev.reason))
    return replace(state, hold=ev.reason, since=t, stage=0)


def card_refused(state: RefereeState) -> Text | None:
    """Why a card tapped at the table is refused now: the table is held."""
    return state.hold if state.lit is None and not state.over else None


def recorded(state: RefereeState, move: Move, after: Position) -> Move:
    """The move a turn records: the lit move as it was written when the board shows its
    position (a 7's parts in another order are the same move: both boards of a linked
    game record one notation), else the move read."""
    lit = state.lit
    if lit is None or move == lit:
        return move
    only = _only(state.pos, lit)
    if only is not None and only.moves and only.moves[0][1].pawns == after.pawns:
        return lit
    return move


def not_lit(state: RefereeState) -> Text | None:
    """The flag's reason while a move is lit (another move, or none, on the board)."""
    if state.lit is None:
        return state.hold
    said = describe_move(state.pos, state.lit)
    return Text(
        f"dat is niet de zet die oplicht: {said.nl}", f"that is not the lit move: {said.en}"
    )


def follow(state: RefereeState) -> RefereeState:
    """A lit 7's part being carried out: the second from the moment the board shows the
    first, the first again when the board is back as before the move."""
    lit = state.lit
    if lit is None or len(lit.parts) < 2:
        return state
    sig = board_sig(state.sensed, state.pos.seats)
    part = state.lit_part
    if sig == pos_sig(apply_part(state.pos, lit.parts[0])):
        part = 1
    elif sig == pos_sig(state.pos):
        part = 0
    return state if part == state.lit_part else replace(state, lit_part=part)


def roles(state: RefereeState) -> dict[str, str]:
    """The LEDs of the lit move's part being carried out: ``source`` on the pawn to lift,
    ``target`` where it goes (a victim standing there is lifted first), ``victim`` on a
    free hole of the victim's nest until it is there; a jack: both pawns ``source`` until
    both are in hand at once, then both holes ``target``."""
    lit = state.lit
    assert lit is not None
    pos = state.pos
    base = pos if state.lit_part == 0 else apply_part(pos, lit.parts[0])
    part = lit.parts[min(state.lit_part, len(lit.parts) - 1)]
    if isinstance(part, Swap):
        a, b = f"T{part.a}", f"T{part.b}"
        both = (min(a, b), max(a, b)) in state.co_empty
        return {a: "target" if both else "source", b: "target" if both else "source"}
    return _step_roles(state, base, part)


def _step_roles(state: RefereeState, base: Position, part: Step) -> dict[str, str]:
    topo = base.topology
    out: dict[str, str] = {}
    frm = step_from(topo, part)
    nests, home = board_sig(state.sensed, base.seats)[1], pos_sig(base)[1]
    if frm[0] != "N":
        out[frm] = "source"
    elif nests[part.seat] >= home[part.seat]:  # from the nest: one pawn, until lifted
        out[max(h for h in state.sensed if nest_seat(h) == part.seat)] = "source"
    out[step_to(topo, part)] = "target"
    victim = victim_of(base, part)
    if victim is not None and nests[victim] <= home[victim]:  # the victim is not home yet
        free = [f"N{victim}.{k}" for k in range(1, 5) if f"N{victim}.{k}" not in state.sensed]
        if free:
            out[free[0]] = "victim"
    return out
