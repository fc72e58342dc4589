"""Card discipline: a second card, a card already played this deal, more of a rank than
the deck holds, an unknown card name or tag: each refused by name, and the game goes on."""

from __future__ import annotations

import pytest
from referee_traces import TAGS, Events, ev, move, play, position, setup, undo

from keezbord.host.referee.trace import TraceError, setup_from_dict


def test_card_after_an_illegal_move_is_a_second_card() -> None:
    second_card: Events = [
        ev(1000, "card", "3"),
        move(1100, "T20", "T25"),
        ev(2000, "tick"),
        ev(2500, "card", "5"),
    ]
    r = play(setup(), *second_card, ev(3500, "tick"))
    assert r.moves == []
    assert len(r.of("illegal")) == 1  # the board: a 3 does not go from T20 to T25
    # The second card is its own decision (FORMATS.md's illegal is a wrong board).
    [second] = r.of("second_card")
    assert second["cards"] == ["3", "5"] and second["seat"] == 0 and "holes" not in second
    assert "two cards played" in second["reason"]
    nl = next(d for d in r.records if d["type"] == "second_card")["reason"]["nl"]
    assert "twee kaarten" in nl
    # Undo takes the second card back; the first holds: the board is put right for a 3.
    r = play(setup(), *second_card, undo(3000), move(3500, "T25", "T23"))
    [u] = r.of("undo")
    assert u["ok"] is True and u["card"] == "5"
    assert r.moves == ["3 0:T20-T23"]


def test_second_card_after_a_rejected_first_is_fine() -> None:
    start = {"seats": 4, "profile": "standard", "dealer": 3}
    r = play(start, ev(1000, "card", "5"), ev(1200, "card", "K"), move(1300, "N0.1", "T0"))
    assert len(r.of("card_rejected")) == 1
    assert r.moves == ["K 0:N-S"]
    assert r.of("illegal") == [] and r.of("second_card") == []


def test_tag_played_this_deal_is_refused_by_name() -> None:
    r = play(
        setup(tags=TAGS),
        ev(1000, "tag", "A3"),
        move(1100, "T5", "T8"),
        ev(2500, "tag", "A3"),
        ev(2600, "tag", "C3"),
        move(2700, "T10", "T13"),
    )
    [rej] = r.of("card_rejected")
    assert rej["tag"] == "A3" and "the 3" in rej["reason"] and "already played" in rej["reason"]
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13"]


# Two seats: a deck of 2 of each rank; both seats play a 3.
TWO = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], seats=2)
TWO_THREES: Events = [
    ev(1000, "card", "3"),
    move(1100, "T5", "T8"),
    ev(2000, "card", "3"),
    move(2100, "T10", "T13"),
]


def test_more_of_a_rank_than_the_deck_holds_is_refused() -> None:
    r = play(setup(TWO), *TWO_THREES, ev(3000, "card", "3"))
    [rej] = r.of("card_rejected")
    assert "all 2 of this rank" in rej["reason"]
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13"]


def test_undo_gives_the_card_back_to_the_deal() -> None:
    r = play(
        setup(TWO),
        *TWO_THREES,
        undo(3000),
        move(3100, "T13", "T10"),
        ev(3500, "card", "3"),
        move(3600, "T10", "T13"),
    )
    assert r.of("card_rejected") == []
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13", "3 1:T10-T13"]


def test_unknown_card_name_is_rejected_and_the_game_goes_on() -> None:
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


def test_odd_tag_and_odd_discard_are_the_referees_to_answer() -> None:
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


def test_a_tag_is_the_same_in_either_case_of_hex() -> None:
    # An RFID UID is a number: a registry written in lower case matches a reader's upper case.
    lower = {"seats": 4, "profile": "standard", "dealer": 3, "tags": {"04aa": "K"}}
    r = play(lower, ev(1000, "tag", "04AA"), move(1100, "N0.1", "T0"))
    assert r.of("card_rejected") == []
    assert r.moves == ["K 0:N-S"]
    upper = {**lower, "tags": {"04AA": "K"}}
    r = play(upper, ev(1000, "tag", "04aa"), move(1100, "N0.1", "T0"))
    assert r.moves == ["K 0:N-S"]


def test_a_setup_naming_one_tag_twice_in_two_cases_is_refused() -> None:
    with pytest.raises(TraceError, match="names one tag twice"):
        setup_from_dict({"type": "setup", "seats": 4, "tags": {"04aa": "K", "04AA": "5"}})


def test_a_tag_read_again_in_the_other_case_is_the_same_card() -> None:
    # The turn's own card read again (not a second card), and a played card tapped again
    # (refused as played), whichever case of hex the reader gave.
    r = play(
        setup(tags=TAGS),
        ev(1000, "tag", "A3"),
        ev(1050, "tag", "a3"),
        move(1100, "T5", "T8"),
        ev(2500, "tag", "a3"),
        ev(2600, "tag", "c3"),
        move(2700, "T10", "T13"),
    )
    assert r.of("illegal") == [] and r.of("second_card") == []
    [rej] = r.of("card_rejected")
    assert rej["tag"] == "a3" and "already played" in rej["reason"]
    assert r.moves == ["3 0:T5-T8", "3 1:T10-T13"]


def test_a_tag_that_is_not_hex_is_never_folded_into_one_that_is() -> None:
    # Unicode upper-cases the ligature "\ufb00" to "FF": still not the tag 04FF.
    start = {"seats": 4, "profile": "standard", "dealer": 3, "tags": {"04FF": "K"}}
    r = play(start, ev(1000, "tag", "04\ufb00"), ev(1100, "tag", "04ff"), move(1200, "N0.1", "T0"))
    [rej] = r.of("card_rejected")
    assert rej["tag"] == "04\ufb00" and "unknown card" in rej["reason"]
    assert r.moves == ["K 0:N-S"]
