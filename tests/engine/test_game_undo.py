"""``Game.push``/``Game.pop`` (python-chess's board): a popped turn leaves everything as
before it (position, hands, stock, deal, shuffle), and a taken-back move leaves the game
where the referee's undo leaves the table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from keezbord.engine import Game, IllegalMoveError, RandomBot
from keezbord.host.events import CardTap, Discard, Tick
from keezbord.host.referee.recognize import board_of
from keezbord.host.referee.state import Config, Decision, Undo
from keezbord.host.referee.step import new_game, step
from keezbord.host.sim.physical import apply_events, events_for_move

CASES = [(4, "standard", 1), (6, "keezspel", 2), (2, "nk", 3), (3, "reiseditie", 4),
         (8, "bordspel", 5), (4, "wikipedia", 6)]


def _everything(game: Game) -> tuple[Any, ...]:
    return (game.position, [list(h) for h in game.hands], list(game.stock), game.table,
            game.rng.getstate(), len(game.history), game.exchange_pending)


@pytest.mark.parametrize(("seats", "profile", "seed"), CASES)
def test_pop_undoes_every_turn_and_push_redoes_it(seats: int, profile: str,
                                                  seed: int) -> None:
    game = Game(seats, profile, seed)
    bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(seats)]
    kinds = {"move": 0, "discard": 0, "deal": 0, "shuffle": 0}
    while not game.over and len(game.history) < 400:
        game.exchange(bots)
        before = _everything(game)
        turn = game.play_turn(bots[game.to_play or 0])
        after = _everything(game)
        kinds["move" if turn.move else "discard"] += 1
        kinds["deal"] += after[3].round_no != before[3].round_no
        kinds["shuffle"] += after[3].shuffle_no != before[3].shuffle_no
        assert game.pop() == turn
        assert _everything(game) == before
        if turn.move is None:
            game.discard()
        else:
            assert turn.card is not None
            game.push(turn.card, turn.move)
        assert _everything(game) == after
        assert game.history[-1] == turn
    assert kinds["move"] > 20 and kinds["deal"] > 2
    if len(game.history) >= 100:
        assert kinds["shuffle"] >= 1  # the random state was taken back across a shuffle


def test_pop_all_the_way_back_to_the_first_deal() -> None:
    game = Game(4, "standard", 9)
    first = _everything(game)
    bots = [RandomBot(random.Random(s)) for s in range(4)]
    for _ in range(60):
        game.exchange(bots)
        game.play_turn(bots[game.to_play or 0])
    while game.history:
        game.pop()
    assert _everything(game) == first
    with pytest.raises(IndexError):
        game.pop()


def test_push_takes_notation_and_refuses_illegal_moves_without_changing_anything() -> None:
    game = Game(4, "standard", 1)
    seat = game.to_play
    assert seat is not None
    before = _everything(game)
    with pytest.raises(IllegalMoveError):
        game.push("K", f"K {seat}:T3-T16")
    missing = next(c for c in ("A", "K", "2", "3", "4", "5") if c not in game.hand(seat))
    with pytest.raises(IllegalMoveError, match="holds no"):
        game.push(missing, f"{missing} {seat}:N-S")
    assert _everything(game) == before
    enter = next((c for c in game.hand(seat) if c in ("A", "K")), None)
    if enter is not None:
        game.push(enter, f"{enter} {seat}:N-S")
        assert str(game.pop()) == f"{seat}: {enter} {seat}:N-S"
        assert _everything(game) == before


@pytest.mark.parametrize(("seats", "profile", "seed"), CASES)
def test_taking_back_a_move_agrees_with_the_referee(seats: int, profile: str,
                                                    seed: int) -> None:
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
            assert [e.data["ok"] for e in effects
                    if isinstance(e, Decision) and e.type == "undo"] == [False]
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
        assert [e.data["ok"] for e in effects
                if isinstance(e, Decision) and e.type == "undo"] == [True]
        assert game.pop() == turn
        assert (undone.pos, undone.table) == (game.position, game.table)
        assert undone.winner is None and not game.over
        game.push(turn.card, turn.move)
        assert (state.pos, state.table) == (game.position, game.table)
        compared += 1
    assert compared > 20
