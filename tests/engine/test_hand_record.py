"""Games recorded as their players met them (engine/hand_record.py): the hand before each
turn, what the seat knew of the other cards, and the same game as ``play_game``."""

from __future__ import annotations

from collections import Counter

import pytest

from keezbord.engine.cards import deck
from keezbord.engine.game import play_game
from keezbord.engine.hand_record import bots_for, record_selfplay


@pytest.mark.parametrize(
    ("seats", "profile"), [(4, "standard"), (3, "standard"), (4, "reiseditie")]
)
def test_a_recorded_game_is_the_game_with_every_hand(seats: int, profile: str) -> None:
    kinds = ["random", "greedy"] * 4
    rec = record_selfplay(seats, profile, 5, bots_for(kinds[:seats], 5))
    same = play_game(seats, profile, 5, bots_for(kinds[:seats], 5))
    assert rec.winner == same.winner and len(rec.turns) == same.turns
    assert [(t.seat, t.card, t.move) for t in rec.turns] == [
        (t.seat, t.card, t.move) for t in same.history
    ]
    seen: list[str] = []
    shuffle = 0
    for t in rec.turns:
        assert t.hand_known and t.pos.turn == t.seat
        assert t.known.hand_sizes is not None and t.known.hand_sizes[t.seat] == len(t.hand)
        if t.deal[0] != shuffle:
            shuffle, seen = t.deal[0], []
        assert list(t.known.seen) == seen  # everything played or shown this shuffle
        if t.card is None:
            assert t.shown == t.hand and not t.decision
            seen.extend(t.shown)
        else:
            assert t.card in t.hand and t.move is not None and t.decision
            seen.append(t.card)
        # What the seat holds and has seen never exceeds the deck.
        assert not Counter(t.hand) + Counter(t.known.seen) - Counter(deck(seats))
    assert rec.decisions == tuple(t for t in rec.turns if t.card is not None)


def test_a_searching_bot_is_told_what_its_seat_knows() -> None:
    rec = record_selfplay(4, "standard", 2, bots_for(["search", "greedy"] * 2, 2, 8), max_turns=12)
    assert len(rec.turns) == 12 and rec.winner is None
    assert rec.source == "selfplay 4 seats standard seed 2"
