"""One trace per situation the referee must handle, checked decision by decision."""

from __future__ import annotations

from referee_traces import FLAGGED, MID, ev, move, no_flags, play, position, setup, undo

from keezbord.engine.movegen import successors
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position


def test_simple_move_accepted_after_settle_time() -> None:
    r = play(setup(), ev(1000, "card", "3"), move(1100, "T5", "T8"))
    assert r.moves == ["3 0:T5-T8"]
    assert r.of("move")[0]["t"] == 1300 + 500
    assert r.of("move")[0]["seat"] == 0
    assert r.of("turn")[-1]["seat"] == 1
    assert r.pawns()[0] == sorted(["T8", "T20", "N", "N"])
    no_flags(r)


def test_next_card_accepts_the_move_at_once() -> None:
    r = play(setup(), ev(1000, "card", "3"), move(1100, "T5", "T8"), ev(1400, "card", "A"))
    assert r.of("move")[0]["t"] == 1400
    # The A is seat 1's: it enters a pawn onto T16 from then on.
    r2 = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1400, "card", "A"),
        move(1500, "N1.2", "T16"),
    )
    assert r2.moves == ["3 0:T5-T8", "A 1:N-S"]


def test_capture_victim_carried_home_after_to_any_nest_hole() -> None:
    r = play(
        setup(),
        ev(1000, "card", "5"),
        ev(1100, "lift", "T5"),
        ev(1200, "lift", "T10"),
        ev(1300, "place", "T10"),
        ev(1900, "place", "N1.4"),
    )
    assert r.moves == ["5 0:T5-T10"]
    assert r.of("move")[0]["t"] == 2400  # not while the victim was still in hand
    assert r.pawns()[1] == ["N", "N", "N", "N"]
    no_flags(r)


def test_capture_victim_home_first_with_a_long_pause() -> None:
    r = play(
        setup(),
        ev(1000, "card", "5"),
        ev(1100, "lift", "T10"),
        ev(1300, "place", "N1.4"),
        ev(3000, "lift", "T5"),
        ev(3200, "place", "T10"),
    )
    assert r.moves == ["5 0:T5-T10"]
    no_flags(r)


def test_pawn_slid_across_holes() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        ev(1100, "lift", "T5"),
        ev(1105, "place", "T6"),
        ev(1108, "lift", "T6"),
        ev(1112, "place", "T7"),
        ev(1115, "lift", "T7"),
        ev(1200, "place", "T8"),
    )
    assert r.moves == ["3 0:T5-T8"]
    no_flags(r)


def test_counted_hole_by_hole_with_a_rest_gets_patience() -> None:
    r = play(
        setup(),
        ev(1000, "card", "5"),
        ev(1100, "lift", "T20"),
        ev(1200, "place", "T22"),
        ev(3500, "lift", "T22"),
        ev(3600, "place", "T25"),
    )
    assert r.moves == ["5 0:T20-T25"]
    no_flags(r)


def test_resting_on_the_path_too_long_is_flagged() -> None:
    r = play(
        setup(),
        ev(1000, "card", "5"),
        ev(1100, "lift", "T20"),
        ev(1200, "place", "T22"),
        ev(4500, "tick"),
    )
    assert r.moves == []
    [flag] = r.of("illegal")
    assert flag["t"] == 1200 + 3000
    assert flag["restore"] == [["T22", "T20"]]


def test_wrong_hole_flagged_with_pairing_then_put_right() -> None:
    r = play(
        setup(),
        *FLAGGED,
        move(2500, "T9", "T5"),
        ev(3500, "tick"),
        move(4000, "T5", "T8"),
    )
    [flag] = r.of("illegal")
    assert flag["t"] == 1300 + 500 and flag["seat"] == 0
    assert set(flag["holes"]) == {"T9", "T5"}
    assert flag["restore"] == [["T9", "T5"]]
    assert flag["reason"]
    [rec] = [d for d in r.records if d["type"] == "illegal"]
    assert rec["reason"]["nl"] != rec["reason"]["en"]
    leds = r.frame_at(1800)
    assert leds["T9"] == "error" and leds["T5"] == "restore"
    assert "error" not in r.frame_at(2700).values()  # put right: the flag is gone
    assert r.moves == ["3 0:T5-T8"]


def test_knocked_pawn_is_flagged_and_recoverable() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(1350, "lift", "T20"),
        ev(1352, "place", "T21"),
        ev(2500, "tick"),
        move(3000, "T21", "T20"),
    )
    [flag] = r.of("illegal")
    assert flag["restore"] == [["T21", "T20"]]
    assert r.moves == ["3 0:T5-T8"]
    assert r.of("move")[0]["t"] > 3200


def test_moving_without_a_card_asks_for_the_card_then_takes_it() -> None:
    r = play(setup(), move(1000, "T5", "T8"), ev(2000, "tick"), ev(2500, "card", "3"))
    [flag] = r.of("illegal")
    assert "card" in flag["reason"]
    assert r.moves == ["3 0:T5-T8"]


