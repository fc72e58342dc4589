"""What the referee says, from its decisions on the refereed conformance games: golden
texts in Dutch and English (tests/host/voice/golden, read by a Dutch speaker), every kind
of decision covered, names spoken as people say them, hidden hands kept to their seat."""

from __future__ import annotations

import pytest
from conformance_speech import GOLDEN, spoken, traces

from keezbord.engine.notation import parse_move
from keezbord.engine.text import Text
from keezbord.engine.topology import Topology
from keezbord.host.voice import spoken as names
from keezbord.host.voice.narrator import Narrator
from keezbord.host.voice.phrases import phrases

TRACES = traces()


@pytest.mark.parametrize("name", sorted(TRACES))
@pytest.mark.parametrize("lang", ["nl", "en"])
def test_a_refereed_game_is_spoken_as_the_golden_text(name: str, lang: str) -> None:
    said = [u.text.get(lang) for u in spoken(TRACES[name])]
    golden = (GOLDEN / f"{name}.{lang}.txt").read_text().splitlines()
    assert said == golden


def test_every_kind_of_decision_in_the_games_is_spoken() -> None:
    kinds = {u.kind for lines in TRACES.values() for u in spoken(lines)}
    assert {"move", "discard", "turn", "win", "board", "card"} <= kinds
    nl = "\n".join(u.text.nl for lines in TRACES.values() for u in spoken(lines))
    for phrase in (
        "is geslagen",
        "is thuis",
        "Nieuw spel:",
        "Nieuwe ronde:",
        "is aan de beurt",
        "wint het spel",
        "Dat mag niet:",
    ):
        assert phrase in nl


def test_no_hole_label_or_notation_is_read_out() -> None:
    for lines in TRACES.values():
        for u in spoken(lines):
            for lang in ("nl", "en"):
                text = u.text.get(lang)
                assert "T1" not in text and "N3." not in text and ":N-" not in text, text


T4 = Topology(4, 16)


@pytest.mark.parametrize(
    ("hole", "nl", "en"),
    [
        ("T16", "de start van blauw", "blue's start"),
        ("T19", "drie na de start van blauw", "three past blue's start"),
        ("T28", "vier voor de start van geel", "four before yellow's start"),
        ("N1.2", "het startvak van blauw", "blue's nest"),
        ("H2.3", "plek drie in het honk van geel", "hole three of yellow's home"),
    ],
)
def test_holes_are_named_from_the_coloured_start_holes(hole: str, nl: str, en: str) -> None:
    assert names.hole(T4, hole) == Text(nl, en)


def test_a_seven_split_is_said_as_its_two_counts() -> None:
    got = names.move(T4, parse_move("7 1:T20-T25 0:T3-T5", T4))
    assert got == Text("een zeven: vijf en twee", "a seven: five and two")


def test_a_hint_names_a_hidden_card_so_only_its_seat_hears_it() -> None:
    rec = {"type": "hint", "seat": 2, "reason": {"nl": "speel je 7", "en": "play your 7"}}
    (u,) = phrases(rec, T4)
    assert u.seat == 2 and not u.dispute
    table = [u for lines in TRACES.values() for u in spoken(lines)]
    assert all(x.seat is None for x in table)


def test_levels_keep_the_disputes() -> None:
    said = spoken(TRACES["g101-overshoot"])
    disputes = [u.text.en for u in said if u.heard_at("disputes")]
    assert disputes[0].startswith("That is not allowed: the 6 moves a pawn exactly 6 steps")
    assert all(not u.heard_at("off") for u in said)
    assert len([u for u in said if u.heard_at("all")]) == len(said) > len(disputes) > 0


def test_a_card_refused_from_a_hidden_hand_is_not_named_aloud() -> None:
    lines = TRACES["g101-wrong-card"]
    rec = {
        "type": "card_rejected",
        "card": "5",
        "seat": 1,
        "reason": {"nl": "met de 5", "en": "the 5"},
    }
    (shown,) = Narrator(hands_hidden=False).said(rec, T4)  # a reader: the card lies on it
    (hidden,) = Narrator(hands_hidden=True).said(rec, T4)  # a virtual deal: in the hand
    assert "5" in shown.text.nl and "5" not in hidden.text.nl + hidden.text.en
    assert hidden.dispute and hidden.seat is None
    assert hidden.text.nl == "Kaart geweigerd: kies een andere kaart."
    assert any(u.kind == "card" and "met de 5" in u.text.nl for u in spoken(lines))


def test_a_second_card_is_a_dispute_said_with_its_reason() -> None:
    reason = {"nl": "twee kaarten gespeeld in één beurt", "en": "two cards played in one turn"}
    rec = {"type": "second_card", "seat": 0, "cards": ["3", "5"], "reason": reason}
    (u,) = phrases(rec, T4)
    assert u.text.en == "That is not allowed: two cards played in one turn."
    assert u.text.nl.startswith("Dat mag niet: twee kaarten") and u.heard_at("disputes")
