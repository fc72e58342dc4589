"""A game begun at a position (the simulator's ``--setup``, a lesson, a puzzle):
``Game.begin_at`` gives a seat the hand asked for, deals the rest from what is left of
the seed's deck, the same for the same seed, and plays on from there."""

from __future__ import annotations

from collections import Counter

import pytest

from keezbord.engine.cards import deck
from keezbord.engine.game import Game
from keezbord.engine.position import Position

POS = Position.from_text("NNT7T20/NNNT12/NNNN/NNNN 0 standard")


def _begun(seed: int) -> Game:
    game = Game(4, "standard", seed, dealer=3, record=False)
    game.begin_at(POS, [1, 5, 5, 5], {0: ["5"]})
    return game


def test_the_hand_given_and_the_rest_from_the_deck_the_same_for_a_seed() -> None:
    game = _begun(7)
    assert game.hands[0] == ["5"] and [len(h) for h in game.hands] == [1, 5, 5, 5]
    assert game.position == POS and game.to_play == 0
    every = Counter(c for h in game.hands for c in h) + Counter(game.stock)
    assert every == Counter(deck(4))  # one deck: nothing made up, nothing lost
    assert _begun(7).hands == game.hands and _begun(8).hands != game.hands
    game.play("5", "5 0:T7-T12")  # red's only card: it sits out the rest of the round
    assert game.to_play == 1 and game.table.cards_left == (0, 5, 5, 5)


@pytest.mark.parametrize(
    ("left", "given", "words"),
    [
        ([1, 5, 5, 5], {0: ["5", "5"]}, "seat 0's hand"),
        ([5, 5, 5, 5], {0: ["5"] * 5}, "no more '5'"),
        ([0, 5, 5, 5], {}, "holds no cards"),
        ([6, 5, 5, 5], {}, "0 to 5"),
    ],
)
def test_a_hand_the_deck_cannot_give_is_refused(
    left: list[int], given: dict[int, list[str]], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        Game(4, "standard", 1, dealer=3).begin_at(POS, left, given)
