"""A reed switch opened or closed: what is sensed, the touch history of the turn (holes
lifted or filled, which were empty at once, the order of the lifts), bounces, the held
lifts a move on the board may still use, and the colours the touches carried.

Board events only change what is sensed and when; the board is judged once it has
rested (judgement.py). Whether a lift closes or may be part of the move on the board is
decided before (``reading.lift_verdict``, in step.py, which first lets a held reading
win) and passed in.
"""

from __future__ import annotations

from dataclasses import replace

from keezbord.host.events import HoleEvent

from . import hands
from .flags import restore_point
from .lit import expected
from .reading import Verdict, judge_sensed
from .state import BOUNCE_MS, MAX_HELD, Input, RefereeState


def hole(state: RefereeState, ev: HoleEvent, t: int, verdict: Verdict) -> RefereeState:
    h = ev.hole
    bounce = None
    bounced = False
    worlds = state.worlds
    multi = state.multi_hand
    ask = state.ask
    held = state.held
    since, stage = t, 0
    if ev.action == "lift":
        if verdict == "close":
            # Closes the move on the board unless the switch bounces back at once.
            state = replace(state, pending=(state, h, t))
        elif verdict == "hold" and t - state.since >= BOUNCE_MS:
            # (A pawn slid over a hole is lifted again at once: no hand let go of it.)
            if held and _one_pawn_path(held[-1][1], h):
                # The same pawn counted on from the last split's hole to this one: one
                # hand still moving it (another seat playing on with the same pawn is
                # read as one move anyway, docs/referee.md known limits). The later
                # split supersedes it, so counting never crowds out real ends.
                held = held[:-1]
            held = (*held, (replace(state, held=()), ()))
            if len(held) > MAX_HELD:  # keep the earliest and the latest splits
                held = held[: MAX_HELD // 2] + held[MAX_HELD // 2 + 1 :]
        sensed = state.sensed - {h}
        touched = state.touched | {h}
        pairs = {(min(h, x), max(h, x)) for x in touched if x != h and x not in sensed}
        co_empty = state.co_empty | pairs if pairs else state.co_empty
        lifted = state.lifted if h in state.lifted else (*state.lifted, h)
        if h in state.sensed:
            added = frozenset(pairs) - state.co_empty
            bounce = (h, t, added, state.since, state.stage, worlds, state.lifted)
            worlds = hands.lift(worlds, h)
        if h in ask:
            ask = ()
    else:
        sensed = state.sensed | {h}
        touched = state.touched | {h}
        co_empty = state.co_empty
        b = state.bounce
        if b is not None and b[0] == h and t - b[1] < min(BOUNCE_MS, state.config.settle_ms):
            # The switch bounced (nothing happened between): the same pawn never left,
            # so its hole was never empty together with another (issue 11, item 4).
            # (Nor was it lifted: the order of the lifts stays as it was.)
            co_empty = co_empty - b[2]
            since, stage, worlds, lifted = b[3], b[4], b[5], b[6]
            bounced = True
        else:
            lifted = state.lifted
            if h not in state.sensed:
                worlds = hands.place(worlds, h)
                if state.total - len(state.sensed) >= 2:
                    multi = True  # placed with two or more in hand: which one is unknown
    amb = state.amb_touched | {h} if state.ambiguous and ev.action == "lift" else state.amb_touched
    if held:
        held = tuple((pre, (*evs, ev)) for pre, evs in held)
    state = replace(
        state,
        sensed=sensed,
        touched=touched,
        co_empty=co_empty,
        lifted=lifted,
        since=since,
        stage=stage,
        amb_touched=amb,
        bounce=bounce,
        worlds=worlds,
        multi_hand=multi,
        ask=ask,
        held=held,
    )
    if ev.action == "place" and state.at_rest and not bounced:
        state = restore_point(state) if state.restoring else _read_colours(state)
    return state


def _read_colours(state: RefereeState) -> RefereeState:
    """All pawns down after two or more were in hand: the referee's reading of the board
    (a legal move, or the position before) says which pawn went where."""
    if len(state.worlds) < 2:
        return state
    j = judge_sensed(state, expected(state))
    readings = [a for _, a in j.moves] if j.outcome in ("accepted", "ambiguous") else []
    if j.outcome == "before":
        readings = [state.pos]
    worlds = hands.narrow(state.worlds, readings)
    return replace(state, worlds=worlds) if worlds else state


def _one_pawn_path(evs: tuple[Input, ...], hole: str) -> bool:
    """``evs`` are one pawn lifted and put down hole after hole, ending on ``hole``."""
    if not evs:
        return False
    at: str | None = None
    for i, e in enumerate(evs):
        if not isinstance(e, HoleEvent) or e.action != ("lift" if i % 2 == 0 else "place"):
            return False
        if i % 2 == 0 and i > 0 and e.hole != at:
            return False
        at = e.hole
    return len(evs) % 2 == 0 and at == hole
