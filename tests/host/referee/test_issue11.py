"""Issue 11, items 1-8: each finding of the fuzzer as its short trace, decisions asserted."""

from __future__ import annotations

from typing import Any

from referee_traces import ev, move, play, position


def setup(pos: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "seats": pos["seats"],
        "profile": pos["profile"],
        "dealer": pos["seats"] - 1,
        "position": pos,
        **extra,
    }


def no_flags(r: Any) -> None:
    assert r.of("illegal") == [] and r.of("ambiguous") == [] and r.of("missing") == []


UNDO = {"type": "undo"}


def undo(t: int) -> dict[str, Any]:
    return {"t": t, **UNDO}


# -- 1, 2: a pawn replaced by one of the same colour is a change --------------------------

SEVEN = position(0, ["T10", "T15", "T17", "T40"], ["N"] * 4, ["N"] * 4, ["N"] * 4)


def test_item1_seven_capturing_own_pawn_is_not_cut_short() -> None:
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


# Seat 0 on T10 and T13, seat 1 fresh on its start T16 (the T13 pawn cannot move a 3).
OWN_CAPTURE = position(0, ["T10", "T13", "N", "N"], ["S", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def test_item2_own_victim_held_long_is_never_asked_back() -> None:
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


# -- 3: a flag's restore is not a jack swap -----------------------------------------------

JACK = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)
Events = list[dict[str, Any] | list[dict[str, Any]]]
CAPTURE_ATTEMPT: Events = [
    ev(1000, "card", "J"),
    ev(1100, "lift", "T10"),
    ev(1300, "place", "N1.4"),
    move(1500, "T5", "T10"),
    ev(2500, "tick"),
]


def test_item3_undoing_a_flagged_capture_is_no_swap() -> None:
    r = play(
        setup(JACK),
        *CAPTURE_ATTEMPT,
        move(3000, "T10", "T5"),
        move(3400, "N1.4", "T10"),
        ev(5000, "tick"),
    )
    assert len(r.of("illegal")) == 1
    assert r.moves == []
    assert [d["type"] for d in r.decisions].count("resolved") == 1
    assert "T10" in r.state.pos.to_dict()["pawns"][1]  # blue still on T10
    assert r.of("ambiguous") == []
    # The real swap afterwards is taken.
    r = play(
        setup(JACK),
        *CAPTURE_ATTEMPT,
        move(3000, "T10", "T5"),
        move(3400, "N1.4", "T10"),
        ev(5000, "tick"),
        ev(5100, "lift", "T5"),
        ev(5200, "lift", "T10"),
        ev(5400, "place", "T5"),
        ev(5500, "place", "T10"),
    )
    assert r.moves == ["J 0:T5<>1:T10"]


def test_item3_restore_and_swap_indistinguishable_asks() -> None:
    # Both pawns in hand while putting back: a swap would look the same. Ask, don't guess.
    r = play(
        setup(JACK),
        *CAPTURE_ATTEMPT,
        ev(3000, "lift", "T10"),
        ev(3100, "lift", "N1.4"),
        ev(3300, "place", "T5"),
        ev(3400, "place", "T10"),
        ev(5000, "tick"),
    )
    assert r.moves == []
    [amb] = r.of("ambiguous")
    assert amb["moves"] == ["J 0:T5<>1:T10"] and amb["holes"] == ["T5", "T10"]
    assert "red on T5" in amb["reason"] and "blue on T10" in amb["reason"]
    frame = r.frame_at(4000)
    assert frame.get("T5") == "source" and frame.get("T10") == "source"
    assert "T5" in r.state.pos.to_dict()["pawns"][0]
    # The player sets the pawns as asked and swaps again: the swap is taken.
    r2 = play(
        setup(JACK),
        *CAPTURE_ATTEMPT,
        ev(3000, "lift", "T10"),
        ev(3100, "lift", "N1.4"),
        ev(3300, "place", "T5"),
        ev(3400, "place", "T10"),
        ev(5000, "tick"),
        ev(5100, "lift", "T5"),
        ev(5200, "lift", "T10"),
        ev(5400, "place", "T5"),
        ev(5500, "place", "T10"),
    )
    assert r2.moves == ["J 0:T5<>1:T10"]


def test_item3_without_reader_an_undone_capture_is_no_swap() -> None:
    r = play(
        setup(JACK, card_reader=False),
        ev(1100, "lift", "T10"),
        ev(1300, "place", "N1.4"),
        move(1500, "T5", "T10"),
        ev(6000, "tick"),
        undo(6100),
        move(6200, "T10", "T5"),
        move(6600, "N1.4", "T10"),
        ev(9000, "tick"),
    )
    assert r.moves == ["5 0:T5-T10"]
    assert [u["ok"] for u in r.of("undo")] == [True]
    assert r.state.history == ()
    assert "T10" in r.state.pos.to_dict()["pawns"][1]


# -- 4: a bounce is never judged ------------------------------------------------------------

THREE = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def test_item4_bounce_on_a_third_pawn_during_a_swap() -> None:
    r = play(
        setup(THREE),
        ev(1000, "card", "J"),
        ev(1100, "lift", "T5"),
        ev(1200, "lift", "T10"),
        ev(1300, "lift", "T20"),
        ev(1302, "place", "T20"),
        ev(1400, "place", "T5"),
        ev(1500, "place", "T10"),
    )
    assert r.moves == ["J 0:T5<>1:T10"]
    no_flags(r)


# -- 5: resolved even when a card is tapped within the settle time ---------------------------

MID = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)
TAGS = {"A3": "3", "B5": "5", "C3": "3", "D3": "3"}


