"""The search's playout policy (engine/rollout.py): the greedy bot's choices, move for
move, on crowded random positions of every seat count and profile; its variants
(exploring, looking one reply ahead) play legal moves and repeat for the same draws."""

from __future__ import annotations

import random

from engine_helpers import random_positions

from keezbord.engine.board import Board
from keezbord.engine.bots import GreedyBot
from keezbord.engine.cards import RANKS
from keezbord.engine.rollout import Greedy, Policy, playout
from keezbord.engine.search import Known, analyse


def test_the_playout_policy_chooses_what_the_greedy_bot_chooses_with_the_same_draws() -> None:
    rng = random.Random(5)
    compared = sevens = 0
    for i, pos in enumerate(random_positions(400, 11)):
        hand = rng.sample(RANKS, 5)
        b = Board(pos)
        expected = GreedyBot(random.Random(i)).pick(b, pos.turn, hand)
        got = Greedy(b).pick(pos.turn, hand, random.Random(i).random)
        assert got == expected, (pos.to_text(), hand)
        assert b.key() == pos.pawns  # the board is left as it was
        compared += expected is not None
        sevens += expected is not None and "7" in hand
    assert compared > 300 and sevens > 50  # both paths (a 7's repeats) were exercised


def test_the_variants_play_legal_moves_and_repeat_for_the_same_draws() -> None:
    rng = random.Random(8)
    for pos in random_positions(60, 12):
        hands = [rng.sample(RANKS, 4) for _ in range(pos.seats)]
        me = pos.turn
        b = Board(pos)
        first = Greedy(b).pick(me, hands[me], random.Random(1).random)
        if first is None:
            continue
        card, move = first
        for how in (Policy(explore=0.5), Policy(ahead=3)):
            runs = [
                playout(Greedy(b), me, card, move, hands, 8, random.Random(2).random, how)
                for _ in range(2)
            ]
            assert runs[0] == runs[1]
            assert abs(sum(runs[0][0]) - 1.0) < 1e-9
            assert b.key() == pos.pawns
        for how in (Policy(explore=1.0), Policy(ahead=2)):
            g = Greedy(b)
            choice = (
                g.pick_random(me, hands[me], random.Random(3).random)
                if how.explore
                else g.pick_ahead(me, hands, random.Random(3).random, how.ahead)
            )
            assert choice is not None
            assert choice[0] in hands[me] and choice[1] in b.moves(choice[0], me)


def test_a_search_with_a_variant_policy_ranks_legal_moves_deterministically() -> None:
    pos = random_positions(1, 21)[0]
    hand = ["A", "7", "4", "K"]
    runs = [
        analyse(
            Board(pos),
            pos.turn,
            hand,
            Known(),
            playouts=24,
            rng=random.Random(4),
            how=Policy(explore=0.1, ahead=2),
        )
        for _ in range(2)
    ]
    a, b = runs
    assert [(c.card, c.move, c.total) for c in a.ranked] == [
        (c.card, c.move, c.total) for c in b.ranked
    ]
