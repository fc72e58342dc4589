"""A pawn knocked off the board and not put back: asked back after ``missing_ms``."""

from __future__ import annotations

import pytest
from referee_traces import ev, move, no_flags, play, position, setup

from keezbord.host.referee.trace import TraceError, setup_from_dict

# Seat 0 (red) on T5 and T20, seat 1 (blue) on T12; seat 0 to play.
POS = position(0, ["T5", "T20", "N", "N"], ["T12", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def test_knocked_pawn_missing_for_long_is_asked_back_and_resolved_when_back() -> None:
    r = play(
        setup(POS),
        ev(1000, "lift", "T12"),
        ev(10_900, "tick"),
        ev(11_100, "tick"),
        ev(15_000, "place", "T12"),
        ev(15_600, "tick"),
    )
    assert r.frame_at(10_900).get("T12") is None
    [missing] = r.of("missing")
    assert missing == {
        "t": 11_000,
        "type": "missing",
        "seat": 0,
        "holes": ["T12"],
        "reason": "a pawn is missing: put it back on T12",
    }
    [rec] = [d for d in r.records if d["type"] == "missing"]
    assert rec["reason"]["nl"] == "een pion ontbreekt: zet hem terug op T12"
    assert r.frame_at(11_000).get("T12") == "restore"
    assert r.of("resolved") == [{"t": 15_000, "type": "resolved", "seat": 0}]
    assert r.frame_at(15_000).get("T12") is None
    assert r.moves == [] and r.of("illegal") == []
    assert r.state.flag is None and r.state.missing == ()


def test_missing_pawn_of_a_tapped_card_it_cannot_move_is_asked_back_once() -> None:
    # A 3 cannot move blue's pawn: it is no move in progress, only a missing pawn.
    r = play(setup(POS), ev(500, "card", "3"), ev(1000, "lift", "T12"), ev(30_000, "tick"))
    assert [d["holes"] for d in r.of("missing")] == [["T12"]]
    assert r.frame_at(30_000).get("T12") == "restore"


def test_a_slow_move_with_the_pawn_in_hand_is_not_a_missing_pawn() -> None:
    # The pawn a 3 can move is held in hand for 9 s, then played.
    r = play(
        setup(POS),
        ev(500, "card", "3"),
        ev(1000, "lift", "T5"),
        ev(10_000, "place", "T8"),
        ev(11_000, "tick"),
    )
    assert r.of("missing") == [] and r.of("illegal") == []
    assert r.moves == ["3 0:T5-T8"]
    # Held far longer than the timeout: still a move in progress, never a missing pawn.
    r = play(setup(POS), ev(500, "card", "3"), ev(1000, "lift", "T5"), ev(60_000, "tick"))
    assert r.of("missing") == []


def test_no_move_is_accepted_while_a_pawn_is_missing() -> None:
    # A legal 3 is made while blue's pawn is off the board: nothing is judged.
    r = play(
        setup(POS),
        ev(500, "card", "3"),
        ev(600, "lift", "T12"),
        move(1000, "T5", "T8"),
        ev(20_000, "tick"),
    )
    assert r.moves == []
    [missing] = r.of("missing")
    assert missing["holes"] == ["T12"] and missing["t"] == 1200 + 10_000
    # Put back: the flag clears and the move on the board is taken.
    r = play(
        setup(POS),
        ev(500, "card", "3"),
        ev(600, "lift", "T12"),
        move(1000, "T5", "T8"),
        ev(20_000, "place", "T12"),
        ev(21_000, "tick"),
    )
    assert [d["type"] for d in r.decisions if d["type"] in ("missing", "resolved", "move")] == [
        "missing",
        "resolved",
        "move",
    ]
    assert r.moves == ["3 0:T5-T8"]


def test_put_back_on_the_wrong_hole_is_then_flagged_as_illegal() -> None:
    r = play(setup(POS), ev(1000, "lift", "T12"), ev(12_000, "place", "T13"), ev(13_000, "tick"))
    assert [d["type"] for d in r.decisions if d["type"] != "turn"] == [
        "missing",
        "resolved",
        "illegal",
    ]


def test_missing_ms_is_configurable_and_zero_turns_it_off() -> None:
    r = play(setup(POS, missing_ms=4000), ev(1000, "lift", "T12"), ev(6000, "tick"))
    assert r.of("missing")[0]["t"] == 5000
    r = play(setup(POS, missing_ms=0), ev(1000, "lift", "T12"), ev(60_000, "tick"))
    assert r.of("missing") == []
    with pytest.raises(TraceError, match="missing_ms"):
        setup_from_dict({"type": "setup", **setup(POS, missing_ms=100)})


# Seat 0 on T10 and T13, seat 1 fresh on its start T16 (the T13 pawn cannot move a 3).
OWN_CAPTURE = position(0, ["T10", "T13", "N", "N"], ["S", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def test_own_victim_held_long_is_never_asked_back() -> None:
    r = play(
        setup(OWN_CAPTURE),
        ev(1000, "card", "3"),
        ev(1100, "lift", "T13"),
        ev(13000, "tick"),
        move(13100, "T10", "T13"),
        ev(13500, "place", "N0.3"),
    )
    assert r.of("missing") == []
    assert r.moves == ["3 0:T10-T13"]
    no_flags(r)
