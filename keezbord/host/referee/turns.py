"""Turns: a move accepted, a hand discarded, the turn passed on (engine ``Table``: the
deals, rounds and sitting out), and the state a new turn starts from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from keezbord.engine.cards import RANKS
from keezbord.engine.deal import Table
from keezbord.engine.notation import Move
from keezbord.engine.position import NEST, Position
from keezbord.host.events import Discard

from . import hands, reasons
from .lit import recorded
from .recognize import expectation
from .state import Decision, Effect, MoveRecord, RefereeState, ShownHand


def accept(
    state: RefereeState,
    move: Move,
    after: Position,
    t: int,
    effects: list[Effect],
    overruled: str | None = None,
) -> RefereeState:
    """The turn's move taken: ``move``, leading to ``after``; the next seat to play."""
    seat = state.table.turn
    assert seat is not None
    move = recorded(state, move, after)
    state = resolved(state, t, effects)
    topo = after.topology
    text = move.text(topo)
    table = advance(state.table.played(seat))
    winner = after.winner()
    new_pos = after.replace(
        turn=table.turn if winner is None and table.turn is not None else after.turn
    )
    data: dict[str, Any] = {"seat": seat, "move": text, "position": new_pos.to_dict()}
    if overruled is not None:
        data["overruled"] = overruled
    effects.append(Decision(t, "move", data))
    record = MoveRecord(
        t,
        seat,
        move.card,
        move,
        text,
        state.pos,
        new_pos,
        state.table,
        table,
        _without_turn_card(state),
        overruled,
    )
    # The colours now: the position the move leads to (the referee's reading), unless
    # the board does not show it (a corrected move: the players are guided back).
    # (A new turn: its origins are where the pawns stand.)
    worlds = hands.rebase(hands.narrow(state.worlds, [new_pos])) or hands.start(
        new_pos, state.sensed
    )
    state = new_turn(state, new_pos, table, history=(*state.history, record))
    state = replace(state, worlds=worlds or state.worlds)
    if winner is not None:
        effects.append(Decision(t, "win", {"seats": list(winner)}))
        return replace(state, winner=winner)
    effects.append(turn_decision(t, record.table_before, table))
    return state


def resolved(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A flagged board was put right (it is the position, a legal move's board or part
    of one): say so, so hosts need not compare states."""
    if state.flag is None or state.second_card is not None:
        return state
    effects.append(Decision(t, "resolved", {"seat": state.seat}))
    return replace(state, flag=None, put_right=False)


def discard(state: RefereeState, ev: Discard, t: int, effects: list[Effect]) -> RefereeState:
    """A hand shown (after a move on the board was taken): checked against the cards
    shown and a card already tapped; if none can be played, the seat sits out."""
    seat = state.seat
    if seat is None:
        effects.append(Decision(t, "discard", {"seat": None, "ok": False}, reasons.GAME_OVER))
        return state
    hand: list[str] = []
    for c in ev.cards:
        if c not in RANKS:
            effects.append(
                Decision(t, "discard", {"seat": seat, "ok": False}, reasons.unknown_card(c))
            )
            return state
        hand.append(c)
    if state.card is not None:
        hand.insert(0, state.card)
    pos = state.pos
    for c in dict.fromkeys(hand):
        moves = expectation(pos, c).legal
        if moves:
            effects.append(
                Decision(
                    t,
                    "discard",
                    {"seat": seat, "ok": False, "must_play": moves[0].text(pos.topology)},
                    reasons.must_play(c),
                )
            )
            return state
    table = advance(state.table.discarded(seat))
    assert table.turn is not None
    effects.append(Decision(t, "discard", {"seat": seat, "ok": True}))
    effects.append(turn_decision(t, state.table, table))
    new = new_turn(state, pos.replace(turn=table.turn), table)
    # Every seat has seen the hand now: the hints and the coach sample without it.
    shown = ShownHand(seat, tuple(hand), state.table.shuffle_no, len(state.history))
    # The board is judged afresh for the next player (a stray pawn is still flagged).
    return replace(
        new,
        since=t,
        stage=0,
        outcome="none",
        worlds=hands.rebase(new.worlds),
        shown=(*state.shown, shown),
    )


def _without_turn_card(state: RefereeState) -> tuple[tuple[str, str | None], ...]:
    """The cards played this deal before the turn's card (what an undo goes back to)."""
    played = state.cards_played
    mine = (state.card, state.card_tag)
    for i in range(len(played) - 1, -1, -1):
        if played[i] == mine:
            return played[:i] + played[i + 1 :]
    return played


def advance(table: Table) -> Table:
    return table.next_round() if table.round_over else table


def turn_decision(t: int, before: Table, after: Table) -> Decision:
    data: dict[str, Any] = {"seat": after.turn}
    if (after.round_no, after.shuffle_no) != (before.round_no, before.shuffle_no):
        data["deal"] = {"dealer": after.dealer, "cards": after.round_size}
    return Decision(t, "turn", data)


def opening_decision(t: int, table: Table, pos: Position) -> Decision:
    """The turn a game begins with; at a game's first deal (every pawn in its nest, not
    a lesson's or a puzzle's position, nor a game set up mid-round) it says who dealt how
    many cards (``opening``: the voice's first words, docs/voice.md; a ``deal`` would be
    a new round to the move list)."""
    data: dict[str, Any] = {"seat": table.turn}
    fresh = all(h == NEST for seat in pos.pawns for h in seat)
    if fresh and table == Table.first(table.seats, table.dealer):
        data["opening"] = {"dealer": table.dealer, "cards": table.round_size}
    return Decision(t, "turn", data)


def new_turn(
    state: RefereeState, pos: Position, table: Table, history: tuple[MoveRecord, ...] | None = None
) -> RefereeState:
    """The state a turn starts from: ``pos`` with ``table``; nothing touched, tapped or
    flagged yet (the sensed board, its colours and the history stay)."""
    # A new deal (shuffle): every physical card is back in the deck.
    played = state.cards_played if table.shuffle_no == state.table.shuffle_no else ()
    if pos is not state.pos:
        state.pos.drop_caches()  # it joins the history, kept for the rest of the game
    return replace(
        state,
        pos=pos,
        table=table,
        card=None,
        touched=frozenset(),
        lifted=(),
        hint=(),
        co_empty=frozenset(),
        flag=None,
        missing=(),
        ambiguous=(),
        amb_touched=frozenset(),
        partial=None,
        outcome="accepted",
        stage=2,
        history=state.history if history is None else history,
        bounce=None,
        restoring=False,
        multi_hand=False,
        put_right=False,
        ask=(),
        card_tag=None,
        second_card=None,
        cards_played=played,
        held=(),
        lit=None,
        lit_part=0,
    )
