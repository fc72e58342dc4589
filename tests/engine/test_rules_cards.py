"""One rule or card at a time (RULES.md), each from a hand-built position.

Board: 4 seats unless said otherwise, L = 16, so the ring is T0..T63 and the starts are
T0 (seat 0, red), T16 (1, blue), T32 (2, yellow, seat 0's partner), T48 (3, green).
"""

from __future__ import annotations

from engine_helpers import HOME4, board, moves, results, rows

from keezbord.engine.movegen import successor_positions, successors

# -- entering (A, K) ----------------------------------------------------------------------


def test_ace_enters_from_the_nest_onto_the_own_start_as_fresh() -> None:
    p = board(4, {})
    assert moves(p, "A") == {"A 0:N-S"}
    assert results(p, "A") == {rows(4, {0: ["S"]})}


def test_king_enters_and_without_king_13_does_not_move() -> None:
    p = board(4, {0: ["T5"]})
    assert moves(p, "K") == {"K 0:N-S"}
    assert results(p, "K") == {rows(4, {0: ["S", "T5"]})}


def test_ace_also_moves_one_step() -> None:
    p = board(4, {0: ["T5"]})
    assert moves(p, "A") == {"A 0:N-S", "A 0:T5-T6"}


def test_own_fresh_pawn_on_start_blocks_entering() -> None:
    p = board(4, {0: ["S"]})
    assert moves(p, "K") == set()
    assert moves(p, "A") == {"A 0:S-T1"}


def test_own_non_fresh_pawn_on_start_blocks_entering() -> None:
    p = board(4, {0: ["T0"]})
    assert moves(p, "K") == set()
    # The A may still move the pawn on the start: non-fresh, it turns into the home.
    assert moves(p, "A") == {"A 0:T0-H1"}


def test_other_seats_pawn_on_start_is_captured_by_entering() -> None:
    p = board(4, {1: ["T0"]})
    assert results(p, "K") == {rows(4, {0: ["S"]})}


def test_partner_on_start_captured_under_standard() -> None:
    p = board(4, {2: ["T0"]})
    assert results(p, "A") == {rows(4, {0: ["S"]})}


def test_partner_on_start_blocks_entering_when_capture_partner_is_false() -> None:
    p = board(4, {2: ["T0"]}, profile="keezspel")
    assert moves(p, "K") == set()
    # An opponent there is still captured under keezspel.
    q = board(4, {1: ["T0"]}, profile="keezspel")
    assert results(q, "K") == {rows(4, {0: ["S"]}, profile="keezspel")}


def test_no_pawn_in_the_nest_no_entering() -> None:
    p = board(4, {0: ["T5", "T10", "H1", "H2"]})
    assert moves(p, "K") == set()


# -- forward moves, passing, captures ------------------------------------------------------


def test_forward_passes_other_pawns() -> None:
    p = board(4, {0: ["T3"], 1: ["T5"], 2: ["T6"]})
    assert results(p, "5") == {rows(4, {0: ["T8"], 1: ["T5"], 2: ["T6"]})}


def test_forward_passes_own_pawns_under_standard() -> None:
    p = board(4, {0: ["T3", "T5"]})
    assert moves(p, "5") == {"5 0:T3-T8", "5 0:T5-T10"}


def test_forward_wraps_round_the_ring() -> None:
    p = board(4, {1: ["T62"]}, turn=1)
    assert moves(p, "5") == {"5 1:T62-T3"}


def test_capture_sends_opponent_to_its_own_nest() -> None:
    p = board(4, {0: ["T3"], 1: ["T8", "T20"]})
    assert results(p, "5") == {rows(4, {0: ["T8"], 1: ["T20"]})}


def test_capture_own_pawn_sends_it_to_the_nest() -> None:
    p = board(4, {0: ["T3", "T8"]})
    assert rows(4, {0: ["T8"]}) in results(p, "5")


def test_capture_partner_under_standard() -> None:
    p = board(4, {0: ["T3"], 2: ["T8"]})
    assert results(p, "5") == {rows(4, {0: ["T8"]})}


def test_no_capture_of_partner_when_capture_partner_is_false() -> None:
    p = board(4, {0: ["T3"], 2: ["T8"]}, profile="keezspel")
    assert moves(p, "5") == set()
    # Passing the partner is fine.
    assert moves(p, "6") == {"6 0:T3-T9"}


def test_landing_is_the_only_capture_passing_is_not() -> None:
    p = board(4, {0: ["T3"], 1: ["T5"]})
    after = next(iter(results(p, "3")))
    assert after[1] == ("N", "N", "N", "T5")


