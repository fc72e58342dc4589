"""Without a card reader: the next player's touch ends the waiting turn, and quick chains
of turns (swaps, swaps back, pawns counted hole by hole) are read turn by turn."""

from __future__ import annotations

from referee_traces import ev, flags, move, no_flags, play, position, setup


def test_no_reader_next_player_ends_the_waiting_turn() -> None:
    r = play(setup(card_reader=False), move(1000, "T5", "T8"), move(2000, "T10", "T15"))
    assert r.moves == ["3 0:T5-T8", "5 1:T10-T15"]
    assert r.of("move")[0]["t"] == 2000
    no_flags(r)


def test_no_reader_second_part_of_a_seven_is_still_awaited() -> None:
    r = play(setup(card_reader=False), move(1000, "T5", "T8"), move(2000, "T20", "T24"))
    assert r.moves == ["7 0:T5-T8 0:T20-T24"]


CHAIN = position(
    0,
    ["T28", "N", "N", "N"],
    ["T34", "N", "N", "N"],
    ["T44", "N", "N", "N"],
    ["T11", "N", "N", "N"],
)


def test_no_reader_two_jack_swaps_in_a_row() -> None:
    # Seat 1 swaps the pawn seat 0 just moved, seat 2 at once swaps that same hole again,
    # seat 3 moves on: the board's look never changes, only whose turn each lift ends.
    r = play(
        setup(CHAIN, card_reader=False),
        move(1000, "T28", "T30"),
        ev(1500, "lift", "T30"),
        ev(1600, "lift", "T34"),
        ev(1800, "place", "T34"),
        ev(2000, "place", "T30"),
        ev(2300, "lift", "T30"),
        ev(2400, "lift", "T44"),
        ev(2600, "place", "T30"),
        ev(2700, "place", "T44"),
        move(2900, "T11", "T13"),
        ev(7000, "tick"),
    )
    assert [m.split()[0] for m in r.moves] == ["2", "J", "J", "2"]
    assert r.moves[3] == "2 3:T11-T13"
    assert r.pawns()[0][-1] == "T34" and "T44" in r.pawns()[1] and "T30" in r.pawns()[2]
    no_flags(r)


SWAP_BACK = position(0, ["T6", "H1", "H2", "H4"], ["T14", "T15", "H3", "H4"], seats=2, profile="nk")


def test_no_reader_swap_swapped_back_then_captured() -> None:
    # Two seats: seat 0 swaps, seat 1 swaps back at once, seat 0 captures with an 8 and
    # seat 1 re-enters the captured pawn. One 8 of seat 0 fits the board as well; the
    # chain of turns is taken because seat 1's own lifts end each turn (game 2038).
    r = play(
        setup(SWAP_BACK, card_reader=False),
        ev(1000, "lift", "T14"),
        ev(1200, "lift", "T6"),
        ev(1400, "place", "T14"),
        ev(1600, "place", "T6"),
        ev(1800, "lift", "T14"),
        ev(1900, "lift", "T6"),
        ev(2100, "place", "T6"),
        ev(2300, "place", "T14"),
        ev(2600, "lift", "T14"),
        ev(2800, "place", "N1.4"),
        move(2900, "T6", "T14"),
        ev(3300, "lift", "N1.4"),
        ev(3500, "place", "T16"),
        ev(8000, "tick"),
    )
    assert [m.split()[0] for m in r.moves] == ["J", "J", "8", "A"]
    no_flags(r)


COUNTED = position(
    1,
    ["N", "T11", "T18", "H4"],
    ["S", "T31", "T37", "H4"],
    ["N", "N", "N", "H4"],
    seats=3,
    profile="reiseditie",
)


# Game 2297: seat 1 counts a 9 hole by hole (over its home holes too), seat 2 at once
# swaps that pawn, seat 0 moves it back 4, seat 1 plays a 10, seat 2 swaps again.
COUNTED_EVENTS = [
    (42257, "lift", "T16"),
    (42304, "place", "H1.1"),
    (42336, "lift", "H1.1"),
    (42370, "place", "T17"),
    (42427, "lift", "T17"),
    (42458, "place", "H1.2"),
    (42521, "lift", "H1.2"),
    (42595, "place", "H1.3"),
    (42627, "lift", "H1.3"),
    (42691, "place", "T19"),
    (42806, "lift", "T19"),
    (42854, "place", "T20"),
    (42894, "lift", "T20"),
    (42941, "place", "T21"),
    (43044, "lift", "T21"),
    (43117, "place", "T22"),
    (43260, "lift", "T22"),
    (43338, "place", "T23"),
    (43430, "lift", "T23"),
    (43479, "place", "T24"),
    (43525, "lift", "T24"),
    (43582, "place", "T25"),
    (43741, "lift", "T25"),
    (43881, "lift", "T11"),
    (43947, "place", "T25"),
    (44205, "place", "T11"),
    (44343, "lift", "T25"),
    (44344, "place", "T25"),
    (44345, "lift", "T25"),
    (44539, "place", "T21"),
    (44954, "lift", "T31"),
    (44955, "place", "T31"),
    (44956, "lift", "T31"),
    (45003, "place", "T41"),
    (45429, "lift", "T21"),
    (45535, "lift", "T11"),
    (45736, "place", "T11"),
    (45954, "place", "T21"),
    (45955, "lift", "T21"),
    (45956, "place", "T21"),
]


