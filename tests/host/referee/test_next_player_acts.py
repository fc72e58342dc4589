"""The next player does not wait: a move is taken as soon as the next player acts, and a
pawn that is no part of the move taken is flagged as such."""

from __future__ import annotations

from referee_traces import ev, move, no_flags, play, position, setup


def test_next_player_lifts_within_the_settle_time() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1500, "lift", "T10"),
        ev(1700, "card", "5"),
        ev(1900, "place", "T15"),
    )
    assert r.moves == ["3 0:T5-T8", "5 1:T10-T15"]
    assert r.of("move")[0]["t"] == 1500
    no_flags(r)


def test_own_pawn_lift_does_not_close_the_move() -> None:
    # Changing one's mind: lifting another pawn the card can move keeps the turn open.
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1400, "lift", "T20"),
        ev(1450, "lift", "T8"),
        ev(1600, "place", "T5"),
        ev(1700, "place", "T23"),
    )
    assert r.moves == ["3 0:T20-T23"]


CLOSED = position(
    1, ["T40", "N", "N", "N"], ["T2", "N", "N", "N"], ["T50", "N", "N", "N"], ["N"] * 4
)


def test_extra_pawn_after_the_move_was_taken_says_so() -> None:
    r = play(
        setup(CLOSED, dealer=0),
        ev(1000, "card", "10"),
        move(1100, "T2", "T12"),
        ev(1500, "lift", "N1.1"),  # blue's own pawn the 10 cannot move: the move is taken
        ev(1700, "place", "T16"),
        ev(5000, "tick"),
    )
    assert r.moves == ["10 1:T2-T12"] and r.of("move")[0]["t"] == 1500
    [flag] = r.of("illegal")
    assert flag["seat"] == 2 and flag["restore"] == [["T16", "N1.1"]]
    assert flag["reason"] == "your move 10 1:T2-T12 was taken; this pawn is not part of it"
    nl = next(d for d in r.records if d["type"] == "illegal")["reason"]["nl"]
    assert nl == "je zet 10 1:T2-T12 is al genomen; deze pion hoort er niet bij"
    assert "card" not in flag["reason"]