# -- blockades -----------------------------------------------------------------------------


def test_blockade_cannot_be_passed() -> None:
    p = board(4, {0: ["T14"], 1: ["S"]})
    assert moves(p, "5") == set()


def test_blockade_cannot_be_landed_on() -> None:
    p = board(4, {0: ["T14"], 1: ["S"]})
    assert moves(p, "2") == set()
    assert moves(p, "A") == {"A 0:N-S", "A 0:T14-T15"}


def test_own_fresh_pawn_blocks_own_pawns_too() -> None:
    # The pawn on T60 is on its way home, but its own fresh pawn on T0 is in the way.
    p = board(4, {0: ["S", "T60"]})
    assert moves(p, "5") == {"5 0:S-T5"}
    assert moves(p, "3") == {"3 0:S-T3", "3 0:T60-T63"}


def test_blockade_ends_when_the_pawn_moves() -> None:
    p = board(4, {0: ["T14"], 1: ["T16"]})
    assert moves(p, "5") == {"5 0:T14-T19"}
    assert results(p, "2") == {rows(4, {0: ["T16"]})}


def test_fresh_pawn_moving_off_and_back_is_not_fresh() -> None:
    p = board(4, {1: ["S"]}, turn=1)
    (after,) = results(p, "2")
    assert after[1] == ("N", "N", "N", "T18")


def test_blockade_blocks_the_four_backward() -> None:
    p = board(4, {0: ["T18"], 1: ["S"]})
    assert moves(p, "4") == set()
    q = board(4, {0: ["T20"], 1: ["S"]})
    assert moves(q, "4") == set()  # landing on it


def test_swapped_pawn_on_its_start_is_not_fresh() -> None:
    # Blue's pawn swapped onto its own start T16 is written T16 and does not block.
    p = board(4, {0: ["T16"], 1: ["T5"]})
    assert results(p, "J") == {rows(4, {0: ["T5"], 1: ["T16"]})}
    after = next(iter(successor_positions(p, "J")))
    assert after.pawn_strings()[1] == ["N", "N", "N", "T16"]
    q = board(4, {0: ["T5"], 1: ["T16"], 3: ["T14"]}, turn=3)
    assert "5 3:T14-T19" in moves(q, "5")


# -- into the home -------------------------------------------------------------------------


def test_home_is_entered_with_the_exact_count() -> None:
    p = board(4, {0: ["T62"]})
    assert moves(p, "3") == {"3 0:T62-H1"}
    assert moves(p, "6") == {"6 0:T62-H4"}
    assert moves(p, "8") == set()  # would go past H4: no extra lap under must_enter


def test_no_jumping_and_no_landing_on_a_pawn_in_the_home() -> None:
    p = board(4, {0: ["T62", "H2"]})
    assert moves(p, "3") == {"3 0:T62-H1"}
    assert moves(board(4, {0: ["T63", "H2"]}), "3") == set()  # would land on H2
    assert moves(p, "5") == set()  # jumps H2


def test_fresh_pawn_must_go_round_before_coming_home() -> None:
    p = board(4, {0: ["S"]})
    assert moves(p, "2") == {"2 0:S-T2"}


def test_non_fresh_pawn_on_own_start_turns_in() -> None:
    p = board(4, {0: ["T0"]})
    assert moves(p, "3") == {"3 0:T0-H3"}
    assert moves(p, "5") == set()


def test_pawn_reaching_own_start_exactly_stays_on_the_track() -> None:
    p = board(4, {0: ["T61"]})
    assert moves(p, "3") == {"3 0:T61-T0"}
    assert results(p, "3") == {rows(4, {0: ["T0"]})}


def test_other_seats_pawns_pass_a_start_without_turning_in() -> None:
    p = board(4, {1: ["T62"]}, turn=1)
    assert moves(p, "5") == {"5 1:T62-T3"}


def test_moves_inside_the_home() -> None:
    p = board(4, {0: ["H1", "T20"]})
    assert "A 0:H1-H2" in moves(p, "A")
    assert "2 0:H1-H3" in moves(p, "2")
    assert "3 0:H1-H4" in moves(p, "3")
    assert moves(p, "5") == {"5 0:T20-T25"}
    q = board(4, {0: ["H1", "H3", "T20"]})
    assert "3 0:H1-H4" not in moves(q, "3")  # past H3
    assert "A 0:H3-H4" in moves(q, "A")