def test_no_reader_counting_does_not_crowd_out_the_real_end() -> None:
    # Every hole counted over is a legal end without a reader; the splits of one pawn's
    # path supersede each other, so the lift that really ended the 9 is still held
    # when the chain is decided.
    r = play(
        {
            "seats": 3,
            "profile": "reiseditie",
            "dealer": 0,
            "position": COUNTED,
            "card_reader": False,
        },
        *[ev(t, a, h) for t, a, h in COUNTED_EVENTS],
        ev(52000, "tick"),
    )
    assert [m.split()[0] for m in r.moves] == ["9", "J", "4", "10", "J"]
    assert r.moves[0] == "9 1:S-T25"
    no_flags(r)


# Seat 1 sits out; seat 2 (all home) plays its partner seat 0's pawns.
SLOW_HOME = position(
    1,
    ["T58", "N", "N", "H3"],
    ["N", "N", "N", "H2"],
    ["H1", "H2", "H3", "H4"],
    ["T40", "N", "N", "N"],
)


def test_no_reader_pawn_counted_slowly_home_is_one_move() -> None:
    # Seat 0 counts a 2 into its home, resting 110 ms on H0.1 and passing over T1; the
    # partner then enters seat 0's pawn. Ending seat 0's turn on H0.1 would make the
    # partner's turn a mere carrying on with the same pawn (bench gap 100 ms, game 7018).
    r = play(
        {
            "seats": 4,
            "profile": "standard",
            "dealer": 0,
            "position": SLOW_HOME,
            "card_reader": False,
        },
        ev(500, "discard", ["Q", "3"]),
        move(1000, "T58", "T0"),
        move(2000, "T40", "T45"),
        ev(3000, "lift", "T0"),
        ev(3040, "place", "H0.1"),
        ev(3150, "lift", "H0.1"),
        ev(3220, "place", "T1"),
        ev(3300, "lift", "T1"),
        ev(3450, "place", "H0.2"),
        ev(3550, "lift", "N0.1"),
        ev(3600, "place", "T0"),
        ev(9000, "tick"),
    )
    assert r.moves == ["6 0:T58-T0", "5 3:T40-T45", "2 0:T0-H2", "A 0:N-S"]
    assert [d["seat"] for d in r.of("move")] == [2, 3, 0, 2]
    no_flags(r)


# Seat 2 on T15 and T45, seat 0 on T3, seat 1 on T21; 3 seats (reiseditie), no reader.
COUNTED_ON = position(
    2,
    ["N", "N", "N", "T3"],
    ["N", "N", "T21", "H3"],
    ["N", "N", "T15", "T45"],
    seats=3,
    profile="reiseditie",
)


def test_pawn_counted_on_from_the_hole_just_filled_is_one_move() -> None:
    # Seat 2's 3 counted hole by hole, T45, T46, T47, T0, quickly (56 ms on T47); seat 0
    # at once captures seat 2's T15 pawn with a Q (victim first, counted T3..T15), then
    # seat 1's 9. The board first rests after seat 0's move, wrong for seat 2's turn:
    # the reading "seat 2's 2 ended on T47, seat 0 lifted that pawn on to T0" looked
    # like seat 0's move in progress and, as the earliest split, was taken: the 3 read
    # as a 2 and the game derailed (the fuzzer's game 621159). A pawn lifted from a hole
    # this move filled, before the board rested, and put down on the next hole is the
    # same hand counting it on: no end of the move.
    count = [
        ev(1000, "lift", "T45"),
        ev(1069, "place", "T46"),
        ev(1208, "lift", "T46"),
        ev(1263, "place", "T47"),
        ev(1319, "lift", "T47"),
        ev(1473, "place", "T0"),
    ]
    capture = [ev(1939, "lift", "T15"), ev(2047, "place", "N2.3")]
    t = 2087
    for h in range(3, 15):
        capture += [ev(t, "lift", f"T{h}"), ev(t + 60, "place", f"T{h + 1}")]
        t += 140
    tail = [ev(4396, "lift", "T21"), ev(4438, "place", "T30"), ev(9000, "tick")]
    r = play(setup(COUNTED_ON, card_reader=False), *count, *capture, *tail)
    assert r.moves == ["3 2:T45-T0", "Q 0:T3-T15", "9 1:T21-T30"]
    assert flags(r) == []
