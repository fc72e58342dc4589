"""The referee as a pure state machine: ``step(state, event) -> (state, effects)``.

This module dispatches each input to its handler and keeps the state's timers; the
handlers live in modules named for what they hold:

- holes.py: a switch opened or closed (touch history, bounces, held lifts, colours);
- judgement.py: a board at rest judged; flags.py: flags, their reasons and restores;
  missing.py: a pawn off the board asked back;
- reading.py: the move on the board and what a lift does to it; held.py: the readings
  where the turn ended at an earlier held lift (they feed events through ``step`` again);
- cards.py: card taps and card discipline, hints; turns.py: moves accepted, discards,
  the turn passed on; rulings.py: undo, penalties, overruling, the time limit;
- lit.py: a move chosen far away lit for the table, the table held meanwhile.

Board events only change what is sensed and when; a board is judged once it has rested
(every pawn on a hole) for the settle time, again after the longer patience if it looked
like a move in progress, and at once when the next card is tapped or a hand discarded.
Timers are not threads: every event (a ``Tick`` when nothing else happens) first fires
the deadlines that have passed, at their own times.
"""

from __future__ import annotations

from dataclasses import replace

from keezbord.engine.deal import Table
from keezbord.engine.position import Position
from keezbord.engine.topology import TopologyError
from keezbord.host.events import (
    CardTap,
    Discard,
    HoleEvent,
    Penalty,
    SwitchRead,
    Tick,
    TimeLimit,
)

from . import arrange, cards, hands, held, holes, judgement, lit, missing, reasons, rulings, turns
from .leds import frame
from .reading import lift_verdict, move_on_board
from .recognize import board_of
from .state import (
    BOUNCE_MS,
    Advice,
    Config,
    Decision,
    Effect,
    Hold,
    Input,
    Leds,
    Lit,
    Overrule,
    RefereeState,
    Undo,
)
from .trace import Setup


def begin(setup: Setup, t: int = 0) -> tuple[RefereeState, list[Effect]]:
    """The referee for a trace's (or a journalled game's) setup line."""
    return new_game(
        setup.position,
        setup.dealer,
        setup.config,
        turn=setup.turn,
        board=setup.board,
        t=t,
        arrange=setup.arrange,
        believed=setup.believed,
        cards_left=setup.cards_left,
    )


def new_game(
    pos: Position,
    dealer: int,
    config: Config | None = None,
    *,
    turn: int | None = None,
    board: frozenset[str] | None = None,
    t: int = 0,
    arrange: bool = False,
    believed: Position | None = None,
    cards_left: tuple[int, ...] | None = None,
) -> tuple[RefereeState, list[Effect]]:
    """The referee at the first deal (or mid-game from ``pos``). ``board`` is what the
    switches show (default: the position's own board). ``arrange``: the game begins in
    the set-up mode (arrange.py), the board believed to show ``believed`` (None: only the
    nests' colours are known; the default board is then the start, every pawn in its
    nest). ``cards_left``: the cards each seat holds (a game set up mid-round; default
    the first round's size)."""
    table = Table.first(pos.seats, dealer)
    if turn is not None:
        table = replace(table, turn=turn)
    if cards_left is not None:
        table = replace(table, cards_left=cards_left)
    assert table.turn is not None
    if arrange:
        return _arranging_game(pos, table, config or Config(), board, t, believed)
    sensed = board if board is not None else board_of(pos)
    state = RefereeState(
        config or Config(),
        pos.replace(turn=table.turn),
        table,
        sensed,
        4 * pos.seats,
        now=t,
        since=t,
        worlds=hands.start(pos, sensed),
    )
    effects: list[Effect] = [turns.opening_decision(t, table, pos)]
    state, leds = _with_frame(state, t)
    return state, effects + leds


def _arranging_game(
    pos: Position,
    table: Table,
    config: Config,
    board: frozenset[str] | None,
    t: int,
    believed: Position | None,
) -> tuple[RefereeState, list[Effect]]:
    """A game that begins in the set-up mode."""
    if board is None:
        topo = pos.topology
        shown = believed or Position.start(pos.seats, segment=topo.segment, teams=pos.teams)
        board = board_of(shown)
    arr = arrange.begin(pos.replace(turn=table.turn), board, believed)
    state = RefereeState(
        config, pos.replace(turn=table.turn), table, board, 4 * pos.seats, now=t, since=t
    )
    effects = arrange.opening(arr, t)
    if arrange.done(arr):
        state = _arranged(replace(state, arranging=arr), t, effects)
    else:
        state = replace(state, arranging=arr)
    state, leds = _with_frame(state, t)
    return state, effects + leds