def test_home_pawn_takes_part_of_a_seven() -> None:
    p = board(4, {0: ["H1", "T20"]})
    assert "7 0:H1-H4 0:T20-T24" in moves(p, "7")
    assert "7 0:T20-T24 0:H1-H4" in moves(p, "7")


def test_may_pass_lists_both_home_and_another_lap() -> None:
    p = board(4, {0: ["T62"]}, profile="keezspel")
    assert moves(p, "5") == {"5 0:T62-H3", "5 0:T62-T3"}
    assert moves(p, "8") == {"8 0:T62-T6"}  # home overshot: the lap is still legal
    q = board(4, {0: ["T0"]}, profile="keezspel")
    assert moves(q, "3") == {"3 0:T0-H3", "3 0:T0-T3"}


def test_must_enter_never_continues_along_the_track() -> None:
    p = board(4, {0: ["T62"]})
    assert moves(p, "5") == {"5 0:T62-H3"}


def test_pawn_in_home_cannot_be_captured_or_passed_by_others() -> None:
    p = board(4, {0: ["H1"], 1: ["T62"]}, turn=1)
    assert moves(p, "3") == {"3 1:T62-T1"}


# -- the jack ------------------------------------------------------------------------------


def test_jack_own_with_other() -> None:
    p = board(4, {0: ["T5"], 1: ["T20"], 2: ["T40"]})
    assert moves(p, "J") == {"J 0:T5<>1:T20", "J 0:T5<>2:T40"}


def test_jack_any_two() -> None:
    p = board(4, {0: ["T5"], 1: ["T20"], 2: ["T40"]}, profile="reiseditie")
    assert results(p, "J") == {
        rows(4, {0: ["T20"], 1: ["T5"], 2: ["T40"]}, profile="reiseditie"),
        rows(4, {0: ["T40"], 1: ["T20"], 2: ["T5"]}, profile="reiseditie"),
        rows(4, {0: ["T5"], 1: ["T40"], 2: ["T20"]}, profile="reiseditie"),
    }


def test_jack_any_two_without_own_pawns_on_the_track() -> None:
    p = board(4, {1: ["T20"], 2: ["T40"]}, profile="keezspel")
    assert results(p, "J") == {rows(4, {1: ["T40"], 2: ["T20"]}, profile="keezspel")}
    q = board(4, {1: ["T20"], 2: ["T40"]})
    assert moves(q, "J") == set()


def test_jack_never_swaps_two_pawns_of_one_seat() -> None:
    p = board(4, {0: ["T5", "T9"]}, profile="reiseditie")
    assert moves(p, "J") == set()


def test_jack_never_touches_blockade_nest_or_home_pawns() -> None:
    for prof in ("standard", "keezspel"):
        p = board(4, {0: ["T5", "H1"], 1: ["S", "H2"], 2: ["H1"]}, profile=prof)
        assert moves(p, "J") == set(), prof
        q = board(4, {0: ["S", "H1"], 1: ["T20"]}, profile=prof)
        assert moves(q, "J") == set(), prof


def test_jack_swaps_a_non_fresh_pawn_on_a_start() -> None:
    p = board(4, {0: ["T5"], 1: ["T16"]})
    assert results(p, "J") == {rows(4, {0: ["T16"], 1: ["T5"]})}


def test_jack_with_own_pawn_on_own_start_makes_it_lose_nothing_but_place() -> None:
    # Red's non-fresh pawn on T0 swapped away; blue's pawn lands on T0 (not its start).
    p = board(4, {0: ["T0"], 1: ["T20"]})
    assert results(p, "J") == {rows(4, {0: ["T20"], 1: ["T0"]})}


# -- the four ------------------------------------------------------------------------------


def test_four_from_start_lands_four_behind_it() -> None:
    for prof in ("standard", "keezspel"):
        for loc in ("S", "T0"):
            p = board(4, {0: [loc]}, profile=prof)
            assert moves(p, "4") == {f"4 0:{loc}-T60"}, (prof, loc)


def test_four_back_through_own_start_depends_on_four_back() -> None:
    p = board(4, {0: ["T2"]})
    assert moves(p, "4") == {"4 0:T2-T62"}
    q = board(4, {0: ["T2"]}, profile="keezspel")
    assert moves(q, "4") == set()


def test_four_back_landing_on_own_start_is_allowed_and_not_fresh() -> None:
    for prof in ("standard", "keezspel"):
        p = board(4, {0: ["T4"]}, profile=prof)
        assert results(p, "4") == {rows(4, {0: ["T0"]}, profile=prof)}


