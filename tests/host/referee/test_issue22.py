"""Issue 22: the fuzzer's last misreadings, each as its trace with the decisions asserted."""

from __future__ import annotations

from typing import Any

from referee_traces import ev, move, play, position

from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.referee.state import Decision, Input
from keezbord.host.referee.step import new_game, step


def setup(pos: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "seats": pos["seats"],
        "profile": pos["profile"],
        "dealer": pos["seats"] - 1,
        "position": pos,
        **extra,
    }


def flags(r: Any) -> list[str]:
    return [d["type"] for d in r.decisions if d["type"] in ("illegal", "ambiguous", "missing")]


# -- 1: a jack swap with a knocked pawn is never dropped ------------------------------------

# Red on T19 swaps with blue on T31 (3 seats, bordspel; blue also fresh on its start).
KNOCK = {
    "seats": 3,
    "profile": "bordspel",
    "dealer": 2,
    "position": {
        "seats": 3,
        "profile": "bordspel",
        "turn": 0,
        "pawns": [["T19", "N", "N", "N"], ["T31", "S", "N", "N"], ["N", "N", "N", "N"]],
    },
}
SWAP_THEN_KNOCK = [
    ev(1000, "card", "J"),
    ev(1163, "lift", "T19"),
    ev(1303, "lift", "T31"),
    ev(1573, "place", "T31"),
    ev(1822, "place", "T19"),
    ev(2097, "lift", "T19"),  # a sleeve knocks the swapped (blue) pawn within the settle time
    ev(2125, "place", "T20"),
]


def test_misreading1_knocked_swapped_pawn_put_back_keeps_the_swap() -> None:
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


