"""Player text names a card the way its language does: Dutch text the aas, heer, vrouw and
boer (RULES.md's words), English text the ace, king, queen and jack; never the English
letters (A, K, Q, J) in Dutch text, nor a move's notation."""

from __future__ import annotations

import re

import pytest

from keezbord.engine.advice import advise, move_reasons
from keezbord.engine.cards import RANKS
from keezbord.engine.describe import describe_move
from keezbord.engine.explain import no_move_reason
from keezbord.engine.hand_record import bots_for, record_selfplay
from keezbord.engine.movegen import successors
from keezbord.engine.position import Position
from keezbord.engine.text import Text, card_label, card_name

N4 = ["N", "N", "N", "N"]
LETTER = re.compile(r"\b[AKQJ]\b")
ENGLISH = re.compile(r"\b(ace|king|queen|jack)\b", re.IGNORECASE)
DUTCH = re.compile(r"\b(aas|heer|vrouw|boer)\b", re.IGNORECASE)


def P(pawns: list[list[str]], turn: int = 0) -> Position:
    return Position.from_dict({"seats": 4, "turn": turn, "pawns": pawns})


def _dutch_and_english(t: Text) -> None:
    assert not LETTER.search(t.nl) and not ENGLISH.search(t.nl), t.nl
    assert not LETTER.search(t.en) and not DUTCH.search(t.en), t.en


@pytest.mark.parametrize(
    ("card", "nl", "en"),
    [
        ("A", "de aas", "the ace"),
        ("K", "de heer", "the king"),
        ("Q", "de vrouw", "the queen"),
        ("J", "de boer", "the jack"),
        ("7", "de 7", "the 7"),
        ("10", "de 10", "the 10"),
    ],
)
def test_a_card_is_named_in_each_language(card: str, nl: str, en: str) -> None:
    assert card_name(card) == Text(nl, en)


def test_a_court_card_short_label_is_the_one_a_dutch_deck_prints() -> None:
    assert [card_label(c).nl for c in ("A", "K", "Q", "J")] == ["A", "H", "V", "B"]
    assert [card_label(c).en for c in ("A", "K", "Q", "J")] == ["A", "K", "Q", "J"]


def test_what_is_no_card_is_named_as_written() -> None:
    assert card_name("joker") == Text("joker", "joker")


def test_a_threat_by_a_queen_is_the_vrouw_in_dutch() -> None:
    # Blue on T3 reaches T15 with its queen (12): red's only move lands there.
    pos = P([["T10", "N", "N", "N"], ["T3", "N", "N", "N"], N4, N4])
    adv = advise(pos, ["5"], playouts=8, seed=1)
    assert adv is not None and adv.text == "5 0:T10-T15"
    assert "de vrouw van blauw" in adv.sentence("nl")
    assert "blue's queen" in adv.sentence("en")
    _dutch_and_english(Text(adv.sentence("nl"), adv.sentence("en")))


def test_player_text_over_a_whole_game_names_cards_in_its_language() -> None:
    # Every position of a game between bots: each card's moves in words, the reasons a
    # hint gives for them, and why a card cannot be played.
    rec = record_selfplay(4, "standard", 5, bots_for(["greedy"] * 4, 5), max_turns=120)
    said = 0
    for turn in rec.turns:
        for card in RANKS:
            moves = [m for m, _ in successors(turn.pos, card)]
            if not moves:
                _dutch_and_english(no_move_reason(turn.pos, card).text)
                continue
            for m in moves[:3]:
                _dutch_and_english(describe_move(turn.pos, m))
                for r in move_reasons(turn.pos, m, list(turn.hand)):
                    _dutch_and_english(r)
                    said += 1
    assert said > 100
