"""The page's drawing of whose pawn stands where (keezbord/host/sim/pawns.py)."""

from __future__ import annotations

from keezbord.engine.position import Position
from keezbord.host.events import HoleEvent
from keezbord.host.referee import board_of
from keezbord.host.sim.pawns import PawnTracker

POS = Position.from_dict(
    {
        "seats": 4,
        "profile": "standard",
        "turn": 0,
        "pawns": [
            ["T3", "N", "N", "N"],
            ["T20", "N", "N", "N"],
            ["N", "N", "N", "N"],
            ["N", "N", "N", "N"],
        ],
    }
)


def test_colours_follow_the_position_and_a_lifted_pawn_keeps_its_seat() -> None:
    pawns = PawnTracker()
    pawns.recolour(POS, board_of(POS))
    assert pawns.pawn_seat["T3"] == 0 and pawns.pawn_seat["T20"] == 1
    assert pawns.held == []
    pawns.track(HoleEvent(1, "lift", "T20"))
    assert pawns.held == [1] and "T20" not in pawns.pawn_seat
    pawns.track(HoleEvent(2, "place", "T24"), by="bot")
    assert pawns.pawn_seat["T24"] == 1 and pawns.held == []
    assert pawns.last == {"action": "place", "hole": "T24", "by": "bot"}


def test_a_pawn_put_in_a_nest_is_that_nests_seats() -> None:
    pawns = PawnTracker()
    pawns.recolour(POS, board_of(POS) - {"T3"})  # seat 0's pawn is off the board
    assert pawns.held == [0]
    pawns.track(HoleEvent(1, "lift", "T20"))
    assert pawns.held == [0, 1]
    assert "N0.4" not in board_of(POS)
    pawns.track(HoleEvent(2, "place", "N0.4"))  # the nest says whose: not the last lifted
    assert pawns.pawn_seat["N0.4"] == 0 and pawns.held == [1]
