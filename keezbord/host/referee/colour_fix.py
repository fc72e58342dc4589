"""Putting a flagged board right in colours (issue 40, item 1).

``recognize.repair`` pairs the holes that are wrong by presence alone: a pawn where the
reference has none goes to the nearest hole that lacks one. When the touches carried the
colours (hands.py: one world), that pairing may send a pawn to a hole
of another colour: a pawn captured by hand and carried home was blue, the pawn on the
hole it left is red, yet presence alone says "blue's pawn from its nest back on T10".
``board_fix`` checks the presence pairs against the colours and, when they would leave
a pawn on a hole of another colour, plans the way back pawn by pawn in colours
(arrange_plan.plan, the set-up mode's planner): the red pawn back to T10, then blue's
from its nest to T15. The same with pawns in hand (one world: their colours known), and
lit a step at a time (``_now``). Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from keezbord.engine.position import Position

from . import hands
from .arrange_plan import HAND, is_nest, landing, plan
from .recognize import Expectation, Repair, board_sig, nest_seat, pos_sig, references, repair
from .state import RefereeState, Sig, World

Pairs = tuple[tuple[str | None, str | None], ...]


def board_fix(
    state: RefereeState, exps: Sequence[Expectation], shown: Sig | None, undone: Sig | None
) -> Repair:
    """The flag's repair: the presence repair, in colours where the touches know them."""
    pos = state.pos
    topo = pos.topology
    fix = repair(topo, state.sensed, references(pos, exps, shown, undone))
    world = hands.certain(state.worlds)
    if world is None:
        return fix
    targets = _targets(state, exps, fix)
    if not targets or any(_leads_to(world, fix.pairs, p) for p in targets):
        if not world[2]:
            return fix
        pairs = fix.pairs  # right in colours: lit a step at a time all the same
    else:
        # The shortest way in colours, to the position before or to a board the presence
        # repair aimed at (a pawn of the wrong colour in a nest: back where it stood).
        # Also while pawns are in hand: presence alone would send a pawn lifted on the
        # way back to the hole it came from (a swap undone one pawn at a time never ends).
        plans = [p for p in (_pairs(world, t) for t in [state.pos, *targets]) if p]
        if not plans:
            return fix
        pairs = min(plans, key=len)
    now = _now(pairs, state.sensed, bool(world[2]))
    if not now:
        return fix
    error = tuple(dict.fromkeys(a for a, _ in now if a is not None))
    restore = tuple(dict.fromkeys(b for _, b in now if b is not None))
    return Repair(error, restore, pairs)


def _now(pairs: Pairs, sensed: frozenset[str], in_hand: bool) -> Pairs:
    """The plan's first pairs that can be done on the board as it is, in its order (the
    rest waits for them: lit at once, a pawn would be lifted before the hole it goes to
    is free, and one pawn lifted with another loses which is which). Pawns in hand go
    down first, nothing else lit until they are."""
    if in_hand:
        return tuple((a, b) for a, b in pairs if a is None and b is not None and b not in sensed)
    out = []
    for a, b in pairs:
        if a is None or a not in sensed or (b is not None and b in sensed):
            break
        out.append((a, b))
    return tuple(out)


def _targets(state: RefereeState, exps: Sequence[Expectation], fix: Repair) -> list[Position]:
    """The positions whose board the presence repair leads to (the position before
    first, then legal moves, then a 7's first parts)."""
    board = set(state.sensed)
    for a, b in fix.pairs:
        if a is not None:
            board.discard(a)
        if b is not None:
            board.add(b)
    sig = board_sig(board, state.pos.seats)
    out = [state.pos] if pos_sig(state.pos) == sig else []
    for exp in exps:
        out.extend(after for _, after in exp.fitting(sig))
        out.extend(first for first, _ in exp.firsts.get(sig, ()))
    return out


def _leads_to(world: World, pairs: Pairs, target: Position) -> bool:
    """Following ``pairs`` with the pawns of ``world`` shows ``target`` (a pawn put down
    from the hand: the one in hand; of two or more, taken as right)."""
    on = dict(world[0])
    hand = [seat for seat, _origin in world[2]]
    for a, b in pairs:
        if a is None:
            if len(hand) != 1:
                return True
            seat: int | None = hand.pop()
        else:
            seat = on.pop(a, None)
        if seat is None:
            return True
        if b is not None:
            on[b] = seat
    return hands.shows((frozenset(on.items()), frozenset(), ()), target)


def _pairs(world: World, target: Position) -> Pairs:
    """(from, to) for each pawn the colour plan moves, nest holes named."""
    on = dict(world[0])
    out: list[tuple[str | None, str | None]] = []
    frm: str | None
    for task in plan(world, target):
        if task.frm == HAND:
            frm = None  # a pawn in hand put down
        elif is_nest(task.frm):
            seat = int(task.frm[1:])
            frm = max(
                (h for h, s in on.items() if nest_seat(h) == seat and s == task.seat), default=None
            )
            if frm is None:
                return ()
        else:
            frm = task.frm
        if frm is not None:
            on.pop(frm, None)
        to = landing(task.to, on)
        if frm is None and to is None:
            return ()  # a pawn in hand to put off the board (its nest full): no hole to light
        if to is not None:
            on[to] = task.seat
        out.append((frm, to))
    return tuple(out)
