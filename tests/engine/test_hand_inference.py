"""Hand inference (engine/inference.py): a seat that could bring a pawn out and moved
with a 2 instead is unlikely to hold an ace or a king; the sampled deals weighed by the
seats' choices say so, the uniform ones do not. Off unless asked, deterministic."""

from __future__ import annotations

import random
from collections.abc import Sequence

from keezbord.engine.board import Board
from keezbord.engine.bots import FastChoice
from keezbord.engine.inference import DRAWS, Observed, card_scores, log_weight, pick_deal
from keezbord.engine.playout import play_fast
from keezbord.engine.position import Position
from keezbord.engine.search import Known, SearchBot, sample_hands

# Blue (seat 1) has a pawn on T20 and three in its nest: the greedy model brings one out
# with an A or a K, far before it moves two steps with a 2.
BEFORE = Position.from_text("NNNN/NNNT20/NNNN/NNNN 1 standard")
NOW = Position.from_text("NNNN/NNNT22/NNNN/NNNN 2 standard")
HAND = ["5", "9", "Q", "3"]


def _entering(hands: list[list[str]]) -> bool:
    return any(c in ("A", "K") for c in hands[1])


def test_a_seat_that_did_not_come_out_holds_no_ace_or_king_as_often() -> None:
    scores = card_scores(BEFORE)
    assert scores["A"] > scores["2"] + 20 and scores["K"] > scores["2"] + 20
    known = Known(seen=("2",), hand_sizes=(4, 3, 4, 4))
    seen = (Observed(BEFORE, "2"),)
    rng = random.Random(5)
    uniform = inferred = 0
    n = 300
    for _ in range(n):
        deals = [sample_hands(4, 2, HAND, known, 0, rng) for _ in range(DRAWS)]
        uniform += _entering(deals[0])
        inferred += _entering(pick_deal(deals, seen, rng))
    assert uniform / n > 0.35  # about half of 3-card hands from this pool
    assert inferred / n < 0.12, (uniform, inferred)


def test_the_weight_of_a_deal_follows_the_choice() -> None:
    seen = (Observed(BEFORE, "2"),)
    with_ace = [[], ["A", "5", "6"], [], []]
    without = [[], ["8", "5", "6"], [], []]
    assert log_weight(with_ace, seen) < log_weight(without, seen) - 1.0
    # The card it played counts as held then (it is not in its hand now).
    assert log_weight(without, seen) <= 0.0


def test_only_a_bot_asked_to_infer_weighs_the_choices() -> None:
    board = Board(NOW)
    known = Known(seen=("2",), hand_sizes=(4, 3, 4, 4), observed=(Observed(BEFORE, "2"),))
    plain = Known(seen=("2",), hand_sizes=(4, 3, 4, 4))
    hand = ["A", "7", "K", "4"]
    a = SearchBot(random.Random(1), 60).pick_known(board, 2, hand, known)
    b = SearchBot(random.Random(1), 60).pick_known(board, 2, hand, plain)
    assert a == b  # the plain search ignores what it was not asked to use
    c = SearchBot(random.Random(1), 60, infer=True).pick_known(board, 2, hand, known)
    d = SearchBot(random.Random(1), 60, infer=True).pick_known(board, 2, hand, known)
    assert c == d and c is not None


def test_a_game_with_an_inferring_bot_is_deterministic() -> None:
    def game() -> tuple[object, int]:
        bots = [SearchBot(random.Random(s), 4, infer=s % 2 == 0) for s in range(4)]
        r = play_fast(4, "standard", 3, bots, max_turns=120)
        return r.final, r.turns

    assert game() == game()


class _Spy(SearchBot):
    """A search bot that notes how many of the others' choices it was told."""

    def __init__(self, rng: random.Random, infer: bool) -> None:
        super().__init__(rng, 2, infer=infer)
        self.told: list[int] = []

    def pick_known(
        self, board: Board, seat: int, hand: Sequence[str], known: Known | None
    ) -> FastChoice:
        self.told.append(len(known.observed) if known is not None else 0)
        return super().pick_known(board, seat, hand, known)


def test_the_fast_loop_tells_an_inferring_bot_the_others_choices() -> None:
    spies = [_Spy(random.Random(s), infer=s == 0) for s in range(4)]
    play_fast(4, "standard", 9, spies, max_turns=60)
    assert max(spies[0].told) >= 3  # within a round, the others' plays before its turn
    # Without a bot that infers, the loop keeps none (no position built a turn for it).
    plain = [_Spy(random.Random(s), infer=False) for s in range(4)]
    play_fast(4, "standard", 9, plain, max_turns=60)
    assert all(n == 0 for s in plain for n in s.told)
