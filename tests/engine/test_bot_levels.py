"""The named levels (engine/levels.py) and the beginner's mistakes (engine/beginner.py):
every level plays legal games to the end, and the beginner makes the mistakes people make
in a first game at its rates, where the greedy bot (the casual level) does not."""

from __future__ import annotations

import random

import pytest
from engine_helpers import board

from keezbord.engine.beginner import MISTAKES, BeginnerBot
from keezbord.engine.bots import Bot, GreedyBot
from keezbord.engine.game import play_game, play_game_positions
from keezbord.engine.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, level, level_bot, named_bot
from keezbord.engine.movegen import successors
from keezbord.engine.search import SearchBot


def test_the_levels_run_from_beginner_to_strong_with_their_budgets() -> None:
    assert LEVEL_NAMES == ("beginner", "casual", "club", "strong")
    assert DEFAULT_LEVEL in LEVEL_NAMES
    assert all(lv.nl and lv.en for lv in LEVELS)
    bots = {n: level_bot(n, random.Random(0)) for n in LEVEL_NAMES}
    assert isinstance(bots["beginner"], BeginnerBot)
    assert isinstance(bots["casual"], GreedyBot)
    club, strong = bots["club"], bots["strong"]
    assert isinstance(club, SearchBot) and isinstance(strong, SearchBot)
    assert (club.playouts, strong.playouts) == (level("club").playouts, level("strong").playouts)
    assert club.playouts < strong.playouts
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        level("expert")
    with pytest.raises(ValueError, match="unknown bot 'expert'"):
        named_bot("expert", random.Random(0))


@pytest.mark.parametrize("seed", [3, 4])
def test_beginner_and_casual_play_legal_games_to_the_end(seed: int) -> None:
    # The Position loop plays every choice through Game, which refuses an illegal move
    # and a discard while a card can be played.
    def bots() -> list[Bot]:
        kinds = ["casual", "beginner"] * 2
        return [level_bot(k, random.Random(seed + s)) for s, k in enumerate(kinds)]

    result = play_game_positions(4, "standard", seed, bots())
    assert result.winner is not None
    # The fast loop (the one self-play and the simulator use) plays the same game.
    assert play_game(4, "standard", seed, bots()).winner == result.winner


def test_club_plays_a_legal_game_to_the_end_and_strong_legal_moves() -> None:
    bots = [level_bot("club" if s % 2 else "beginner", random.Random(s)) for s in range(4)]
    assert play_game_positions(4, "standard", 8, bots).winner is not None
    strong = level_bot("strong", random.Random(1))
    pos = board(4, {0: ["T10", "S"], 2: ["T15"], 1: ["T5"]})
    choice = strong.choose(pos, ["5", "2", "K"])
    assert choice is not None
    assert choice[1] in [m for m, _ in successors(pos, choice[0])]


def test_the_beginner_captures_its_partner_at_its_rate_and_greedy_never() -> None:
    # Red (seat 0) on T10, its partner yellow (seat 2) on T15: the 5 sends yellow home,
    # the 2 is a plain step.
    pos = board(4, {0: ["T10"], 2: ["T15"]})
    capture = next(m for m, _ in successors(pos, "5"))
    assert str(capture) == "5 0:T10-T15"
    took = greedy_took = 0
    for seed in range(200):
        b = BeginnerBot(random.Random(seed))
        choice = b.choose(pos, ["5", "2"])
        took += choice == ("5", capture)
        assert (choice == ("5", capture)) == (b.last_mistake == "partner_capture")
        greedy_took += GreedyBot(random.Random(seed)).choose(pos, ["5", "2"]) == ("5", capture)
    assert greedy_took == 0
    rate = MISTAKES["partner_capture"]
    assert abs(took / 200 - rate) < 0.1, took  # 200 draws: 3.5 standard deviations


def test_the_beginner_leaves_its_pawns_in_the_nest_at_its_rate() -> None:
    # Red has an ace and a 3: greedy brings a new pawn out; the beginner at its rate
    # moves the pawn already out instead.
    pos = board(4, {0: ["T10"]})
    entered = 0
    for seed in range(200):
        choice = BeginnerBot(random.Random(seed)).choose(pos, ["A", "3"])
        entered += choice is not None and "N-S" in str(choice[1])
        g = GreedyBot(random.Random(seed)).choose(pos, ["A", "3"])
        assert g is not None and "N-S" in str(g[1])
    assert abs(entered / 200 - (1 - MISTAKES["no_new_pawn"])) < 0.1, entered


def test_the_beginner_is_deterministic_for_a_seed() -> None:
    pos = board(4, {0: ["T10", "T20"], 2: ["T15"], 1: ["T3"]})
    hand = ["5", "7", "A", "4"]
    a = [BeginnerBot(random.Random(s)).choose(pos, hand) for s in range(30)]
    b = [BeginnerBot(random.Random(s)).choose(pos, hand) for s in range(30)]
    assert a == b and len(set(map(str, a))) > 1