def test_four_back_never_enters_the_home_and_home_pawns_never_go_back() -> None:
    p = board(4, {0: ["T1", "H3"]})
    assert moves(p, "4") == {"4 0:T1-T61"}


def test_four_back_through_another_seats_start_under_from_start_only() -> None:
    p = board(4, {0: ["T18"]}, profile="keezspel")
    assert moves(p, "4") == {"4 0:T18-T14"}


def test_four_back_captures() -> None:
    p = board(4, {0: ["T10"], 1: ["T6"]})
    assert results(p, "4") == {rows(4, {0: ["T6"]})}


def test_four_back_wraps_below_zero() -> None:
    p = board(4, {1: ["T2"]}, turn=1)
    assert moves(p, "4") == {"4 1:T2-T62"}


# -- pass_own = false (nk), king_13 (reiseditie) -------------------------------------------


def test_pass_own_false_forbids_passing_own_pawns() -> None:
    p = board(4, {0: ["T3", "T5"]}, profile="nk")
    assert moves(p, "5") == {"5 0:T5-T10"}
    # Landing on it is a capture, not a pass.
    assert moves(p, "2") == {"2 0:T3-T5", "2 0:T5-T7"}
    # Other seats' pawns may be passed.
    q = board(4, {0: ["T3"], 1: ["T5"]}, profile="nk")
    assert moves(q, "5") == {"5 0:T3-T8"}


def test_pass_own_false_also_backward() -> None:
    p = board(4, {0: ["T10", "T8"]}, profile="nk")
    assert moves(p, "4") == {"4 0:T8-T4"}


def test_king_13_moves_thirteen() -> None:
    p = board(4, {0: ["T3"]}, profile="reiseditie")
    assert moves(p, "K") == {"K 0:N-S", "K 0:T3-T16"}
    q = board(4, {0: ["T3"]})
    assert moves(q, "K") == {"K 0:N-S"}


def test_queen_moves_twelve_and_the_other_numbers_their_value() -> None:
    p = board(4, {0: ["T3"]})
    for card, n in (
        ("2", 2),
        ("3", 3),
        ("5", 5),
        ("6", 6),
        ("8", 8),
        ("9", 9),
        ("10", 10),
        ("Q", 12),
    ):
        assert moves(p, card) == {f"{card} 0:T3-T{3 + n}"}


# -- the seven -----------------------------------------------------------------------------


def test_seven_split_over_two_pawns() -> None:
    p = board(4, {0: ["T3", "T20"]})
    got = moves(p, "7")
    assert "7 0:T3-T10" in got and "7 0:T20-T27" in got
    for k in range(1, 7):
        assert f"7 0:T3-T{3 + k} 0:T20-T{27 - k}" in got
        assert f"7 0:T20-T{20 + k} 0:T3-T{10 - k}" in got
    assert len(got) == 2 + 2 * 6


def test_seven_with_one_pawn_moves_it_seven() -> None:
    p = board(4, {0: ["T3"]})
    assert moves(p, "7") == {"7 0:T3-T10"}


def test_seven_must_use_all_steps() -> None:
    p = board(4, {0: ["T62"]})
    assert moves(p, "7") == set()  # 7 overshoots the home, and no second pawn


def test_seven_never_three_parts() -> None:
    p = board(4, {0: ["T3", "T20", "T40"]})
    assert all(len(m.parts) <= 2 for m, _ in successors(p, "7"))
    assert "7 0:T3-T5 0:T20-T22 0:T40-T43" not in moves(p, "7")


def test_seven_parts_judged_in_order_first_part_clears_the_way() -> None:
    p = board(4, {0: ["T3", "T5"]}, profile="nk")
    got = moves(p, "7")
    assert "7 0:T5-T8 0:T3-T7" in got  # T5 moved on first, T3 then passes nothing own
    assert "7 0:T3-T7 0:T5-T8" not in got  # T3 would pass T5


def test_seven_capture_happens_at_each_parts_landing() -> None:
    p = board(4, {0: ["T3", "T20"], 1: ["T6"]})
    assert rows(4, {0: ["T6", "T24"]}) in results(p, "7")
    # Then the vacated hole may be passed or landed on by the second part.
    q = board(4, {0: ["T3", "T5"], 1: ["T8"]})
    assert "7 0:T5-T8 0:T3-T7" in moves(q, "7")


def test_seven_passing_does_not_capture() -> None:
    p = board(4, {0: ["T3"], 1: ["T6"]})
    assert results(p, "7") == {rows(4, {0: ["T10"], 1: ["T6"]})}


