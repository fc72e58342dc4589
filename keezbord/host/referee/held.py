"""Held lifts: the other readings of where the turn ended (docs/referee.md, "Held lifts"
and "Quick chains without a reader").

A lifted pawn that may be part of the move on the board is remembered with the state
before it (holes.py). The reading "the move was complete at that lift, and the hole
events since are the next turn's" is built by accepting the move there and feeding the
events since through the referee again: ``feed`` is the dispatch's own ``step``, passed
in by step.py (this module sits below it). A reading is taken when it needs no flag and
the evidence favours it: the board is wrong for this turn, the next turn's move is
complete while this one is merely in progress, or the held events are a whole move of
the next, other player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from keezbord.engine.notation import Move, Swap
from keezbord.host.events import CardTap, Discard, HoleEvent, Tick

from .lit import expected
from .reading import judge_sensed, lift_verdict, move_on_board
from .recognize import board_of
from .state import Decision, Effect, Input, RefereeState
from .turns import accept

Feed = Callable[[RefereeState, Input], tuple[RefereeState, list[Effect]]]
Reading = tuple[RefereeState, list[Effect]]

MAX_CHAIN = 2  # nested splits tried for one reading


def keep(state: RefereeState, event: CardTap | Discard) -> RefereeState:
    """A reading that ends the turn at an earlier held lift replays this input too."""
    if not state.held:
        return state
    return replace(state, held=tuple((pre, (*evs, event)) for pre, evs in state.held))


def better(
    state: RefereeState,
    t: int,
    feed: Feed,
    *,
    wrong: bool,
    in_progress: bool,
    lifted: str | None = None,
    depth: int = 0,
) -> Reading | None:
    """The first held reading (earliest split first) that needs no flag and beats the
    current one: the current board is ``wrong`` for this turn; or the next turn's move
    is complete too while this turn is ``in_progress``; or the held events are a whole
    move of the next, other player (on the board, or taken) - and, for a ``lifted``
    hole, that lift closes it too."""
    for alt, alt_effects in _alternatives(state, t, feed):
        if not _sound(alt, alt_effects):
            # A quick chain of three turns (a jack swap, the swap back by the next
            # player, a capture): the reading ends a turn at this split and again at
            # one of its own later splits. Kept until the evidence decides.
            sub = (
                better(alt, t, feed, wrong=True, in_progress=False, depth=depth + 1)
                if alt.held and depth < MAX_CHAIN
                else None
            )
            if sub is None:
                continue
            cut = min((e.t for e in sub[1]), default=t)
            alt, alt_effects = sub[0], [e for e in alt_effects if e.t < cut] + sub[1]
        n = len(state.history)
        split = alt.history[n] if len(alt.history) > n else None
        if split is None:
            continue
        took_next = len(alt.history) >= n + 2
        nxt = alt.history[n + 1].move if took_next else None
        if nxt is None and alt.at_rest:
            on_board = move_on_board(alt)
            nxt = on_board[0] if on_board is not None else None
        # While this turn's own reading holds, the other one must move a pawn this seat
        # does not play (a partner playing on with the same pawn is one move).
        other = nxt is not None and _moves_other_pawns(state, nxt)
        if lifted is not None:
            # (Not when the next turn would only carry on with this seat's pawns: a
            # pawn counted slowly into its home is one move, not a partner's second.)
            ok = (
                split.table_after.turn != state.seat
                and other
                and lift_verdict(alt, lifted) == "close"
            )
        else:
            ok = wrong or (
                split.table_after.turn != state.seat and ((in_progress and took_next) or other)
            )
        if ok:
            return alt, alt_effects
    return None


def _alternatives(state: RefereeState, t: int, feed: Feed) -> Iterator[Reading]:
    """The readings where the move on the board before a held lift was complete (the
    earliest lift first: the first end of the turn that fits; later ends are found by
    the replay itself): it is accepted at that lift, and the hole events since are
    replayed as the next turn's, up to ``t``."""
    for pre, evs in state.held:
        effects: list[Effect] = []
        move = move_on_board(pre)
        if move is None or not evs or _counted_on(pre, evs):
            continue
        alt = accept(pre, *move, evs[0].t, effects)
        alt = replace(alt, now=evs[0].t)
        for e in evs:
            alt, eff = feed(alt, e)
            effects += eff
        if t > alt.now or alt.pending is not None:
            alt, eff = feed(alt, Tick(max(t, alt.now)))
            effects += eff
        if state.flag is not None and pre.flag is None:  # (else the accept said it)
            effects.insert(0, Decision(evs[0].t, "resolved", {"seat": state.seat}))
        yield alt, effects


def _counted_on(pre: RefereeState, evs: tuple[Input, ...]) -> bool:
    """The pawn lifted stood on a track or home hole this turn's move filled, the board
    not yet rested for the settle time, and went down on another such hole before
    anything else happened: one hand counting it on (issue 22's game 621159: a 3 counted
    T45, T46, T47, T0, 56 ms on T47), no end of the move. The next player reaches for
    that pawn only to capture it (to its nest) or to swap it (another lift first); a
    seat carrying on with it is one move anyway (docs/referee.md, known limits)."""
    if len(evs) < 2 or evs[0].t - pre.since >= pre.config.settle_ms:
        return False
    lift, put = evs[0], evs[1]
    return (
        isinstance(lift, HoleEvent)
        and isinstance(put, HoleEvent)
        and put.action == "place"
        and put.hole != lift.hole
        and "N" not in (lift.hole[0], put.hole[0])
        and lift.hole not in board_of(pre.pos)
    )


def _moves_other_pawns(state: RefereeState, move: Move) -> bool:
    ctrl = state.pos.controlled_seat(state.pos.turn)
    for part in move.parts:
        seats = (part.seat_a, part.seat_b) if isinstance(part, Swap) else (part.seat,)
        if any(s != ctrl for s in seats):
            return True
    return False


def _sound(state: RefereeState, effects: list[Effect]) -> bool:
    """No flag (now or on the way), and a board at rest that is not wrong (judged as at
    a tap)."""
    if (
        state.flagged
        or state.second_card is not None
        or any(
            isinstance(e, Decision) and e.type in ("illegal", "missing", "ambiguous")
            for e in effects
        )
    ):
        return False
    if not state.at_rest or state.over:
        return True
    exps = expected(state)
    return judge_sensed(state, exps).outcome != "illegal"
