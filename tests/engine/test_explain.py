"""explain(): None for legal results; otherwise the broken rule's code and a Dutch and an
English sentence (different, non-empty) naming what matters (colour, hole)."""

from __future__ import annotations

import pytest
from engine_helpers import HOME4, board

from keezbord.engine.explain import Reason, explain, no_move_reason
from keezbord.engine.movegen import successors
from keezbord.engine.position import Position


def _reason(before: Position, card: str, after: Position) -> Reason:
    r = explain(before, card, after)
    assert r is not None
    assert r.text.nl and r.text.en and r.text.nl != r.text.en
    assert r.get("nl") == r.text.nl and r.get("en") == r.text.en
    assert r.text.nl[0].isupper() and r.text.en[0].isupper()
    return r


def test_every_legal_result_explains_to_none() -> None:
    p = board(4, {0: ["T3", "H1", "S"], 1: ["T8"], 2: ["T20"]})
    for card in ("A", "2", "3", "4", "5", "7", "J", "K", "Q"):
        for _, after in successors(p, card):
            assert explain(p, card, after) is None
            # The turn of the after position does not matter.
            assert explain(p, card, after.replace(turn=0)) is None


# (name, before, card, after, code, words that must appear in nl / en)
CASES = [
    (
        "blockade pass",
        board(4, {0: ["T14"], 1: ["S"]}),
        "5",
        board(4, {0: ["T19"], 1: ["S"]}),
        "blockade_pass",
        ("blauwe", "T16"),
        ("blue", "T16"),
    ),
    (
        "blockade land",
        board(4, {0: ["T11"], 1: ["S"]}),
        "5",
        board(4, {0: ["T16"]}),
        "blockade_land",
        ("blauwe", "T16"),
        ("blue", "T16"),
    ),
    (
        "four into home",
        board(4, {0: ["T2"]}),
        "4",
        board(4, {0: ["H2"]}),
        "back_into_home",
        ("de 4 mag niet achteruit het thuishonk in",),
        ("backward",),
    ),
    (
        "must enter",
        board(4, {0: ["T62"]}),
        "5",
        board(4, {0: ["T3"]}),
        "must_enter",
        ("thuishonk",),
        ("home",),
    ),
    (
        "home pass",
        board(4, {0: ["T62", "H1"]}),
        "5",
        board(4, {0: ["H3", "H1"]}),
        "home_pass",
        ("H0.1",),
        ("H0.1",),
    ),
    (
        "fresh home",
        board(4, {0: ["S"]}),
        "2",
        board(4, {0: ["H2"]}),
        "fresh_home",
        ("rond",),
        ("round",),
    ),
    (
        "pass own nk",
        board(4, {0: ["T3", "T5"]}, profile="nk"),
        "5",
        board(4, {0: ["T8", "T5"]}, profile="nk"),
        "pass_own",
        ("NK-regels", "T5"),
        ("the NK rules", "T5"),  # as players write it, not the profile's id (issue 40)
    ),
    (
        "capture partner",
        board(4, {0: ["T3"], 2: ["T8"]}, profile="keezspel"),
        "5",
        board(4, {0: ["T8"]}, profile="keezspel"),
        "capture_partner",
        ("gele", "T8"),
        ("yellow", "T8"),
    ),
    (
        "four back start",
        board(4, {0: ["T2"]}, profile="keezspel"),
        "4",
        board(4, {0: ["T62"]}, profile="keezspel"),
        "four_back_start",
        ("Keez-spel",),
        ("Keez-spel",),
    ),
]


@pytest.mark.parametrize(
    ("name", "before", "card", "after", "code", "nl", "en"), CASES, ids=[c[0] for c in CASES]
)
def test_rule_reasons(
    name: str,
    before: Position,
    card: str,
    after: Position,
    code: str,
    nl: tuple[str, ...],
    en: tuple[str, ...],
) -> None:
    r = _reason(before, card, after)
    assert r.code == code
    for word in nl:
        assert word in r.text.nl.lower() or word in r.text.nl
    for word in en:
        assert word in r.text.en


def test_enter_on_own_occupied_start() -> None:
    # Red's non-fresh pawn on T0 was knocked to the nest by its own new pawn.
    r = _reason(board(4, {0: ["T0"]}), "A", board(4, {0: ["S"]}))
    assert r.code == "enter_own_start"
    assert "T0" in r.text.en and "T0" in r.text.nl


def test_jack_reasons() -> None:
    r = _reason(board(4, {0: ["T5"], 1: ["S"]}), "J", board(4, {0: ["T16"], 1: ["T5"]}))
    assert r.code == "jack_blockade" and "blue" in r.text.en and "blauwe" in r.text.nl
    r = _reason(
        board(4, {0: ["T5"], 1: ["T20"], 2: ["T40"]}),
        "J",
        board(4, {0: ["T5"], 1: ["T40"], 2: ["T20"]}),
    )
    assert r.code == "jack_not_own"