def test_seven_first_part_capturing_blockade_is_impossible() -> None:
    p = board(4, {0: ["T14", "T20"], 1: ["S"]})
    got = moves(p, "7")
    assert all("0:T14-T1" not in m or "0:T14-T15" in m for m in got)
    assert "7 0:T14-T15 0:T20-T26" in got


# -- team control ---------------------------------------------------------------------------


def test_all_home_player_enters_partner_pawns() -> None:
    p = board(4, {0: HOME4})
    assert moves(p, "A") == {"A 2:N-S"}
    assert results(p, "A") == {rows(4, {0: HOME4, 2: ["S"]})}


def test_all_home_player_moves_partner_pawns_only() -> None:
    p = board(4, {0: HOME4, 1: ["T20"], 2: ["T40"]})
    assert moves(p, "5") == {"5 2:T40-T45"}
    assert moves(p, "J") == {"J 2:T40<>1:T20"}


def test_partner_pawns_turn_into_the_partners_home() -> None:
    p = board(4, {0: HOME4, 2: ["T30"]})
    assert moves(p, "5") == {"5 2:T30-H3"}


def test_not_yet_all_home_no_partner_control() -> None:
    p = board(4, {0: ["H1", "H2", "H3", "T20"], 2: ["T40"]})
    assert moves(p, "5") == {"5 0:T20-T25"}


def test_individual_play_never_controls_others() -> None:
    p = board(4, {0: HOME4, 2: ["T40"]}, teams="none")
    assert moves(p, "5") == set()
    q = board(3, {0: HOME4, 1: ["T20"]})
    assert moves(q, "5") == set()


def test_seven_remainder_goes_to_partner_after_last_own_pawn_comes_home() -> None:
    p = board(4, {0: ["H2", "H3", "H4", "T62"], 2: ["T40"], 1: ["T20"]})
    got = moves(p, "7")
    assert "7 0:T62-H1 2:T40-T44" in got
    assert not any(m.startswith("7 0:T62-H1 1:") for m in got)
    assert "7 2:T40-T44 0:T62-H1" not in got  # partner not yet controlled before


def test_game_ends_mid_seven_when_the_team_is_complete() -> None:
    p = board(4, {0: ["H2", "H3", "H4", "T62"], 2: HOME4, 1: ["T20"]})
    pairs = list(successors(p, "7"))
    texts = {str(m) for m, _ in pairs}
    assert "7 0:T62-H1" in texts
    after = next(a for m, a in pairs if str(m) == "7 0:T62-H1")
    assert after.winner() == (0, 2)


def test_seven_is_not_cut_short_by_another_seat_already_home() -> None:
    # Seat 2 has already won (individual play, 5 seats): seat 3's 7 still needs all 7
    # steps unless one of its own parts brings seat 3's last pawn home.
    p = board(5, {2: HOME4, 3: ["T40", "H2", "H3", "H4"], 4: ["T70"]}, turn=3)
    got = moves(p, "7")
    assert got == {"7 3:T40-T47"}
    q = board(5, {2: HOME4, 3: ["T47", "H2", "H3", "H4"], 4: ["T70"]}, turn=3)
    assert moves(q, "7") == {"7 3:T47-H1"}  # 2 steps, then seat 3 has won


def test_winner_individual_and_team() -> None:
    assert board(3, {1: HOME4}).winner() == (1,)
    assert board(3, {}).winner() is None
    assert board(4, {0: HOME4}).winner() is None
    assert board(4, {0: HOME4, 2: HOME4}).winner() == (0, 2)
    assert board(4, {1: HOME4, 3: HOME4}).winner() == (1, 3)
    assert board(4, {0: HOME4}, teams="none").winner() == (0,)
    assert board(6, {1: HOME4, 4: HOME4}).winner() == (1, 4)
    assert board(8, {3: HOME4, 7: HOME4}).winner() == (3, 7)


def test_partner_is_the_seat_opposite() -> None:
    for seats in (4, 6, 8):
        p = board(seats, {})
        for s in range(seats):
            assert p.partner(s) == (s + seats // 2) % seats
    for seats in (2, 3, 5, 7):
        assert board(seats, {}).partner(0) is None


def test_moves_are_for_the_seat_to_play() -> None:
    p = board(4, {0: ["T3"], 1: ["T20"]}, turn=1)
    assert moves(p, "5") == {"5 1:T20-T25"}
    for _, after in successors(p, "5"):
        assert after.turn == 2
    q = board(4, {3: ["T50"]}, turn=3)
    assert all(a.turn == 0 for _, a in successors(q, "5"))
