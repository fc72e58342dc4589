"""Flags: a board at rest that no legal move explains, why (in words a player
understands), how to put it right (restore pairs, LEDs), and what a board put back is.

A flag's guidance refers to the nearest of the position before the move, a legal move's
board (a knocked pawn goes back while the move stays) and a 7's legal first parts
(recognize.references). The colours the touches carried (hands.py) tell a board put back
from a jack swap whose knocked pawn was put back (issue 22).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from keezbord.engine.explain import explain
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.engine.text import Text

from . import hands, reasons
from .colour_fix import board_fix
from .lit import expected, not_lit
from .reading import judge_sensed, shown
from .recognize import (
    board_sig,
    colours,
    guess_after,
    judge,
    move_holes,
    nest_seat,
    pos_sig,
)
from .state import Decision, Effect, Flag, RefereeState, World
from .turns import accept, resolved

Pairs = Sequence[tuple[str | None, str | None]]


def flag(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """Flag the board (an ``illegal`` decision, once an episode); while the flag stands
    its error and restore holes follow the board."""
    exps = expected(state)
    old = state.flag
    undone = state.undone if state.restoring else None
    if old is not None and old.far != not_lit(state):
        old = None  # the hold that flagged it is over, or a move is lit: why now
    if old is not None:  # the same episode: the LEDs follow the board
        fix = board_fix(state, exps, old.shown, undone)
        new = replace(old, error=fix.error, restore=fix.restore, pairs=fix.pairs)
        return replace(state, outcome="illegal", ambiguous=(), flag=new)
    before = shown(state)
    ref = pos_sig(before[1]) if before is not None else None
    fix = board_fix(state, exps, ref, undone)
    state = replace(state, outcome="illegal", ambiguous=(), undone=undone)
    reason = _reason(state, fix.pairs, before)
    holes = fix.error + tuple(h for h in fix.restore if h not in fix.error)
    data = {"seat": state.seat, "holes": list(holes), "restore": [[a, b] for a, b in fix.pairs]}
    effects.append(Decision(t, "illegal", data, reason))
    new = Flag(reason, fix.error, fix.restore, fix.pairs, ref, not_lit(state))
    return replace(state, flag=new, restoring=True, multi_hand=False)


def restored(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState | None:
    """A flagged (or undone) board put back to the position before the move, as the
    switches see it. The restore clears what the flagged attempt touched, so lifting and
    putting back is never read as a jack swap (issue 11, item 3). The colours the
    touches carried decide what it is (issue 22, misreading 1): a jack swap whose
    knocked pawn was put back is the swap, taken; where pawns were put down with two or
    more in hand, a swap and a restore look the same: the referee asks instead of
    guessing (lights the holes, names which pawn goes where) and takes the board as put
    back; a swap meant is made again. None when this is not such a board."""
    if not state.restoring or state.missing or not state.at_rest:
        return None
    pos = state.pos
    sig = board_sig(state.sensed, pos.seats)
    if sig != pos_sig(pos):
        return None
    exps = expected(state)
    worlds = state.worlds
    world = hands.certain(worlds)
    before = any(hands.shows(w, pos) for w in worlds)
    if worlds and not before:
        # The touches say the pawns do not stand as before: a legal move with these
        # colours stands (a jack swap whose knocked pawn was put back).
        if world is not None:
            for exp in exps:
                for m, after in exp.fitting(sig):
                    if any(hands.fits(w, pos, m, after) for w in worlds):
                        return accept(state, m, after, t, effects)
        elif judge_sensed(state, exps).outcome in ("accepted", "ambiguous"):
            return None  # judged as any board: the move, or which of the moves it is
    state = resolved(state, t, effects)
    asked: tuple[str, ...] = ()
    if worlds and (world is None or not before):
        # Which pawn is where is unknown (or wrong): ask, naming the pawns' holes.
        holes = hands.disputed((*worlds, *hands.start(pos, state.sensed)))
        moves = [
            m
            for exp in exps
            for m, after in exp.fitting(sig)
            if any(hands.shows(w, after) for w in worlds)
        ]
        asked = _ask(state, t, effects, moves, holes)
    elif not worlds and state.multi_hand:
        # The colours were lost on the way: a legal move that fits is asked about.
        j = judge(pos, exps, state.sensed, state.touched, state.co_empty)
        if j.outcome in ("accepted", "ambiguous"):
            moves = [m for m, _ in j.moves]
            holes = frozenset().union(*(move_holes(pos, m) for m in moves))
            asked = _ask(state, t, effects, moves, holes)
    taken = hands.start(pos, state.sensed)  # taken as put back
    return _fresh(state, bounce=None, worlds=taken, outcome="before", ask=asked)


def restore_point(state: RefereeState) -> RefereeState:
    """A flagged (or undone, or penalised) board put back exactly, as the touches tell
    (one pawn in hand at a time): what follows is a new attempt, not part of the flagged
    one (issue 22, misreading 3). The flag's "resolved" waits for the settle time or the
    next card, as for any board put right."""
    world = hands.certain(state.worlds)
    if state.missing or world is None or not hands.shows(world, state.pos):
        return state
    worlds = hands.rebase(state.worlds)  # the turn starts again from here
    return _fresh(state, ask=(), put_right=state.flag is not None, worlds=worlds)


def _fresh(state: RefereeState, **more: Any) -> RefereeState:
    """What the flagged attempt touched forgotten: the board put back starts afresh."""
    return replace(
        state,
        touched=frozenset(),
        lifted=(),
        co_empty=frozenset(),
        restoring=False,
        multi_hand=False,
        ambiguous=(),
        amb_touched=frozenset(),
        partial=None,
        **more,
    )


def _ask(
    state: RefereeState, t: int, effects: list[Effect], moves: list[Move], holes: frozenset[str]
) -> tuple[str, ...]:
    """Ask whether the pawns were swapped or put back: the holes lit, the colours named."""
    pos = state.pos
    order = sorted(holes, key=lambda h: int(h[1:]) if h[0] == "T" else -1)
    seat_of = colours(pos)
    reason = reasons.swapped_or_put_back([(seat_of[h], h) for h in order], bool(moves))
    data = {"seat": state.seat, "moves": [m.text(pos.topology) for m in moves], "holes": order}
    effects.append(Decision(t, "ambiguous", data, reason))
    return tuple(order)


def _reason(state: RefereeState, pairs: Pairs, before: tuple[Move, Position] | None) -> Text:
    far = not_lit(state)  # a lit move, or the table held
    if far is not None:
        return far
    world = hands.certain(state.worlds)
    knocked = _knocked(world, pairs, before, state.pos) if world and before else None
    if knocked is not None:
        return knocked
    pawns = world[0] if world is not None else ()
    astray = next(((s, n) for h, s in pawns if (n := nest_seat(h)) not in (None, s)), None)
    if astray is not None:
        return reasons.wrong_nest(*astray)
    after = guess_after(state.pos, state.sensed, hands.owners(world) if world else None)
    if state.card is None:
        taken = _not_part_of_last(state, after)
        if taken is not None:
            return taken
        return reasons.TAP_CARD_FIRST if state.config.reader else reasons.NO_CARD_FITS
    if after is None:
        return reasons.NOT_ONE_MOVE
    why = explain(state.pos, state.card, after)
    return reasons.NOT_ONE_MOVE if why is None else why.text


def _knocked(
    world: World, pairs: Pairs, before: tuple[Move, Position], pos: Position
) -> Text | None:
    """A legal move lay on the board at rest (``before``), then a pawn of it was lifted
    (a held lift) and the board went wrong: if putting it right along the restore pairs
    gives that move's position in the colours the touches carried, the pawn was knocked
    and the move counts. Says so, naming each pawn by its colour (issue 22,
    misreading 1)."""
    moves = [(a, b) for a, b in pairs if a is not None and b is not None]
    if not moves or len(moves) != len(pairs):
        return None
    carried = dict(world[0])
    for a, b in moves:
        if a not in carried:
            return None
        carried[b] = carried.pop(a)
    if not hands.shows((frozenset(carried.items()), frozenset(), ()), before[1]):
        return None
    seat_of = dict(world[0])
    back = [(seat_of[a], a, b) for a, b in moves]
    return reasons.knocked(before[0].text(pos.topology), back)


def _not_part_of_last(state: RefereeState, after: Position | None) -> Text | None:
    """No card yet, and only pawns of the seat that just moved were moved: that move was
    taken (often at once, by the next player's lift) and these pawns are not part of it
    (issue 22, misreading 4)."""
    if not state.history or after is None or state.history[-1].after is not state.pos:
        return None
    last = state.history[-1]
    pos = state.pos
    mover = last.before.controlled_seat(last.seat)
    moved = [s for s in range(pos.seats) if after.pawns[s] != pos.pawns[s]]
    if moved != [mover] or mover == pos.controlled_seat(pos.turn):
        return None
    n = sum((Counter(pos.pawns[mover]) - Counter(after.pawns[mover])).values())
    return reasons.not_part_of(last.text, n)