def _arrange_step(state: RefereeState, event: Input, t: int) -> tuple[RefereeState, list[Effect]]:
    """An input while the board is being set up: switches feed the set-up mode; a card,
    a hand shown or a move lit from far away waits for the board; a hold is kept for
    when the game begins; nothing else happens yet."""
    arr = state.arranging
    assert arr is not None
    effects: list[Effect] = []
    if isinstance(event, HoleEvent | SwitchRead):
        arr, effects = arrange.step(arr, event, t)
    elif isinstance(event, Hold):
        state = lit.hold(state, event, t, effects)
    elif isinstance(event, Lit):
        data = {"seat": state.seat, "move": event.move, "ok": False}
        effects.append(Decision(t, "lit", data, reasons.SET_UP_FIRST))
    elif isinstance(event, CardTap):
        ident = {"card": event.card, **({"tag": event.tag} if event.tag is not None else {})}
        effects.append(Decision(t, "card_rejected", ident, reasons.SET_UP_FIRST))
    elif isinstance(event, Discard):
        effects.append(Decision(t, "discard", {"seat": None, "ok": False}, reasons.SET_UP_FIRST))
    state = replace(state, now=t, since=t, arranging=arr, sensed=arr.sensed)
    if arrange.done(arr):
        state = _arranged(state, t, effects)
    state, leds = _with_frame(state, t)
    return state, effects + leds