def test_not_your_pawn() -> None:
    r = _reason(
        board(4, {0: ["T5"], 1: ["T20"]}, turn=1), "5", board(4, {0: ["T10"], 1: ["T20"]}, turn=1)
    )
    assert r.code == "not_your_pawn" and "blue" in r.text.en and "blauwe" in r.text.nl
    # All home: the player is told it plays the partner's pawns now.
    r = _reason(
        board(4, {0: HOME4, 1: ["T20"], 2: ["T40"]}),
        "5",
        board(4, {0: HOME4, 1: ["T25"], 2: ["T40"]}),
    )
    assert r.code == "not_your_pawn" and "partner" in r.text.en and "gele" in r.text.nl


def test_back_in_home() -> None:
    r = _reason(board(4, {0: ["H3", "T20"]}), "4", board(4, {0: ["T63", "T20"]}))
    assert r.code == "back_in_home"


@pytest.mark.parametrize(
    ("before", "card", "after", "code"),
    [
        (board(4, {0: ["T3"], 1: ["T20"]}), "5", board(4, {0: ["T8"]}), "sent_home"),
        (board(4, {0: ["T3"], 1: ["T20"]}), "5", board(4, {0: ["T9"], 1: ["T20"]}), "wrong_steps"),
        (board(4, {0: ["T3"], 1: ["T20"]}), "5", board(4, {0: ["T1"], 1: ["T20"]}), "forward_only"),
        (
            board(4, {0: ["T3"], 1: ["T20"]}),
            "J",
            board(4, {0: ["T3"], 1: ["T20"]}),
            "nothing_moved",
        ),
        (
            board(4, {0: ["T3"], 1: ["T20"]}),
            "5",
            board(4, {0: ["T3", "S"], 1: ["T20"]}),
            "enter_card",
        ),
        (
            board(4, {0: ["T3"], 1: ["T20"]}),
            "A",
            board(4, {0: ["T3", "T5"], 1: ["T20"]}),
            "enter_start",
        ),
        (
            board(4, {0: ["T3"], 1: ["T20"]}),
            "K",
            board(4, {0: ["T16"], 1: ["T20"]}),
            "king_enter_only",
        ),
        (board(4, {0: ["T3", "T10"]}), "7", board(4, {0: ["T5", "T12"]}), "seven_total"),
        (board(4, {0: ["T3", "T10"]}), "5", board(4, {0: ["T5", "T13"]}), "one_pawn"),
        (
            board(4, {0: ["T3"], 1: ["T8"]}),
            "5",
            board(4, {0: ["T8"], 1: ["T10"]}),
            "victim_not_in_nest",
        ),
        (board(4, {0: ["T3"]}), "5", board(4, {0: ["T8"]}, profile="nk"), "other_board"),
        (board(4, {0: ["T3"], 1: ["T20"]}), "4", board(4, {0: ["T62"], 1: ["T20"]}), "wrong_steps"),
    ],
)
def test_structural_reasons(before: Position, card: str, after: Position, code: str) -> None:
    assert _reason(before, card, after).code == code


def test_swap_with_another_card_is_jack_only() -> None:
    r = _reason(board(4, {0: ["T3"], 1: ["T20"]}), "5", board(4, {0: ["T20"], 1: ["T3"]}))
    assert r.code == "jack_only"


def test_four_played_forward_is_four_backward() -> None:
    r = _reason(board(4, {0: ["T3"], 1: ["T20"]}), "4", board(4, {0: ["T4"], 1: ["T20"]}))
    assert r.code == "four_backward"


def test_no_move_reasons() -> None:
    r = no_move_reason(board(4, {}), "5")
    assert r.code == "no_pawn_out" and r.text.nl != r.text.en
    r = no_move_reason(board(4, {0: ["T14"], 1: ["S"]}), "5")
    assert r.code == "blockade_pass" and "blue" in r.text.en
    r = no_move_reason(board(4, {0: ["T62", "H1", "H2", "H3"]}), "K")
    assert r.code == "no_move"
    r = no_move_reason(board(4, {0: ["T3"]}), "J")
    assert r.code == "no_move" and "jack" in r.text.en


def test_explain_without_a_legal_move_gives_the_no_move_reason() -> None:
    p = board(4, {0: ["T14"], 1: ["S"]})
    r = _reason(p, "5", p)
    assert r.code == "blockade_pass"


def test_another_seats_pawn_says_whose_and_who_is_to_play() -> None:
    # Issue 13, defect 8: red to play brings blue's pawn out; the rule of blue's start
    # hole would mislead: the reason names the owner and the seat to play.
    r = _reason(board(4, {}), "K", board(4, {1: ["S"]}))
    assert r.code == "not_your_pawn"
    assert r.text.en == "That pawn is blue's; red is to play and moves only its own (red) pawns"
    assert (
        r.text.nl
        == "Die pion is van blauw; rood is aan zet en verplaatst alleen de eigen (rode) pionnen"
    )
