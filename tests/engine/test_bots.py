"""The random and greedy bots: legal moves only, and greedy clearly beats random."""

from __future__ import annotations

import random

from engine_helpers import board, random_positions

from keezbord.engine.bot_kinds import make_bot
from keezbord.engine.bots import GreedyBot, RandomBot, greedy_move
from keezbord.engine.cards import RANKS
from keezbord.engine.game import play_game
from keezbord.engine.movegen import successors


def test_greedy_team_beats_random_team_over_forty_seeded_games() -> None:
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        bots = [
            GreedyBot(random.Random(rng.random()))
            if s % 2 == 0
            else RandomBot(random.Random(rng.random()))
            for s in range(4)
        ]
        result = play_game(4, "standard", seed, bots)
        assert result.winner is not None
        wins += result.winner == (0, 2)
    assert wins >= 32, f"greedy team won only {wins} of 40"


def test_bots_choose_only_legal_moves_and_discard_only_when_nothing_is_playable() -> None:
    rng = random.Random(1)
    for pos in random_positions(120, 3):
        hand = rng.sample(RANKS, 4)
        for bot in (RandomBot(random.Random(2)), GreedyBot(random.Random(2))):
            choice = bot.choose(pos, hand)
            playable = [c for c in hand if any(True for _ in successors(pos, c))]
            if choice is None:
                assert playable == []
            else:
                card, move = choice
                assert card in hand
                assert move in [m for m, _ in successors(pos, card)]


def test_greedy_move_is_legal_or_none() -> None:
    for pos in random_positions(60, 3):
        for card in RANKS:
            move = greedy_move(pos, card)
            legal = [m for m, _ in successors(pos, card)]
            if legal:
                assert move in legal
            else:
                assert move is None
    assert greedy_move(board(4, {}), "5") is None


def test_greedy_prefers_a_capture_of_an_opponent_over_a_plain_step() -> None:
    p = board(4, {0: ["T3", "T30"], 1: ["T8"]})
    move = greedy_move(p, "5")
    assert move is not None and str(move) == "5 0:T3-T8"


def test_make_bot() -> None:
    assert make_bot("random", random.Random(0)).name == "random"
    assert make_bot("greedy", random.Random(0)).name == "greedy"
    try:
        make_bot("smart", random.Random(0))
    except ValueError as e:
        assert "smart" in str(e)
    else:
        raise AssertionError("unknown bot accepted")
