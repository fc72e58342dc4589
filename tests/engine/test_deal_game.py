"""Dealing, turn order, must-play and discards, partner exchange, seeded determinism."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from keezbord.engine.bots import RandomBot
from keezbord.engine.cards import RANKS, deck
from keezbord.engine.deal import Table, deal_hands, shuffled_deck
from keezbord.engine.game import Game, MustPlayError, play_game
from keezbord.engine.notation import IllegalMoveError, Move, Step
from keezbord.engine.position import FRESH, NEST, Position


@pytest.mark.parametrize("seats", range(2, 9))
def test_deck_is_thirteen_cards_a_seat(seats: int) -> None:
    cards = deck(seats)
    assert len(cards) == 13 * seats
    assert Counter(cards) == {r: seats for r in RANKS}


def test_deck_sizes_named_in_the_rules() -> None:
    assert len(deck(2)) == 26 and len(deck(4)) == 52 and len(deck(6)) == 78
    assert len(deck(8)) == 104


@pytest.mark.parametrize("seats", range(2, 9))
def test_a_shuffle_deals_five_four_four_from_one_deck(seats: int) -> None:
    rng = random.Random(seats)
    table = Table.first(seats, dealer=seats - 1)
    stock = shuffled_deck(seats, rng)
    dealt: list[str] = []
    sizes = []
    for _ in range(3):
        hands, stock = deal_hands(table, stock)
        sizes.append({len(h) for h in hands})
        dealt += [c for h in hands for c in h]
        table = table.next_round()
    assert sizes == [{5}, {4}, {4}]
    assert stock == []
    assert Counter(dealt) == Counter(deck(seats))


def test_same_dealer_three_rounds_then_next_seat_and_leader_after_dealer() -> None:
    table = Table.first(5, dealer=3)
    seen = []
    for _ in range(7):
        seen.append((table.dealer, table.round_no, table.round_size, table.leader, table.turn))
        table = table.next_round()
    assert seen == [
        (3, 0, 5, 4, 4),
        (3, 1, 4, 4, 4),
        (3, 2, 4, 4, 4),
        (4, 0, 5, 0, 0),
        (4, 1, 4, 0, 0),
        (4, 2, 4, 0, 0),
        (0, 0, 5, 1, 1),
    ]


def test_turns_go_clockwise_and_the_round_ends_when_all_hands_are_empty() -> None:
    table = Table.first(3, dealer=0)
    order = []
    while not table.round_over:
        assert table.turn is not None
        order.append(table.turn)
        table = table.played(table.turn)
    assert order == [1, 2, 0] * 5


def test_a_discarder_sits_out_until_the_next_deal() -> None:
    table = Table.first(4, dealer=0)  # seat 1 leads
    table = table.played(1)
    table = table.discarded(2)
    assert table.sitting_out() == (2,)
    order = []
    while not table.round_over:
        assert table.turn is not None
        order.append(table.turn)
        table = table.played(table.turn)
    assert 2 not in order
    assert Counter(order) == {3: 5, 0: 5, 1: 4}
    assert table.next_round().sitting_out() == ()


def test_game_deals_from_a_seeded_shuffle() -> None:
    g = Game(4, seed=5)
    assert [len(g.hand(s)) for s in range(4)] == [5, 5, 5, 5]
    assert len(g.stock) == 52 - 20
    assert g.to_play == g.table.leader == (g.table.dealer + 1) % 4
    assert g.position.turn == g.to_play
    h = Game(4, seed=5)
    assert [h.hand(s) for s in range(4)] == [g.hand(s) for s in range(4)]
    assert h.table == g.table
    others = [Game(4, seed=s) for s in range(6, 12)]
    assert any([o.hand(s) for s in range(4)] != [g.hand(s) for s in range(4)] for o in others)


def test_must_play_discard_raises_when_a_card_is_playable() -> None:
    g = Game(4, seed=1)
    seat = g.to_play
    assert seat is not None
    g.hands[seat] = ["A", "5"]
    with pytest.raises(MustPlayError):
        g.discard()
    assert g.hand(seat) == ["A", "5"]


def test_discard_without_playable_card_and_sitting_out() -> None:
    g = Game(4, seed=1)
    seat = g.to_play
    assert seat is not None
    g.hands[seat] = ["5", "7", "J", "4", "Q"]  # nothing on the board: none playable
    g.discard()
    assert g.history[-1].card is None and g.history[-1].discarded == ("5", "7", "J", "4", "Q")
    assert g.hand(seat) == []
    assert g.table.cards_left[seat] == 0
    assert g.to_play == (seat + 1) % 4
    rng = random.Random(0)
    bots = [RandomBot(rng) for _ in range(4)]
    round_now = (g.table.shuffle_no, g.table.round_no)
    while (g.table.shuffle_no, g.table.round_no) == round_now and not g.over:
        assert g.to_play != seat
        g.play_turn(bots[g._seat(None)])


def test_play_refuses_a_card_not_held_or_an_illegal_move() -> None:
    g = Game(4, seed=2)
    seat = g.to_play
    assert seat is not None
    g.hands[seat] = ["A", "K", "5", "5", "9"]
    with pytest.raises(IllegalMoveError):
        g.play("Q", Move("Q", (Step(seat, NEST, FRESH),)))
    with pytest.raises(IllegalMoveError):
        g.play("5", Move("5", (Step(seat, NEST, FRESH),)))
    after = g.play("K", Move("K", (Step(seat, NEST, FRESH),)))
    assert after.pawns[seat][-1] == FRESH
    assert sorted(g.hand(seat)) == ["5", "5", "9", "A"]
    assert g.position.turn == g.to_play == (seat + 1) % 4


class _GiveFirst:
    name = "give-first"

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, pos: Position, hand: Sequence[str]) -> None:
        return None

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        self.asked += 1
        return hand[0]


def test_partner_exchange_in_reiseditie() -> None:
    g = Game(4, "reiseditie", seed=3)
    before = [g.hand(s) for s in range(4)]
    bots = [_GiveFirst() for _ in range(4)]
    g.exchange(bots)
    for s in range(4):
        partner = (s + 2) % 4
        assert g.hand(s) == [*before[s][1:], before[partner][0]]
    assert [b.asked for b in bots] == [1, 1, 1, 1]
    g.exchange(bots)  # once per round only
    assert [b.asked for b in bots] == [1, 1, 1, 1]


def test_no_partner_exchange_elsewhere() -> None:
    for prof, seats in (("standard", 4), ("reiseditie", 3), ("keezspel", 6)):
        g = Game(seats, prof, seed=3)
        before = [g.hand(s) for s in range(seats)]
        bots = [_GiveFirst() for _ in range(seats)]
        g.exchange(bots)
        assert [g.hand(s) for s in range(seats)] == before
        assert all(b.asked == 0 for b in bots)


def _history(seed: int, seats: int, profile: str) -> list[str]:
    bots = [RandomBot(random.Random(seed * 100 + s)) for s in range(seats)]
    result = play_game(seats, profile, seed, bots)
    return [str(t) for t in result.history]


def test_same_seed_same_game_different_seed_different_game() -> None:
    a = _history(7, 4, "reiseditie")
    assert a == _history(7, 4, "reiseditie")
    assert a != _history(8, 4, "reiseditie")


def test_play_game_reaches_a_winner_and_rounds_follow_the_deal() -> None:
    bots = [RandomBot(random.Random(s)) for s in range(3)]
    result = play_game(3, "standard", 4, bots)
    assert result.winner is not None
    assert result.final.winner() == result.winner
    assert result.turns == len(result.history)
    assert result.discards == sum(1 for t in result.history if t.card is None)
    # Every round is 5, 4 or 4 cards a seat: plays per round never exceed 5 * seats.
    assert result.turns <= 5 * 3 * result.rounds
