"""``Game.push``/``Game.pop`` (python-chess's board): a popped turn leaves everything as
before it (position, hands, stock, deal, shuffle). That a taken-back move leaves the game
where the referee's undo leaves the table is tests/host/test_undo_agreement.py."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_helpers import PROFILE_GAMES

from keezbord.engine import Game, IllegalMoveError, RandomBot

CASES = PROFILE_GAMES


def _everything(game: Game) -> tuple[Any, ...]:
    return (
        game.position,
        [list(h) for h in game.hands],
        list(game.stock),
        game.table,
        game.rng.getstate(),
        len(game.history),
        game.exchange_pending,
    )


@pytest.mark.parametrize(("seats", "profile", "seed"), CASES)
def test_pop_undoes_every_turn_and_push_redoes_it(seats: int, profile: str, seed: int) -> None:
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
