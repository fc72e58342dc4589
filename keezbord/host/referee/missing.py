"""A pawn off the board: asked back once the board has missed it for ``missing_ms``
(unless it is in a hand: a pawn the tapped card can move or capture), and the flag
cleared once it is back."""

from __future__ import annotations

from dataclasses import replace

from . import reasons
from .lit import expected
from .recognize import hole_key, move_holes, references, repair
from .state import Decision, Effect, Flag, RefereeState
from .turns import resolved


def ask_back(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """The board has not been at rest for ``missing_ms``: a pawn is off the board. Holes
    whose pawn a legal move of the tapped card moves (or captures) are in a hand; any
    other empty hole the board should have a pawn on is asked back, once an episode."""
    state = replace(state, stage=1)
    if state.flagged and not state.missing:
        return state  # an illegal board or a penalty: its own guidance stands
    pos = state.pos
    exps = expected(state)
    in_play: set[str] = set()
    for exp in exps:
        in_play |= exp.departures.keys()
        if state.partial is not None:
            in_play |= exp.second_departures(state.partial).keys()
        for m in exp.legal:
            in_play |= move_holes(pos, m)
    fix = repair(pos.topology, state.sensed, references(pos, exps))
    gone = state.total - len(state.sensed)
    # Holes lifted this turn first (where the pawn came from), the latest first.
    holes = sorted(
        (h for h in fix.restore if hole_key(h) not in in_play),
        key=lambda h: -state.lifted.index(h) if h in state.lifted else 1,
    )[:gone]
    if not holes:
        return state
    missing = tuple(sorted(holes, key=fix.restore.index))
    flag = Flag(reasons.missing(missing), (), missing, tuple((None, h) for h in missing))
    if not state.missing:
        effects.append(
            Decision(t, "missing", {"seat": state.seat, "holes": list(missing)}, flag.reason)
        )
    return replace(state, flag=flag, missing=missing)


def put_back(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A missing pawn was put back: the flag clears once every pawn is on the board (or
    on the holes asked for); the board is then judged as usual."""
    left = tuple(h for h in state.missing if h not in state.sensed)
    if state.at_rest or not left:
        return replace(resolved(state, t, effects), missing=())
    if left == state.missing or state.flag is None:
        return state
    return replace(
        state,
        missing=left,
        flag=replace(
            state.flag,
            reason=reasons.missing(left),
            restore=left,
            pairs=tuple((None, h) for h in left),
        ),
    )
