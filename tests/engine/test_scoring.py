"""NK scoring (2 a pawn home, 10 for the winners, no bonus when timed out) and the
front-pawn penalty for partners who consult."""

from __future__ import annotations

from engine_helpers import HOME4, board, rows_of

from keezbord.engine.scoring import front_pawn_penalty, nk_score


def test_two_points_per_pawn_home_no_bonus_without_a_winner() -> None:
    p = board(4, {0: ["H1", "H2"], 2: ["H1", "H2", "H3", "H4"], 1: ["H4", "T20"]}, profile="nk")
    assert nk_score(p) == {(0, 2): 12, (1, 3): 2}


def test_winning_team_gets_ten_bonus() -> None:
    p = board(4, {0: HOME4, 2: HOME4, 3: ["H1", "H2", "H3"]}, profile="nk")
    assert nk_score(p) == {(0, 2): 26, (1, 3): 6}


def test_no_bonus_when_stopped_by_the_time_limit() -> None:
    p = board(4, {0: HOME4, 2: HOME4, 3: ["H1", "H2", "H3"]}, profile="nk")
    assert nk_score(p, timed_out=True) == {(0, 2): 16, (1, 3): 6}


def test_individual_scoring() -> None:
    p = board(3, {1: HOME4, 2: ["H1"]}, profile="nk")
    assert nk_score(p) == {(0,): 0, (1,): 18, (2,): 2}


def test_front_pawn_is_the_one_nearest_its_home_by_forward_distance() -> None:
    # Seat 1 (start T16): T10 is 6 steps from home, T20 is 60, T15 just 1.
    p = board(4, {1: ["T10", "T20", "H1"]})
    assert rows_of(front_pawn_penalty(p, 1)) == rows_of(board(4, {1: ["T20", "H1"]}))
    q = board(4, {1: ["T15", "T10", "T20"]})
    assert rows_of(front_pawn_penalty(q, 1)) == rows_of(board(4, {1: ["T10", "T20"]}))


def test_front_pawn_on_own_start_not_fresh_is_nearest_home() -> None:
    p = board(4, {0: ["T0", "T60"]})
    assert rows_of(front_pawn_penalty(p, 0)) == rows_of(board(4, {0: ["T60"]}))


def test_fresh_pawn_is_farthest_from_home() -> None:
    p = board(4, {0: ["S", "T5"]})
    assert rows_of(front_pawn_penalty(p, 0)) == rows_of(board(4, {0: ["S"]}))


def test_partners_front_pawn_when_the_offender_has_none_on_the_track() -> None:
    p = board(4, {0: ["H1", "H2"], 2: ["T20", "T30"], 1: ["T15"]})
    assert rows_of(front_pawn_penalty(p, 0)) == rows_of(
        board(4, {0: ["H1", "H2"], 2: ["T20"], 1: ["T15"]})
    )


def test_penalty_without_pawns_on_the_track_changes_nothing() -> None:
    p = board(4, {0: ["H1"], 1: ["T15"]})
    assert front_pawn_penalty(p, 0) == p
    q = board(3, {0: ["H1"], 1: ["T15"]})
    assert front_pawn_penalty(q, 0) == q
