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
        ("eerst van zijn startplek af",),
        ("first leave its start hole",),
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


# -- the audit of the reasons (each names the rule broken, never a lap not made) ----------


def test_bringing_out_the_partners_pawn_names_the_partners_start() -> None:
    # All own pawns home: the king would bring out yellow's pawn, but yellow's own pawn
    # stands on yellow's start T32 (not the player's).
    r = no_move_reason(board(4, {0: HOME4, 2: ["S"]}), "K")
    assert r.code == "enter_own_start"
    assert r.text.en == (
        "The king has no legal move here: you cannot bring out a pawn while your partner's "
        "yellow pawn stands on their start hole T32"
    )
    assert r.text.nl == (
        "De heer kan hier niet gespeeld worden: je mag geen pion opzetten zolang er een gele "
        "pion van je partner op zijn startplek T32 staat"
    )


def test_a_seven_that_cannot_be_used_in_full_says_so() -> None:
    # T62 goes home in 3 (T62-H1); the other 4 steps have no pawn to go to.
    r = no_move_reason(board(4, {0: ["T62", "H2", "H3", "H4"]}), "7")
    assert r.code == "seven_total"
    assert r.text.en == (
        "The 7 has no legal move here: the 7 must be used in full, 7 steps; only 3 can be "
        "played here"
    )
    assert r.text.nl == (
        "De 7 kan hier niet gespeeld worden: de 7 moet helemaal gebruikt worden, 7 stappen; "
        "hier kunnen er maar 3 gespeeld worden"
    )


@pytest.mark.parametrize(("card", "home"), [("A", "H1"), ("5", "H4"), ("7", "H4")])
def test_a_fresh_pawn_must_first_leave_its_start(card: str, home: str) -> None:
    # Never "must go round the board", never a count with a lap the pawn did not make.
    r = _reason(board(4, {0: ["S"]}), card, board(4, {0: [home]}))
    assert r.code == "fresh_home"
    assert (
        r.text.en
        == "A pawn just brought out must first leave its start hole before it can come home"
    )
    assert (
        r.text.nl
        == "Een pas opgezette pion moet eerst van zijn startplek af voordat hij naar huis mag"
    )


def test_a_pawn_past_its_start_comes_home_only_round_the_board() -> None:
    r = _reason(board(4, {0: ["T1"]}), "3", board(4, {0: ["H3"]}))
    assert r.code == "home_past_start"
    assert r.text.en == (
        "A pawn goes into its home only forward, through its own start hole T0: the pawn "
        "from T1 has passed it and must first go on round the board"
    )
    assert r.text.nl == (
        "Een pion gaat alleen vooruit het thuishonk in, via zijn eigen startplek T0: de pion "
        "van T1 is daar al voorbij en moet eerst verder het bord rond"
    )
    # A pawn near its home: the count it would need, which is no lap.
    r = _reason(board(4, {0: ["T40"]}), "5", board(4, {0: ["H3"]}))
    assert r.code == "wrong_steps" and r.text.en.endswith("this one went 27")


def test_a_pawn_in_its_home_never_leaves_it() -> None:
    r = _reason(board(4, {0: ["H1"]}), "2", board(4, {0: ["T2"]}))
    assert r.code == "home_stays"
    assert r.text.en == "A pawn in its home never leaves it"
    assert r.text.nl == "Een pion in het thuishonk gaat er nooit meer uit"


def test_a_pawn_in_the_home_blocked_by_another() -> None:
    r = no_move_reason(board(4, {0: ["H1", "H3"]}), "2")
    assert r.code == "home_pass" and r.holes == ("H0.3",)
    assert r.text.en == (
        "The 2 has no legal move here: in the home a pawn may not land on or pass another "
        "pawn (H0.3), and the home has only 4 holes"
    )
    assert r.text.nl == (
        "De 2 kan hier niet gespeeld worden: in het thuishonk mag een pion niet op of over een "
        "andere pion gaan (H0.3), en het thuishonk heeft maar 4 plaatsen"
    )
    r = no_move_reason(board(4, {0: ["H3", "H4"]}), "2")
    assert r.code == "no_move" and "only 4 holes" in r.text.en


def test_the_standard_king_with_an_empty_nest_only_brings_out() -> None:
    r = no_move_reason(board(4, {0: ["T1", "T2", "T3", "T4"]}), "K")
    assert r.code == "no_move"
    assert r.text.en == (
        "The king has no legal move here: the king only brings a pawn out (under these rules "
        "it does not move 13), and no pawn is left in the nest"
    )
    assert r.text.nl == (
        "De heer kan hier niet gespeeld worden: met de heer zet je alleen een pion op (in deze "
        "regels loopt hij geen 13), en er staat geen pion meer in het startvak"
    )