def _arranged(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """The board shows the position, every colour known: the game begins."""
    effects.append(turns.opening_decision(t, state.table, state.pos))
    return replace(
        state,
        arranging=None,
        worlds=hands.start(state.pos, state.sensed),
        since=t,
        stage=0,
        outcome="none",
    )


def step(state: RefereeState, event: Input) -> tuple[RefereeState, list[Effect]]:
    """Feed one event; returns the new state and what to show (decisions, LED frames)."""
    effects: list[Effect] = []
    t = max(event.t, state.now)
    if isinstance(event, HoleEvent) and not _on_board(state, event.hole):
        event = Tick(event.t)  # a switch the board does not have: noise, as time passing
    if state.arranging is not None:
        return _arrange_step(state, event, t)
    if state.pending is not None:
        state = _pending_lift(state, event, effects)
    state = _fire_timers(state, t, effects)
    state = replace(state, now=t)
    if isinstance(event, HoleEvent):
        state = _hole(state, event, t, effects)
    elif isinstance(event, CardTap) and lit.card_refused(state) is not None:
        data = {"card": event.card, "seat": state.seat}
        effects.append(Decision(t, "card_rejected", data, lit.card_refused(state)))
    elif isinstance(event, CardTap):
        card = cards.admit(state, event, t, effects)
        if card is not None:
            state = cards.tap(_next_player(state, t, effects), event, card, t, effects)
        state = held.keep(state, event)
    elif isinstance(event, Discard):
        if not state.over:
            state = _next_player(state, t, effects)
        state = held.keep(turns.discard(state, event, t, effects), event)
    elif isinstance(event, Undo):
        state = rulings.undo(state, t, effects)
    elif isinstance(event, Penalty):
        before = state.pos
        state = rulings.penalty(state, event, t, effects)
        if state.pos is not before:  # the lit move was for the position before
            state = replace(state, lit=None, lit_part=0)
    elif isinstance(event, Lit):
        state = lit.light(state, event, t, effects)
    elif isinstance(event, Hold):
        state = lit.hold(state, event, t, effects)
    elif isinstance(event, TimeLimit):
        state = rulings.time_limit(state, t, effects)
    elif isinstance(event, Overrule):
        state = rulings.overrule(state, event, t, effects)
    elif isinstance(event, Advice):
        state = cards.advice(state, event, t, effects)
    elif isinstance(event, SwitchRead):
        changed = state.sensed ^ event.holes
        state = replace(
            state,
            sensed=event.holes,
            touched=state.touched | changed,
            since=t,
            stage=0,
            worlds=state.worlds if not changed else hands.start(state.pos, event.holes),
        )
    else:
        assert isinstance(event, Tick)
    if state.missing:
        state = missing.put_back(state, t, effects)
    state, leds = _with_frame(lit.follow(state), t)
    return state, effects + leds


def deadline(state: RefereeState) -> int | None:
    """When the board will next be judged (or a missing pawn asked back, or a lift that
    closes a move taken as no bounce) if nothing happens."""
    if state.arranging is not None:
        return None  # the set-up mode keeps no timers
    if state.pending is not None:
        return state.pending[2] + BOUNCE_MS
    return _deadline(state)


def _deadline(state: RefereeState) -> int | None:
    if state.over:
        return None
    if not state.at_rest:
        if state.stage == 0 and state.config.missing_ms > 0:
            return state.since + state.config.missing_ms
        return None
    if state.stage == 0:
        return state.since + state.config.settle_ms
    if state.stage == 1 and state.outcome == "patient":
        return state.since + state.config.patience_ms
    return None


def _fire_timers(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    while True:
        due = _deadline(state)
        if due is None or due > t:
            return state
        state = replace(state, now=due)
        if state.at_rest:
            state = _judge(state, due, effects, final=state.stage >= 1)
        else:
            state = missing.ask_back(state, due, effects)
        state, leds = _with_frame(state, due)
        effects.extend(leds)


def _judge(state: RefereeState, t: int, effects: list[Effect], *, final: bool) -> RefereeState:
    """Judge the board at rest (``final``: the patience is over)."""
    state, j = judgement.look(state, t, effects, final=final)
    if j is None:
        return state
    if state.held and j.outcome != "before":
        # The other reading: the move before a held lift was complete and the next
        # player has started (a swapped pawn moved on; without a reader, a player who
        # plays again moving the same pawn). Taken when it needs no flag and the board
        # is wrong for this turn, or it completes the next turn's move while this turn
        # is merely in progress, or the next (other) player's whole move lies on the
        # board where this turn's move still looks right (a jack swap).
        wrong = j.outcome == "illegal" or (final and j.outcome == "patient")
        pick = held.better(state, t, step, wrong=wrong, in_progress=j.outcome != "accepted")
        if pick is not None:
            effects.extend(pick[1])
            return pick[0]
    return judgement.conclude(state, j, t, effects, final=final)


def _next_player(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A card tapped or a hand shown: with a held lift and no move on the board now, the
    move before that lift was complete (the lift was the next player's); then a move
    already on the board is taken (``judgement.settle_pending``)."""
    # Players in quick succession: each held lift may have been the next player's.
    while state.held and state.second_card is None:
        current_ok = state.at_rest and move_on_board(state) is not None
        pick = held.better(state, t, step, wrong=not current_ok, in_progress=False)
        if pick is None:
            break
        effects.extend(pick[1])
        state = pick[0]
    return judgement.settle_pending(state, t, effects)


def _hole(state: RefereeState, ev: HoleEvent, t: int, effects: list[Effect]) -> RefereeState:
    h = ev.hole
    verdict = lift_verdict(state, h) if ev.action == "lift" else None
    while verdict == "close" and state.held:
        # Someone reaches for a pawn that is no part of either reading while the held
        # events lie on the board as a whole move of the next (other) player (a jack
        # swap keeps the board's look): that reading wins. Repeated: in a quick chain
        # (two jack swaps in a row) the taken reading holds a split of its own.
        pick = held.better(state, t, step, wrong=False, in_progress=False, lifted=h)
        if pick is None:
            break
        effects.extend(pick[1])
        state = pick[0]
        verdict = lift_verdict(state, h)
    if verdict == "close" and t - state.since < BOUNCE_MS:
        # No hand reaches a pawn that quick after the board changed: a switch bouncing
        # as a pawn settles (several at once when the table is knocked) closes nothing.
        verdict = "hold"
    return holes.hole(state, ev, t, verdict)


def _pending_lift(state: RefereeState, event: Input, effects: list[Effect]) -> RefereeState:
    """Settle a held-back closing lift: a place on its hole within BOUNCE_MS was a
    bounce (the move stays open); anything else closes the move at the lift's time and
    the lift counts for the next turn."""
    assert state.pending is not None
    before, hole, t = state.pending
    if (
        isinstance(event, HoleEvent)
        and event.action == "place"
        and event.hole == hole
        and event.t - t < BOUNCE_MS
    ):
        return replace(state, pending=None)
    if isinstance(event, Tick | Advice) and event.t < t + BOUNCE_MS:
        return state
    move = move_on_board(before)
    if move is None:
        return replace(state, pending=None)
    closed = turns.accept(before, *move, t, effects)
    closed, leds = _with_frame(closed, t)
    effects.extend(leds)
    return holes.hole(replace(closed, now=t), HoleEvent(t, "lift", hole), t, None)


def _on_board(state: RefereeState, hole: str) -> bool:
    try:
        state.pos.topology.parse_hole(hole)
    except TopologyError:
        return False
    return True


def _with_frame(state: RefereeState, t: int) -> tuple[RefereeState, list[Effect]]:
    holes = frame(state)
    if holes == state.leds:
        return state, []
    return replace(state, leds=holes), [Leds(t, holes)]
