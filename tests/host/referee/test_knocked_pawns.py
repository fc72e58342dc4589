"""A pawn knocked right after a move (a sleeve, the table): put back where the move put it,
the move counts; the swap of a jack is never dropped."""

from __future__ import annotations

from referee_traces import ev, move, play, position, setup, swap

# Red on T19 swaps with blue on T31 (3 seats, bordspel; blue also fresh on its start).
KNOCK = setup(
    position(
        0, ["T19", "N", "N", "N"], ["T31", "S", "N", "N"], ["N"] * 4, seats=3, profile="bordspel"
    )
)
SWAP_THEN_KNOCK = [
    ev(1000, "card", "J"),
    ev(1163, "lift", "T19"),
    ev(1303, "lift", "T31"),
    ev(1573, "place", "T31"),
    ev(1822, "place", "T19"),
    ev(2097, "lift", "T19"),  # a sleeve knocks the swapped (blue) pawn within the settle time
    ev(2125, "place", "T20"),
]


def test_knocked_swapped_pawn_put_back_keeps_the_swap() -> None:
    r = play(KNOCK, *SWAP_THEN_KNOCK, ev(6888, "lift", "T20"), ev(7083, "place", "T19"))
    [flag] = r.of("illegal")
    assert flag["t"] == 2625 and flag["restore"] == [["T20", "T19"]]
    # The reason names the pawn that was knocked, by its colour, and says the swap counts.
    assert "blue pawn from T20 back on T19" in flag["reason"]
    assert "J 0:T19<>1:T31" in flag["reason"]
    nl = next(d for d in r.records if d["type"] == "illegal")["reason"]["nl"]
    assert "blauwe pion van T20 terug op T19" in nl
    assert [d["type"] for d in r.decisions if d["t"] >= 7083][:3] == ["resolved", "move", "turn"]
    assert r.moves == ["J 0:T19<>1:T31"]
    assert r.pawns()[0] == ["N", "N", "N", "T31"] and "T19" in r.pawns()[1]
    assert r.of("ambiguous") == []


# Purple (seat 4) on T60 swaps with blue on T0 (6 seats, wikipedia); the pawn now on T0
# (purple's) slides to T2 and is put back.
PURPLE = position(
    4,
    ["N"] * 4,
    ["T0", "N", "N", "N"],
    ["N"] * 4,
    ["N"] * 4,
    ["T60", "N", "N", "N"],
    ["N"] * 4,
    seats=6,
    profile="wikipedia",
)


def test_the_other_pawn_of_the_swap_knocked() -> None:
    r = play(
        setup(PURPLE),
        ev(1000, "card", "J"),
        swap(1100, "T60", "T0"),
        ev(1700, "lift", "T0"),
        ev(1750, "place", "T2"),
        ev(5000, "lift", "T2"),
        ev(5200, "place", "T0"),
    )
    [flag] = r.of("illegal")
    assert "purple pawn from T2 back on T0" in flag["reason"]
    assert "blue" not in flag["reason"]
    assert r.moves == ["J 4:T60<>1:T0"]
    assert r.pawns()[4] == ["N", "N", "N", "T0"] and r.pawns()[1] == ["N", "N", "N", "T60"]
    assert r.of("ambiguous") == []


def test_knocked_pawn_put_back_with_both_in_hand_asks() -> None:
    # Both pawns of the swap in hand while putting the knocked one back: the touches
    # cannot tell the swap from a restore. The referee asks, lighting both; it never
    # forgets the swap silently, and the swap made again is taken.
    base = [
        *SWAP_THEN_KNOCK,
        ev(6800, "lift", "T20"),
        ev(6900, "lift", "T31"),
        ev(7100, "place", "T19"),
        ev(7200, "place", "T31"),
    ]
    r = play(KNOCK, *base)
    [amb] = r.of("ambiguous")
    assert amb["moves"] == ["J 0:T19<>1:T31"] and amb["holes"] == ["T19", "T31"]
    assert "red on T19, blue on T31" in amb["reason"]
    frame = r.frame_at(7800)
    assert frame.get("T19") == "source" and frame.get("T31") == "source"
    assert r.moves == []
    r = play(KNOCK, *base, swap(8000, "T19", "T31"))
    assert r.moves == ["J 0:T19<>1:T31"]
    assert r.pawns()[0] == ["N", "N", "N", "T31"]


def test_swap_taken_back_one_pawn_at_a_time_is_a_restore() -> None:
    # After the knock's flag the player takes the whole swap back through a third hole,
    # one pawn in hand at a time: the touches say the pawns stand as before the move.
    r = play(
        KNOCK,
        *SWAP_THEN_KNOCK,
        move(3000, "T20", "T22"),  # blue out of the way
        move(3400, "T31", "T19"),  # red back
        move(3800, "T22", "T31"),  # blue back
        ev(5000, "tick"),
    )
    assert r.moves == [] and r.of("ambiguous") == []
    assert [d["type"] for d in r.decisions].count("resolved") == 1
    assert "T19" in r.pawns()[0] and "T31" in r.pawns()[1]


def test_knocked_moved_pawn_goes_back_where_the_move_put_it() -> None:
    # The 3 on the board at rest, then its pawn knocked on one hole: the board is as
    # near the position before (T5) as the move's (T8); the move shown wins the tie.
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1500, "lift", "T8"),
        ev(1530, "place", "T9"),
        ev(3000, "tick"),
    )
    [flag] = r.of("illegal")
    assert flag["restore"] == [["T9", "T8"]]
    assert flag["reason"] == "the move 3 0:T5-T8 counts: put the red pawn from T9 back on T8"
    assert r.frame_at(2500).get("T8") == "restore"
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1500, "lift", "T8"),
        ev(1530, "place", "T9"),
        move(4000, "T9", "T8"),
    )
    assert r.moves == ["3 0:T5-T8"] and r.of("ambiguous") == []


# Two seats (nk): blue swaps its T2 pawn with red's T20, then knocks its own T8 pawn.
NK = position(1, ["N", "S", "T20", "H4"], ["N", "T2", "T8", "H3"], seats=2, profile="nk")


def test_knocked_pawn_put_back_with_a_swapped_pawn_in_hand() -> None:
    # Put back holding a swapped pawn too: the colours could be either of two swaps
    # (T2 or T8 with T20), never the position before; only T2 and T20 were ever empty
    # at once, so the swap is the T2 one.
    r = play(
        setup(NK, dealer=0),
        ev(1000, "card", "J"),
        swap(1100, "T20", "T2"),
        ev(1900, "lift", "T8"),
        ev(2000, "place", "T9"),
        ev(5000, "lift", "T9"),
        ev(5200, "lift", "T2"),
        ev(5300, "place", "T8"),
        ev(5500, "place", "T2"),
    )
    [flag] = r.of("illegal")
    assert "the move J 1:T2<>0:T20 counts" in flag["reason"]
    assert r.moves == ["J 1:T2<>0:T20"] and r.of("ambiguous") == []
