"""A capture read right: a seven capturing its own pawn, and the next player's capture
that only looks like one (no card reader)."""

from __future__ import annotations

from referee_traces import ev, flags, move, no_flags, play, position, setup

SEVEN = position(0, ["T10", "T15", "T17", "T40"], ["N"] * 4, ["N"] * 4, ["N"] * 4)


def test_seven_capturing_own_pawn_is_not_cut_short() -> None:
    r = play(
        setup(SEVEN),
        ev(1000, "card", "7"),
        ev(1100, "lift", "T15"),
        ev(1300, "place", "N0.1"),  # own pawn off T15
        move(1500, "T10", "T15"),
        ev(2500, "tick"),  # pause: a first part
        move(3000, "T40", "T42"),
    )
    assert r.moves == ["7 0:T10-T15 0:T40-T42"]
    assert sorted(r.pawns()[0]) == sorted(["N", "T15", "T17", "T42"])
    no_flags(r)


# Blue (seat 1) on T26 and T29, yellow on T19; no card reader.
OWN_SEVEN = position(1, ["N"] * 4, ["T26", "T29", "N", "N"], ["T19", "N", "N", "N"], ["N"] * 4)


def test_next_players_capture_is_no_seven_capturing_its_own_pawn() -> None:
    # Blue's 5 (T26-T31), then yellow's 10 capturing blue's T29 pawn, victim first.
    # With the victim in blue's nest the board is also blue's 7 "T26-T31 T29-T31"
    # capturing its own pawn on T31: but T31 was never emptied, its pawn is the one from
    # T26, so the touches rule that 7 out (game 511531 of the big run).
    r = play(
        setup(OWN_SEVEN, dealer=0, card_reader=False),
        move(1000, "T26", "T31"),
        ev(1640, "lift", "T29"),
        ev(1870, "place", "N1.4"),
        ev(2110, "lift", "T19"),
        ev(2250, "place", "T29"),
        ev(9000, "tick"),
    )
    assert r.moves == ["5 1:T26-T31", "10 2:T19-T29"]
    assert flags(r) == []
