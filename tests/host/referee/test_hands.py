"""hands.py: which colour stands where, as the touches carried the pawns (issue 22)."""

from __future__ import annotations

from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.host.referee import hands
from keezbord.host.referee.recognize import board_of
from keezbord.host.referee.state import Worlds

# Red on T5 and T20, blue on T10, the rest in their nests.
POS = Position.from_dict(
    {
        "seats": 4,
        "pawns": [["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4],
    }
)
SWAPPED = Position.from_dict(
    {
        "seats": 4,
        "pawns": [["T10", "T20", "N", "N"], ["T5", "N", "N", "N"], ["N"] * 4, ["N"] * 4],
    }
)


def carry(worlds: Worlds, *moves: tuple[str, str]) -> Worlds:
    """Lift every first hole, then put down on every second one (all in hand at once)."""
    for a, _ in moves:
        worlds = hands.lift(worlds, a)
    for _, b in moves:
        worlds = hands.place(worlds, b)
    return worlds


def test_a_board_showing_the_position_starts_one_world() -> None:
    worlds = hands.start(POS, board_of(POS))
    assert len(worlds) == 1 and hands.shows(worlds[0], POS)
    assert hands.owners(worlds[0]) == {"T5": 0, "T20": 0, "T10": 1}
    assert hands.start(POS, board_of(POS) - {"T5"}) == ()  # not that position: lost


def test_one_pawn_in_hand_keeps_its_colour() -> None:
    worlds = carry(hands.start(POS, board_of(POS)), ("T5", "T7"))
    assert hands.certain(worlds) is not None
    assert hands.owners(worlds[0])["T7"] == 0
    # Taken round through a third hole one at a time, a swap is known to be made.
    worlds = carry(hands.start(POS, board_of(POS)), ("T5", "T6"))
    worlds = carry(worlds, ("T10", "T5"))
    worlds = carry(worlds, ("T6", "T10"))
    world = hands.certain(worlds)
    assert world is not None and hands.shows(world, SWAPPED) and not hands.shows(world, POS)


def test_two_pawns_in_hand_keep_both_readings() -> None:
    worlds = carry(hands.start(POS, board_of(POS)), ("T5", "T5"), ("T10", "T10"))
    assert len(worlds) == 2 and hands.certain(worlds) is None
    assert hands.disputed(worlds) == {"T5", "T10"}
    assert len(hands.narrow(worlds, [SWAPPED])) == 1
    assert len(hands.narrow(worlds, [POS, SWAPPED])) == 2
    # Two pawns of one colour in hand: the colours are certain, which pawn is which not.
    same = carry(hands.start(POS, board_of(POS)), ("T5", "T20"), ("T20", "T5"))
    world = hands.certain(same)
    assert len(same) == 2 and world is not None and hands.shows(world, POS)
    # A new turn starts its origins where the pawns stand: one world again.
    assert len(hands.rebase(same)) == 1


def position(*rows: list[str]) -> Position:
    return Position.from_dict({"seats": 4, "pawns": [list(r) for r in rows]})


def test_a_move_fits_only_where_its_pawns_went() -> None:
    # Red's T5 pawn on to T8 (a 3); then the T20 pawn to red's nest. A 7 "T5-T8 and
    # T20-T8" (capturing its own T8 pawn) gives the same colours, but the pawn on T8 is
    # the one from T5: that 7 is no reading of these touches.
    rest = (["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)
    after3 = position(["T8", "T20", "N", "N"], *rest)
    worlds = carry(hands.start(POS, board_of(POS)), ("T5", "T8"))
    assert hands.fits(worlds[0], POS, parse_move("3 0:T5-T8", POS.topology), after3)
    worlds = carry(worlds, ("T20", "N0.4"))
    seven = parse_move("7 0:T5-T8 0:T20-T8", POS.topology)
    after7 = position(["T8", "N", "N", "N"], *rest)
    assert hands.shows(worlds[0], after7) and not hands.fits(worlds[0], POS, seven, after7)
    # A jack swap made through a third hole, one pawn in hand at a time, fits.
    one = carry(hands.start(POS, board_of(POS)), ("T5", "T6"))
    one = carry(carry(one, ("T10", "T5")), ("T6", "T10"))
    assert hands.fits(one[0], POS, parse_move("J 0:T5<>1:T10", POS.topology), SWAPPED)


def test_a_captured_pawn_in_another_seats_nest_is_not_the_position() -> None:
    worlds = carry(hands.start(POS, board_of(POS)), ("T10", "N0.4"))
    assert not hands.shows(worlds[0], POS)
    assert hands.owners(worlds[0]).get("T10") is None


def test_switches_that_contradict_every_world_lose_the_colours() -> None:
    start = hands.start(POS, board_of(POS))
    assert hands.lift(start, "T33") == ()  # no pawn there in any world
    assert hands.place(start, "T33") == ()  # a pawn from nowhere
    # Too many readings (many pawns of many colours in hand at once): lost.
    many = Position.from_dict(
        {
            "seats": 4,
            "pawns": [
                ["T1", "T2", "N", "N"],
                ["T3", "T4", "N", "N"],
                ["T5", "T6", "N", "N"],
                ["T7", "T8", "N", "N"],
            ],
        }
    )
    holes = [f"T{i}" for i in range(1, 9)]
    assert carry(hands.start(many, board_of(many)), *((h, h) for h in holes)) == ()