def test_misreading1_the_other_pawn_of_the_swap_knocked() -> None:
    r = play(
        setup(PURPLE),
        ev(1000, "card", "J"),
        ev(1100, "lift", "T60"),
        ev(1200, "lift", "T0"),
        ev(1400, "place", "T60"),
        ev(1500, "place", "T0"),
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


def test_misreading1_knocked_pawn_put_back_with_both_in_hand_asks() -> None:
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
    r = play(
        KNOCK,
        *base,
        ev(8000, "lift", "T19"),
        ev(8100, "lift", "T31"),
        ev(8300, "place", "T19"),
        ev(8400, "place", "T31"),
    )
    assert r.moves == ["J 0:T19<>1:T31"]
    assert r.pawns()[0] == ["N", "N", "N", "T31"]


def test_misreading1_swap_taken_back_one_pawn_at_a_time_is_a_restore() -> None:
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


# -- 2: an unknown card name is the referee's card_rejected, not a refused trace -------------


def test_misreading2_unknown_card_name_is_rejected_and_the_game_goes_on() -> None:
    start = {"seats": 4, "profile": "standard", "dealer": 3}
    r = play(
        start,
        ev(1000, "card", "X"),
        ev(1050, "card", "K\n"),  # whole names only: not read as a king
        ev(1100, "card", "k"),  # FORMATS writes K; an alias in a trace is no card either
        ev(1200, "card", "A"),
        move(1300, "N0.1", "T0"),
    )
    rejected = r.of("card_rejected")
    assert [d["card"] for d in rejected] == ["X", "K\n", "k"]
    assert all("unknown card" in d["reason"] for d in rejected)
    nl = [d["reason"]["nl"] for d in r.records if d["type"] == "card_rejected"]
    assert all("onbekende kaart" in x for x in nl)
    assert r.moves == ["A 0:N-S"]


def test_misreading2_odd_tag_and_odd_discard_are_the_referees_to_answer() -> None:
    start = {"seats": 4, "profile": "standard", "dealer": 3, "tags": {"04AA": "K"}}
    r = play(
        start,
        ev(900, "tag", "04AA\n"),
        ev(950, "discard", ["X", "5"]),
        ev(1000, "tag", "04AA"),
        move(1100, "N0.1", "T0"),
    )
    [rej] = r.of("card_rejected")
    assert rej["tag"] == "04AA\n" and "unknown card" in rej["reason"]
    [d] = r.of("discard")
    assert d["ok"] is False and "unknown card 'X'" in d["reason"]
    assert r.moves == ["K 0:N-S"]


# -- 3: after a restore, a fresh action is a new attempt ------------------------------------

JACK = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def test_misreading3_swap_right_after_a_restore_is_taken() -> None:
    r = play(
        setup(JACK),
        ev(1000, "card", "J"),
        move(1100, "T5", "T7"),  # flagged
        move(3000, "T7", "T5"),  # put back with one pawn in hand: exactly as before
        ev(3300, "lift", "T5"),  # within the settle time: the swap, holding both
        ev(3400, "lift", "T10"),
        ev(3600, "place", "T5"),
        ev(3700, "place", "T10"),
    )
    assert flags(r) == ["illegal"]
    assert r.moves == ["J 0:T5<>1:T10"]
    assert [d["type"] for d in r.decisions].index("resolved") < [
        d["type"] for d in r.decisions
    ].index("move")


def test_misreading3_a_fresh_wrong_attempt_after_a_restore_is_flagged_afresh() -> None:
    r = play(
        setup(JACK),
        ev(1000, "card", "J"),
        move(1100, "T5", "T7"),
        move(3000, "T7", "T5"),
        move(3300, "T20", "T22"),  # within the settle time: another wrong move
        ev(6000, "tick"),
    )
    first, second = r.of("illegal")
    assert first["restore"] == [["T7", "T5"]] and second["restore"] == [["T22", "T20"]]
    assert [d["t"] for d in r.of("resolved")] == [second["t"]]
    assert r.moves == []


# -- 4: an extra pawn after a move taken at once -------------------------------------------

CLOSED = position(
    1, ["T40", "N", "N", "N"], ["T2", "N", "N", "N"], ["T50", "N", "N", "N"], ["N"] * 4
)


def test_misreading4_extra_pawn_after_the_move_was_taken_says_so() -> None:
    r = play(
        {**setup(CLOSED), "dealer": 0},
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


# -- found by the table fuzzer (fuzz_table.py) on the way ------------------------------------

MID = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def test_fuzz_knocked_moved_pawn_goes_back_where_the_move_put_it() -> None:
    # The 3 on the board at rest, then its pawn knocked on one hole: the board is as
    # near the position before (T5) as the move's (T8); the move shown wins the tie.
    r = play(
        setup(MID),
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
        setup(MID),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1500, "lift", "T8"),
        ev(1530, "place", "T9"),
        move(4000, "T9", "T8"),
    )
    assert r.moves == ["3 0:T5-T8"] and r.of("ambiguous") == []


# Two seats (nk): blue swaps its T2 pawn with red's T20, then knocks its own T8 pawn.
NK = position(1, ["N", "S", "T20", "H4"], ["N", "T2", "T8", "H3"], seats=2, profile="nk")


def test_fuzz_knocked_pawn_put_back_with_a_swapped_pawn_in_hand() -> None:
    # Put back holding a swapped pawn too: the colours could be either of two swaps
    # (T2 or T8 with T20), never the position before; only T2 and T20 were ever empty
    # at once, so the swap is the T2 one.
    r = play(
        {**setup(NK), "dealer": 0},
        ev(1000, "card", "J"),
        ev(1100, "lift", "T20"),
        ev(1200, "lift", "T2"),
        ev(1400, "place", "T20"),
        ev(1500, "place", "T2"),
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


def test_fuzz_unknown_switch_name_is_noise_not_an_event() -> None:
    # A closing lift bounces back, with a switch name the board does not have between:
    # that name is no event (a trace may not hold it; a driver or the fuzzer's noise may
    # feed it), so it does not close the move at the lift either.
    pos = Position.from_dict(MID)
    state, _ = new_game(pos, 3)
    moves = []
    events: list[Input] = [
        CardTap(1000, "3"),
        HoleEvent(1100, "lift", "T5"),
        HoleEvent(1300, "place", "T8"),
        HoleEvent(1500, "lift", "T10"),
        HoleEvent(1501, "lift", "T999"),
        HoleEvent(1503, "place", "T10"),
        Tick(3000),
    ]
    for e in events:
        state, effects = step(state, e)
        moves += [d for d in effects if isinstance(d, Decision) and d.type == "move"]
    assert [(d.t, d.data["move"]) for d in moves] == [(1800, "3 0:T5-T8")]


# Blue (seat 1) on T26 and T29, yellow on T19; no card reader.
OWN_SEVEN = position(1, ["N"] * 4, ["T26", "T29", "N", "N"], ["T19", "N", "N", "N"], ["N"] * 4)


def test_fuzz_next_players_capture_is_no_seven_capturing_its_own_pawn() -> None:
    # Blue's 5 (T26-T31), then yellow's 10 capturing blue's T29 pawn, victim first.
    # With the victim in blue's nest the board is also blue's 7 "T26-T31 T29-T31"
    # capturing its own pawn on T31: but T31 was never emptied, its pawn is the one from
    # T26, so the touches rule that 7 out (game 511531 of the big run).
    r = play(
        {**setup(OWN_SEVEN), "dealer": 0, "card_reader": False},
        move(1000, "T26", "T31"),
        ev(1640, "lift", "T29"),
        ev(1870, "place", "N1.4"),
        ev(2110, "lift", "T19"),
        ev(2250, "place", "T29"),
        ev(9000, "tick"),
    )
    assert r.moves == ["5 1:T26-T31", "10 2:T19-T29"]
    assert flags(r) == []
