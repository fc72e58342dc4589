"""``Game.pop`` and the referee's undo agree: both play the same bot game (the referee
from the switches, as a person's hands would move the pawns), and after every accepted
move taking it back gives the same position and table in both; ``Game.push`` and the
replayed move bring both back. Through the pure ``step`` and through ``GameSession``
(journalled, and resumed from the journal after the undo)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_helpers import PROFILE_GAMES

from keezbord.engine import Game, RandomBot
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, Discard, Event, HoleEvent, Tick
from keezbord.host.referee.recognize import board_of
from keezbord.host.referee.state import Config, Decision, Undo
from keezbord.host.referee.step import new_game, step
from keezbord.host.session import GameSession
from keezbord.host.sim.physical import apply_events, events_for_move

CASES = PROFILE_GAMES


@pytest.mark.parametrize(("seats", "profile", "seed"), CASES)
def test_taking_back_a_move_agrees_with_the_referee(seats: int, profile: str, seed: int) -> None:
    """Both play the same game (the referee from the switches); after every accepted
    move the referee's undo and ``Game.pop`` must give the same position and table, and
    ``push`` must bring both back. A discard the referee does not take back."""
    rng = random.Random(seed)
    game = Game(seats, profile, seed)
    bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(seats)]
    state, _ = new_game(game.position, game.table.dealer, Config())
    board = board_of(game.position)
    t = 1000
    compared = 0
    while not game.over and len(game.history) < 150:
        game.exchange(bots)
        seat = game.to_play
        assert seat is not None
        pos = game.position.replace(turn=seat)
        turn = game.play_turn(bots[seat])
        if turn.move is None:
            state, _ = step(state, Discard(t, turn.discarded))
            t += 1000
            _, effects = step(state, Undo(t))
            assert [
                e.data["ok"] for e in effects if isinstance(e, Decision) and e.type == "undo"
            ] == [False]
            continue
        assert turn.card is not None and turn.after is not None
        state, _ = step(state, CardTap(t, turn.card))
        events = events_for_move(pos, turn.move, turn.after, rng, t + 100, board)
        for ev in events:
            state, _ = step(state, ev)
        board = apply_events(board, events)
        t = (events[-1].t if events else t) + 2000
        state, _ = step(state, Tick(t))
        # Accepted (a 7 may be recorded split otherwise, to the same position).
        assert state.history and state.history[-1].after.pawns == turn.after.pawns
        assert (state.pos, state.table) == (game.position, game.table)

        undone, effects = step(state, Undo(t + 1))
        assert [e.data["ok"] for e in effects if isinstance(e, Decision) and e.type == "undo"] == [
            True
        ]
        assert game.pop() == turn
        assert (undone.pos, undone.table) == (game.position, game.table)
        assert undone.winner is None and not game.over
        game.push(turn.card, turn.move)
        assert (state.pos, state.table) == (game.position, game.table)
        compared += 1
    assert compared > 20


def _move_events(
    game: Game, bots: list[RandomBot], rng: random.Random, t: int, board: frozenset[str]
) -> tuple[list[Event], frozenset[str], bool]:
    """The next turn of the game as sensor events (a discard, or a card and the move)."""
    game.exchange(bots)
    seat = game.to_play
    assert seat is not None
    pos = game.position.replace(turn=seat)
    turn = game.play_turn(bots[seat])
    if turn.move is None:
        return [Discard(t, turn.discarded)], board, False
    assert turn.card is not None and turn.after is not None
    events: list[Event] = [CardTap(t, turn.card)]
    moves = events_for_move(pos, turn.move, turn.after, rng, t + 100, board)
    return events + list(moves), apply_events(board, moves), True


def _same(pos: Position, game: Game) -> bool:
    return pos == game.position


def test_the_sessions_undo_and_resume_agree_with_game_pop(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    seats, seed = 4, 11
    session = GameSession.start(db, {"type": "setup", "seats": seats, "dealer": 0})
    game = Game(seats, "standard", seed, dealer=0)
    bots = [RandomBot(random.Random(seed + s)) for s in range(seats)]
    rng = random.Random(seed)
    board = board_of(game.position)
    t = 1000
    undone = 0
    while len(game.history) < 40:
        events, board, moved = _move_events(game, bots, rng, t, board)
        for ev in events:
            session.feed(ev)
        t = events[-1].t + 2000
        session.feed(Tick(t))
        assert _same(session.state.pos, game) and session.state.table == game.table
        if moved and len(game.history) % 5 == 0:
            turn = game.history[-1]
            session.undo_last_move(t + 1)
            game.pop()
            assert _same(session.state.pos, game) and session.state.table == game.table
            resumed = GameSession.resume(db)
            assert _same(resumed.state.pos, game) and resumed.state.table == game.table
            resumed.close()
            # The players put the pawns back as they were, and the move is played again.
            want = board_of(game.position)
            lifted = [HoleEvent(t + 10, "lift", h) for h in sorted(board - want)]
            placed = [HoleEvent(t + 20, "place", h) for h in sorted(want - board)]
            for ev in [*lifted, *placed]:
                session.feed(ev)
            board = want
            t += 3000
            session.feed(Tick(t))
            assert turn.card is not None and turn.move is not None and turn.after is not None
            pos = game.position
            game.push(turn.card, turn.move)
            moves = events_for_move(pos, turn.move, turn.after, rng, t + 100, board)
            events = [CardTap(t, turn.card), *moves]
            board = apply_events(board, moves)
            for ev in events:
                session.feed(ev)
            t = events[-1].t + 2000
            session.feed(Tick(t))
            assert _same(session.state.pos, game) and session.state.table == game.table
            undone += 1
    session.close()
    assert undone >= 3