def test_card_with_no_legal_move_is_rejected_with_the_reason() -> None:
    start = {"seats": 4, "profile": "standard", "dealer": 3}
    r = play(start, ev(1000, "card", "5"))
    [rej] = r.of("card_rejected")
    assert rej["card"] == "5" and rej["seat"] == 0
    assert "cannot bring one out" in rej["reason"]


def test_tags_through_the_registry_and_unknown_tags() -> None:
    start = {"seats": 4, "profile": "standard", "dealer": 3, "tags": {"04AA": "K"}}
    r = play(start, ev(900, "tag", "04BB"), ev(1000, "tag", "04AA"), move(1100, "N0.1", "T0"))
    [rej] = r.of("card_rejected")
    assert rej["tag"] == "04BB" and "unknown card" in rej["reason"]
    assert r.moves == ["K 0:N-S"]


def test_discard_checked_against_the_cards_shown() -> None:
    r = play(setup(), ev(1000, "discard", ["K", "5", "9"]))
    [d] = r.of("discard")
    assert d["ok"] is False and d["seat"] == 0
    pos = Position.from_dict(MID)
    mp = parse_move(d["must_play"], pos.topology)
    assert mp in {m for m, _ in successors(pos, mp.card)}
    assert r.of("turn")[-1]["seat"] == 0  # still seat 0's turn


def test_discards_sit_out_and_rounds_are_dealt() -> None:
    start = {"seats": 2, "profile": "standard", "dealer": 1}
    five = ["2", "3", "5", "6", "8"]
    four = five[:4]
    r = play(
        start,
        ev(1000, "discard", five),
        ev(2000, "discard", five),
        ev(3000, "discard", four),
        ev(4000, "discard", four),
        ev(5000, "discard", four),
        ev(6000, "discard", four),
    )
    assert [d["ok"] for d in r.of("discard")] == [True] * 6
    turns = r.of("turn")
    assert [t["seat"] for t in turns] == [0, 1, 0, 1, 0, 1, 1]
    assert turns[2]["deal"] == {"dealer": 1, "cards": 4}
    # After three rounds the next seat deals and the seat after it leads.
    assert turns[-1]["deal"] == {"dealer": 0, "cards": 5}


def test_jack_swap_accepted() -> None:
    r = play(
        setup(),
        ev(1000, "card", "J"),
        ev(1100, "lift", "T10"),
        ev(1300, "lift", "T5"),
        ev(1500, "place", "T10"),
        ev(1600, "place", "T5"),
    )
    assert r.moves == ["J 0:T5<>1:T10"]
    assert r.pawns()[1][-1] == "T5"


def test_jack_lift_and_put_back_one_by_one_is_no_swap() -> None:
    r = play(
        setup(),
        ev(1000, "card", "J"),
        move(1100, "T10", "T10"),
        move(1500, "T5", "T5"),
        ev(3000, "tick"),
    )
    assert r.moves == [] and r.of("illegal") == []


def test_two_fitting_moves_wait_for_the_player() -> None:
    pos = position(
        0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["T40", "N", "N", "N"], ["N"] * 4
    )
    lifts = [
        ev(1100, "lift", "T5"),
        ev(1150, "lift", "T10"),
        ev(1200, "lift", "T40"),
        ev(1300, "place", "T5"),
        ev(1350, "place", "T10"),
        ev(1400, "place", "T40"),
    ]
    r = play(setup(pos), ev(1000, "card", "J"), lifts, ev(2500, "tick"))
    [amb] = r.of("ambiguous")
    assert sorted(amb["moves"]) == ["J 0:T5<>1:T10", "J 0:T5<>2:T40"]
    assert r.moves == []
    assert {h for h, role in r.frame_at(2500).items() if role == "source"} == {"T5", "T10", "T40"}
    r = play(setup(pos), ev(1000, "card", "J"), lifts, move(2500, "T40", "T40"))
    assert r.moves == ["J 0:T5<>2:T40"]


def test_seven_split_waits_for_the_second_part_with_targets_lit() -> None:
    r = play(
        setup(),
        ev(1000, "card", "7"),
        move(1100, "T5", "T8"),
        ev(3000, "lift", "T20"),
        ev(6000, "place", "T24"),
    )
    [m] = r.of("move")
    assert sorted(m["move"].split()[1:]) == ["0:T20-T24", "0:T5-T8"]
    assert m["t"] == 6500
    no_flags(r)
    assert r.frame_at(3000).get("T24") == "target"


def test_seven_notation_lists_the_parts_in_the_order_they_were_made() -> None:
    # The generator lists T5-T8 first; the player moves the T20 pawn first.
    r = play(setup(), ev(1000, "card", "7"), move(1100, "T20", "T24"), move(3000, "T5", "T8"))
    assert r.moves == ["7 0:T20-T24 0:T5-T8"]
    r = play(setup(), ev(1000, "card", "7"), move(1100, "T5", "T8"), move(3000, "T20", "T24"))
    assert r.moves == ["7 0:T5-T8 0:T20-T24"]
    # Both pawns held at once, the T20 pawn lifted first: its part comes first.
    r = play(
        setup(),
        ev(1000, "card", "7"),
        ev(1100, "lift", "T20"),
        ev(1150, "lift", "T5"),
        ev(1300, "place", "T8"),
        ev(1400, "place", "T24"),
    )
    assert r.moves == ["7 0:T20-T24 0:T5-T8"]
    no_flags(r)