def test_item5_put_right_then_tap_sends_resolved_and_a_fresh_reason() -> None:
    r = play(
        setup(MID, tags=TAGS),
        ev(1000, "tag", "A3"),
        move(1100, "T5", "T9"),
        ev(2000, "tick"),
        move(2500, "T9", "T5"),
        ev(2800, "tag", "A3"),
        move(3000, "T5", "T12"),
        ev(4000, "tick"),
    )
    flags = r.of("illegal")
    assert len(flags) == 2
    assert [d["t"] for d in r.of("resolved")] == [2800]
    assert flags[0]["restore"] == [["T9", "T5"]] and flags[1]["restore"] == [["T12", "T5"]]
    assert flags[1]["t"] > 3200


def test_item5_put_right_then_another_card_resolves_first() -> None:
    r = play(
        setup(MID),
        ev(1000, "card", "3"),
        move(1100, "T5", "T9"),
        ev(2000, "tick"),
        move(2500, "T9", "T5"),
        ev(2800, "card", "5"),
    )
    types = [d["type"] for d in r.decisions if d["type"] in ("illegal", "resolved")]
    assert types == ["illegal", "resolved", "illegal"]
    assert "two cards" in r.of("illegal")[1]["reason"]


# -- 6, 7: the next player does not wait ----------------------------------------------------


def test_item6_next_player_lifts_within_the_settle_time() -> None:
    r = play(
        setup(MID),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1500, "lift", "T10"),
        ev(1700, "card", "5"),
        ev(1900, "place", "T15"),
    )
    assert r.moves == ["3 0:T5-T8", "5 1:T10-T15"]
    assert r.of("move")[0]["t"] == 1500
    no_flags(r)


def test_item6_own_pawn_lift_does_not_close_the_move() -> None:
    # Changing one's mind: lifting another pawn the card can move keeps the turn open.
    r = play(
        setup(MID),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1400, "lift", "T20"),
        ev(1450, "lift", "T8"),
        ev(1600, "place", "T5"),
        ev(1700, "place", "T23"),
    )
    assert r.moves == ["3 0:T20-T23"]


def test_item7_no_reader_next_player_ends_the_waiting_turn() -> None:
    r = play(setup(MID, card_reader=False), move(1000, "T5", "T8"), move(2000, "T10", "T15"))
    assert r.moves == ["3 0:T5-T8", "5 1:T10-T15"]
    assert r.of("move")[0]["t"] == 2000
    no_flags(r)


def test_item7_no_reader_second_part_of_a_seven_is_still_awaited() -> None:
    r = play(setup(MID, card_reader=False), move(1000, "T5", "T8"), move(2000, "T20", "T24"))
    assert r.moves == ["7 0:T5-T8 0:T20-T24"]


