"""The fitted leaf (engine/leaf.py ``team_features``, ``tuned_chances``, ``TUNED``): its
terms counted right on set boards, a distribution over the teams that is even on an even
board and leans the way its weights say, and the fit (bench/fit_leaf.py) recovering
known weights from games drawn by them."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest
from engine_helpers import board

from keezbord.engine.board import Board
from keezbord.engine.leaf import (
    FEATURES,
    TUNED,
    fitted_chances,
    fitted_weights,
    team_features,
    team_order,
    tuned_chances,
)
from keezbord.engine.position import Position
from keezbord.engine.rollout import Greedy, Policy, playout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))


def _feature(feats: list[float], name: str) -> float:
    return feats[FEATURES.index(name)]


def test_the_terms_are_counted_per_team() -> None:
    # Seat 0: two pawns home (slots 3 and 4), one on its start, one in the nest; seat 2
    # (its partner): a pawn far along; seat 1: a pawn just behind seat 2's.
    pos = board(4, {0: ["H3", "H4", "S"], 2: ["T15"], 1: ["T12"]})
    b = Board(pos)
    hands = [["A", "7", "3"], ["K"], ["4", "J"], []]
    (us, them) = team_features(b, hands)
    assert team_order(b) == [(0, 2), (1, 3)]
    assert _feature(us, "home") == 2 and _feature(us, "home2") == 4
    assert _feature(us, "fresh") == 1 and _feature(us, "track") == 2
    assert _feature(us, "deep") == 3 + 4
    assert _feature(us, "enter") == 1  # seat 0: nest pawns and an A; seat 2 holds no A or K
    assert _feature(us, "ak") == 1 and _feature(us, "seven") == 1
    assert _feature(us, "four") == 1 and _feature(us, "jack") == 1
    assert _feature(us, "cards") == 5
    assert _feature(them, "cards") == 1 and _feature(them, "ak") == 1
    assert _feature(us, "threat") >= 1  # seat 1's pawn 3 holes behind seat 2's


def test_the_leaf_is_a_distribution_over_every_team() -> None:
    # The start is the same for every team (so even whatever the weights): what this
    # checks is one chance a team, in team_order, for 2, 3 and 4 teams.
    for seats, teams in ((4, 2), (6, 3), (8, 4), (3, 3)):
        b = Board(Position.start(seats, "standard"))
        hands = [["A", "5", "9", "Q", "2"] for _ in range(seats)]
        chances = fitted_chances(b, hands)
        assert len(chances) == teams
        assert chances == pytest.approx([1 / teams] * teams)


def test_the_leaf_leans_to_the_team_ahead_and_to_the_cards_that_bring_pawns_out() -> None:
    b = Board(board(4, {0: ["H4"]}))
    even_hands = [["5", "6"], ["5", "6"], ["5", "6"], ["5", "6"]]
    ahead, behind = tuned_chances(b, even_hands, TUNED[4])
    assert ahead > 0.5 > behind and ahead + behind == pytest.approx(1)
    b = Board(Position.start(4, "standard"))
    with_ace = [["A", "6"], ["5", "6"], ["5", "6"], ["5", "6"]]
    assert tuned_chances(b, with_ace, TUNED[4])[0] > 0.5


def test_a_won_board_is_certain() -> None:
    b = Board(board(4, {0: ["H1", "H2", "H3", "H4"], 2: ["H1", "H2", "H3", "H4"]}))
    assert fitted_chances(b, [[], [], [], []]) == [1.0, 0.0]


def test_a_playout_judged_by_the_fitted_leaf_is_a_distribution_and_repeatable() -> None:
    b = Board(board(4, {0: ["T3", "S"], 1: ["T20"], 2: ["T40"], 3: ["S"]}))
    deal = [["A", "7", "9"], ["K", "2", "3"], ["4", "5", "6"], ["8", "10", "J"]]
    policy = Greedy(b)
    card, move = "9", next(iter(b.moves("9", 0)))
    runs = [
        playout(policy, 0, card, move, deal, 8, random.Random(5).random, Policy(leaf="fitted"))
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert sum(runs[0][0]) == pytest.approx(1)
    plain = playout(policy, 0, card, move, deal, 8, random.Random(5).random)
    assert plain[0] != runs[0][0]  # the other leaf judged it
    hand = playout(policy, 0, card, move, deal, 8, random.Random(5).random, Policy(leaf="hand"))
    assert len({tuple(plain[0]), tuple(runs[0][0]), tuple(hand[0])}) == 3  # three leaves


def test_a_leaf_that_is_not_there_is_refused() -> None:
    with pytest.raises(ValueError, match="no leaf 'fited'"):
        Policy(leaf="fited")  # type: ignore[arg-type]


def test_the_fit_recovers_the_weights_games_were_drawn_with() -> None:
    np = pytest.importorskip("numpy")  # a development dependency, as the fit script's
    fit_leaf = importlib.import_module("fit_leaf")  # bench/fit_leaf.py

    rng = np.random.default_rng(3)
    x = rng.normal(size=(4000, 3, 2))
    truth = np.array([1.5, -0.7])
    z = x @ truth
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    y = np.array([rng.choice(3, p=row) for row in p])
    w = fit_leaf.fit(x, y, l2=0.0)
    assert w == pytest.approx(truth, abs=0.12)
    assert fit_leaf.log_loss(fit_leaf.chances(x, w), y) < fit_leaf.log_loss(
        fit_leaf.chances(x, np.zeros(2)), y
    )


def test_each_number_of_seats_has_its_weights_or_the_four_seat_ones() -> None:
    assert all(len(w) == len(FEATURES) for w in TUNED.values())
    assert fitted_weights(6) == TUNED[6] != TUNED[4]
    assert fitted_weights(8) == TUNED[4]


def test_the_home_terms_count_slack_free_holes_and_pawns_shut_out() -> None:
    pytest.importorskip("numpy")
    fit_leaf = importlib.import_module("fit_leaf")  # bench/fit_leaf.py
    names = fit_leaf.HOME_NAMES
    boards = fit_leaf.door_boards()  # red: N, N, T20, and T61 or H1..H4
    terms = {h: {n: boards[h][names.index(n)] for n in ("slack", "free", "shut")} for h in boards}
    # Three pawns to come: none shut out behind T61 or H4, all three behind H1.
    assert [terms[h]["shut"] for h in ("T61", "H1", "H2", "H3", "H4")] == [0, 3, 2, 1, 0]
    assert [terms[h]["free"] for h in ("T61", "H1", "H2", "H3", "H4")] == [0, 1, 1, 1, 0]
    assert [terms[h]["slack"] for h in ("T61", "H1", "H2", "H3", "H4")] == [0, 3, 2, 1, 0]
    # Two home, two to come: on H3 and H4 nothing is shut out (H1 and H2 are theirs);
    # on H2 and H4 one is (H1 only), and H3 is a free hole behind a pawn.
    packed = Board(Position.from_text("NT20H3H4/NNNN/NNNN/NNNN 0 standard"))
    assert fit_leaf.home_terms(packed)[0] == [0.0, 0.0]
    assert _feature(team_features(packed, [[]] * 4)[0], "shut") == 0.0
    gap = Board(Position.from_text("NT20H2H4/NNNN/NNNN/NNNN 0 standard"))
    assert fit_leaf.home_terms(gap)[0] == [1.0, 1.0]
    assert _feature(team_features(gap, [[]] * 4)[0], "shut") == 1.0