def test_seven_first_part_then_wrong_second_part_is_flagged_against_the_first_part() -> None:
    r = play(
        setup(),
        ev(1000, "card", "7"),
        move(1100, "T5", "T8"),
        move(3000, "T20", "T25"),
        ev(4000, "tick"),
    )
    [flag] = r.of("illegal")
    assert flag["restore"] == [["T25", "T24"]] or flag["restore"] == [["T25", "T20"]]


def test_hint_levels() -> None:
    lifted = [ev(1000, "card", "3"), ev(1100, "lift", "T5")]
    targets = play(setup(), *lifted).frame_at(1100)
    assert targets.get("T8") == "target"
    assert "target" not in play(setup(hints="off"), *lifted).frame_at(1100).values()
    full = play(setup(hints="full"), ev(1000, "card", "3"))
    [hint] = full.of("hint")
    assert hint["move"] in ("3 0:T5-T8", "3 0:T20-T23")
    # The suggested pawn and its target carry the role "hint", the other pawn "source".
    frm, to = ("T5", "T8") if hint["move"] == "3 0:T5-T8" else ("T20", "T23")
    other = "T20" if frm == "T5" else "T5"
    leds = full.frame_at(1000)
    assert leds.get(frm) == "hint" and leds.get(to) == "hint" and leds.get(other) == "source"
    assert hint["holes"] == [frm, to] and hint["reason"]


def test_capture_target_lights_the_victims_nest_hole() -> None:
    leds = play(setup(), ev(1000, "card", "5"), ev(1100, "lift", "T5")).frame_at(1100)
    assert leds.get("T10") == "target" and leds.get("N1.4") == "victim"


def test_a_target_hidden_under_its_victim_lights_its_free_neighbours() -> None:
    # T10's LED is under the pawn a capture knocks: a person sees T9 and T11 blink around
    # it ("around"); an empty target needs no such help.
    leds = play(setup(), ev(1000, "card", "5"), ev(1100, "lift", "T5")).frame_at(1100)
    assert leds.get("T9") == "around" and leds.get("T11") == "around"
    empty = play(setup(), ev(1000, "card", "3"), ev(1100, "lift", "T5")).frame_at(1100)
    assert empty.get("T8") == "target" and "around" not in empty.values()


def test_without_a_card_reader_every_card_is_tried_and_recorded() -> None:
    r = play(setup(card_reader=False), move(1000, "T5", "T8"), ev(5000, "tick"))
    # A 3 - or the first part of a 7: the longer patience passes first.
    assert r.moves == ["3 0:T5-T8"]
    assert r.of("move")[0]["t"] == 1200 + 3000
    r = play(setup(card_reader=False), move(1000, "T5", "T8"), move(2000, "T20", "T24"))
    assert len(r.moves) == 1 and r.moves[0].startswith("7 ")
    r = play(setup(card_reader=False), move(1000, "T5", "T17"), ev(3000, "tick"))
    assert r.moves == ["Q 0:T5-T17"]


def test_win_ends_the_game() -> None:
    pos = position(0, ["T30", "H2", "H3", "H4"], ["T10", "N", "N", "N"], seats=2)
    r = play(setup(pos), ev(1000, "card", "3"), move(1100, "T30", "H0.1"), ev(2000, "card", "5"))
    assert r.moves == ["3 0:T30-H1"]
    assert r.of("win") == [{"t": 1800, "type": "win", "seats": [0]}]
    assert r.of("card_rejected")[0]["reason"] == "the game is over"


def test_undo_takes_the_move_back_and_guides_the_board_back() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        undo(2500),
        ev(3500, "tick"),
        move(4000, "T8", "T5"),
        ev(5000, "tick"),
    )
    [taken_back] = r.of("undo")
    assert taken_back["ok"] is True and taken_back["move"] == "3 0:T5-T8"
    [flag] = r.of("illegal")
    assert flag["restore"] == [["T8", "T5"]]
    assert r.state.pos.pawns == Position.from_dict(MID).pawns
    assert r.state.seat == 0 and r.state.history == ()


def test_board_resync_after_a_restart_guides_restoring() -> None:
    from keezbord.host.referee.recognize import board_of

    board = set(board_of(Position.from_dict(MID))) - {"T20"} | {"T19"}
    r = play(setup(), {"t": 100, "type": "board", "holes": sorted(board)}, ev(1000, "tick"))
    [flag] = r.of("illegal")
    assert flag["restore"] == [["T19", "T20"]]


def test_sensor_noise_on_holes_off_the_board_is_ignored() -> None:
    r = play(setup(), ev(1000, "card", "3"), move(1100, "T5", "T8"))
    assert r.moves == ["3 0:T5-T8"]