# -- 8: card discipline ----------------------------------------------------------------------


def test_item8_card_after_an_illegal_move_is_a_second_card() -> None:
    r = play(
        setup(MID),
        ev(1000, "card", "3"),
        move(1100, "T20", "T25"),
        ev(2000, "tick"),
        ev(2500, "card", "5"),
        ev(3500, "tick"),
    )
    assert r.moves == []
    flags = r.of("illegal")
    assert len(flags) == 2 and flags[1]["cards"] == ["3", "5"]
    assert "two cards played" in flags[1]["reason"]
    nl = [d for d in r.records if d["type"] == "illegal"][1]["reason"]["nl"]
    assert "twee kaarten" in nl
    # Undo takes the second card back; the first holds: the board is put right for a 3.
    r = play(
        setup(MID),
        ev(1000, "card", "3"),
        move(1100, "T20", "T25"),
        ev(2000, "tick"),
        ev(2500, "card", "5"),
        undo(3000),
        move(3500, "T25", "T23"),
    )
    [u] = r.of("undo")
    assert u["ok"] is True and u["card"] == "5"
    assert r.moves == ["3 0:T20-T23"]


def test_item8_second_card_after_a_rejected_first_is_fine() -> None:
    start = {"seats": 4, "profile": "standard", "dealer": 3}
    r = play(start, ev(1000, "card", "5"), ev(1200, "card", "K"), move(1300, "N0.1", "T0"))
    assert len(r.of("card_rejected")) == 1
    assert r.moves == ["K 0:N-S"]
    assert r.of("illegal") == []


def test_item8_tag_played_this_deal_is_refused_by_name() -> None:
    r = play(
        setup(MID, tags=TAGS),
        ev(1000, "tag", "A3"),
        move(1100, "T5", "T8"),
        ev(2500, "tag", "A3"),
        ev(2600, "tag", "C3"),
        move(2700, "T10", "T13"),
    )
    [rej] = r.of("card_rejected")
    assert rej["tag"] == "A3" and "the 3" in rej["reason"] and "already played" in rej["reason"]
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13"]


def test_item8_more_of_a_rank_than_the_deck_holds_is_refused() -> None:
    two = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], seats=2)
    r = play(
        setup(two),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(2000, "card", "3"),
        move(2100, "T10", "T13"),
        ev(3000, "card", "3"),
    )
    [rej] = r.of("card_rejected")
    assert "all 2 of this rank" in rej["reason"]
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13"]


def test_item8_undo_gives_the_card_back_to_the_deal() -> None:
    two = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], seats=2)
    r = play(
        setup(two),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(2000, "card", "3"),
        move(2100, "T10", "T13"),
        undo(3000),
        move(3100, "T13", "T10"),
        ev(3500, "card", "3"),
        move(3600, "T10", "T13"),
    )
    assert r.of("card_rejected") == []
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13", "3 1:T10-T13"]


def test_item4_7_a_bounce_never_closes_the_waiting_turn() -> None:
    # Without a reader a bounce on another player's pawn is not the next player acting.
    r = play(
        setup(MID, card_reader=False),
        move(1000, "T5", "T8"),
        ev(1500, "lift", "T10"),
        ev(1502, "place", "T10"),
        move(2000, "T20", "T24"),
    )
    assert r.moves == ["7 0:T5-T8 0:T20-T24"]
    no_flags(r)


# -- 7: quick chains without a reader (the fuzzer's last no-reader derailments) ------------

CHAIN = position(
    0,
    ["T28", "N", "N", "N"],
    ["T34", "N", "N", "N"],
    ["T44", "N", "N", "N"],
    ["T11", "N", "N", "N"],
)


def test_item7_no_reader_two_jack_swaps_in_a_row() -> None:
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


def test_item7_no_reader_swap_swapped_back_then_captured() -> None:
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


def test_item7_no_reader_counting_does_not_crowd_out_the_real_end() -> None:
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


def test_item7_no_reader_pawn_counted_slowly_home_is_one_move() -> None:
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
