"""Judging a board at rest: at the settle time, again after the patience, and at once
when the next card is tapped or a hand shown (docs/referee.md, "How a move is
recognised"). What the board shows decides: the move (accepted), the position before or
a 7's first part (waiting), several moves (ambiguous), a move in progress (patience), or
a flag.

A board judged at the settle time may also be read as this turn's move ending at an
earlier held lift (held.py); the dispatch (step.py) asks that between ``look`` and
``conclude``.
"""

from __future__ import annotations

from dataclasses import replace

from . import flags, reasons
from .lit import expected
from .reading import judge_sensed
from .recognize import Judgement, board_sig
from .state import Decision, Effect, RefereeState
from .turns import accept, resolved


def look(
    state: RefereeState, t: int, effects: list[Effect], *, final: bool
) -> tuple[RefereeState, Judgement | None]:
    """The first half of judging the board at rest (``final``: the patience is over):
    a second card or a board put back is settled here (no judgement returned); else the
    board's judgement, to be concluded."""
    stage = 2 if final else 1
    if state.second_card is not None:
        return replace(state, stage=stage, outcome="illegal"), None  # until a card is undone
    put_back = flags.restored(state, t, effects)
    if put_back is not None:
        # (A swap whose knocked pawn was put back is taken: a new turn.)
        done = put_back.history is not state.history
        return (put_back if done else replace(put_back, stage=stage)), None
    if state.put_right:
        state = resolved(state, t, effects)
    pos = state.pos
    j = judge_sensed(state, expected(state))
    partial = board_sig(state.sensed, pos.seats) if j.outcome == "partial" else None
    return replace(state, stage=stage, partial=partial), j


def conclude(
    state: RefereeState, j: Judgement, t: int, effects: list[Effect], *, final: bool
) -> RefereeState:
    pos = state.pos
    if j.outcome == "accepted":
        move, after = j.moves[0]
        # Without a reader a 7's first part may also be a whole move of a smaller card:
        # give the player the patience to go on before taking the smaller card.
        if j.also_partial and state.card is None and not final:
            return replace(state, outcome="patient", partial=board_sig(state.sensed, pos.seats))
        return accept(state, move, after, t, effects)
    if j.outcome in ("ambiguous", "before", "partial"):
        state = replace(resolved(state, t, effects), held=())
    if j.outcome == "ambiguous":
        if state.ambiguous != j.moves:
            moves = [m.text(pos.topology) for m, _ in j.moves]
            effects.append(
                Decision(t, "ambiguous", {"seat": state.seat, "moves": moves}, reasons.WHICH_MOVE)
            )
        return replace(state, outcome="ambiguous", ambiguous=j.moves, flag=None)
    if j.outcome in ("before", "partial"):
        return replace(state, outcome=j.outcome, flag=None, ambiguous=())
    if j.outcome == "patient" and not final:
        return replace(state, outcome="patient")
    return flags.flag(state, t, effects)


def settle_pending(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """The next card or a shown hand: a move already on the board is taken at once, and
    a flagged board already put right is resolved at once (issue 11, item 5)."""
    if state.over or not state.at_rest or state.stage >= 2 or state.second_card is not None:
        return state
    put_back = flags.restored(state, t, effects)
    if put_back is not None:
        return put_back
    if state.put_right:
        state = resolved(state, t, effects)
    exps = expected(state)
    if not exps:
        return state
    j = judge_sensed(state, exps)
    if j.outcome == "accepted":
        return accept(state, *j.moves[0], t, effects)
    if j.outcome in ("before", "partial", "ambiguous") and not state.missing:
        return resolved(state, t, effects)
    return state
