"""The move on the board: the state's board read against the turn's card (or, without a
reader, every card), and what lifting a pawn does to that move.

Every handler that asks whether a move lies on the board asks here, so the board is read
one way: ``recognize.judge`` with the state's touch history and the colours the touches
carried (hands.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from keezbord.engine.notation import Move, Swap
from keezbord.engine.position import NEST, Position

from . import hands
from .lit import expected
from .recognize import (
    Expectation,
    Judgement,
    board_sig,
    colours,
    hole_key,
    judge,
    move_holes,
)
from .state import RefereeState

Verdict = Literal["close", "hold"] | None


def judge_sensed(state: RefereeState, exps: Sequence[Expectation]) -> Judgement:
    """The board as the state senses it, judged against ``exps``."""
    worlds = state.worlds
    return judge(
        state.pos,
        exps,
        state.sensed,
        state.touched,
        state.co_empty,
        state.amb_touched,
        state.lifted,
        (lambda m, a: any(hands.fits(w, state.pos, m, a) for w in worlds)) if worlds else None,
        state.config.counting,
    )


def move_on_board(
    state: RefereeState, exps: Sequence[Expectation] | None = None
) -> tuple[Move, Position] | None:
    """The one legal move the board shows, with the position it leads to."""
    if exps is None:
        exps = expected(state)
    if not exps:
        return None
    j = judge_sensed(state, exps)
    return j.moves[0] if j.outcome == "accepted" else None


def shown(state: RefereeState) -> tuple[Move, Position] | None:
    """The legal move the board showed at rest before its latest held lift (a pawn of
    that move lifted again: moved on, adjusted, or knocked)."""
    for pre, _ in reversed(state.held):
        move = move_on_board(pre)
        if move is not None:
            return move
    return None


def lift_verdict(state: RefereeState, hole: str) -> Verdict:
    """What lifting ``hole`` does to the move on the board. "close": the board at rest
    shows a legal move and the pawn cannot be part of it (not a pawn it moves, not one
    it can capture, not a 7's next pawn): the next player does not wait for the settle
    time or a 7's patience (issue 11, items 6-7). "hold": the pawn may be part of it;
    remembered so the next card can still close the move. None: no move on the board."""
    if (
        state.over
        or not state.at_rest
        or state.stage >= 2
        or hole not in state.sensed
        or state.second_card is not None
        or state.flagged
    ):
        return None
    exps = expected(state)
    move = move_on_board(state, exps)
    if move is None:
        return None
    return "hold" if hole_key(hole) in _belongs(state, move[0], exps) else "close"


def _belongs(state: RefereeState, move: Move, exps: Sequence[Expectation]) -> set[str]:
    """Hole keys of pawns that may still be part of the move on the board: those it
    moves or captures, a 7's next pawns (and their victims) and, with a card reader,
    every pawn of the mover the tapped card could move (a player changing their mind)."""
    pos = state.pos
    ctrl = pos.controlled_seat(pos.turn)
    seat_of = colours(pos)
    # Rested for the settle time already (only a 7's patience keeps it open): only a
    # 7's next pawn may still be part of it.
    rested = state.stage >= 1
    keys = set() if rested else set(move_holes(pos, move))
    for part in move.parts:
        if isinstance(part, Swap):
            # A swap on the board is whole: the other seat's pawn, now on the mover's
            # old hole, is its owner's to move next (the mover's own one may be adjusted).
            for hole, owner in ((f"T{part.b}", part.seat_a), (f"T{part.a}", part.seat_b)):
                if owner != ctrl:
                    keys.discard(hole)
    sig = board_sig(state.sensed, pos.seats)
    for exp in exps:
        if exp.card == "7":
            for key, tgts in exp.second_departures(sig).items():
                keys.add(key)
                keys.update(tg.hole for tg in tgts if tg.victim is not None)
        if state.config.reader and not rested:
            keys.update(k for k in exp.departures if seat_of.get(k) == ctrl or k == f"N{ctrl}")
    for part in move.parts:
        if not isinstance(part, Swap) and part.frm == NEST and not rested:
            keys.add(f"N{part.seat}")
    return keys
