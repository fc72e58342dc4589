"""The one evaluator of alternatives (engine/alternatives.py, issue 26 part 3): every
candidate of a decision played out equally, on the same sampled deals; deterministic for
a seed and a budget."""

from __future__ import annotations

import pytest

from keezbord.engine.advice import explain_choice
from keezbord.engine.alternatives import evaluate_moves, per_candidate
from keezbord.engine.movegen import successors
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.rollout import GREEDY, Policy
from keezbord.engine.search import Known

N4 = ["N", "N", "N", "N"]
H4 = ["H1", "H2", "H3", "H4"]


def P(pawns: list[list[str]], turn: int = 0) -> Position:
    return Position.from_dict({"seats": 4, "turn": turn, "pawns": pawns})


# Red's last pawn on T62 (its partner is home): the 3 takes it home and wins the game, the
# 2 only to its start, and the 8 has no move (it would pass the home entry).
WIN = P([["T62", "H2", "H3", "H4"], ["T10", "N", "N", "N"], H4, ["T40", "N", "N", "N"]])
MID = P([["T5", "T20", "N", "N"], ["T30", "N", "N", "N"], ["T40", "N", "N", "N"], N4])


def test_every_candidate_gets_the_same_playouts_and_the_winning_move_is_first() -> None:
    ev = evaluate_moves(WIN, ["3", "8", "2"], playouts=20, seed=1)
    assert ev.playouts == 20 and all(a.playouts == 20 for a in ev.ranked)
    assert [str(a.move) for a in ev.ranked] == ["3 0:T62-H1", "2 0:T62-T0"]
    assert ev.best is not None and ev.best.win == 1.0  # won in every playout
    assert ev.second is not None and 0.5 < ev.second.win < 1.0
    assert ev.gap == pytest.approx(1.0 - ev.second.win)
    assert [a.win for a in ev.ranked] == sorted((a.win for a in ev.ranked), reverse=True)


def test_deterministic_for_a_seed_and_budget() -> None:
    hand = ["7", "5", "K", "J"]
    a = evaluate_moves(MID, hand, Known(("2", "3")), playouts=15, seed=4)
    b = evaluate_moves(MID, hand, Known(("2", "3")), playouts=15, seed=4)
    c = evaluate_moves(MID, hand, Known(("2", "3")), playouts=15, seed=5)
    assert a == b
    assert [x.win for x in a.ranked] != [x.win for x in c.ranked]


def test_the_playouts_policy_can_be_asked_for_the_judge_plays_greedy_with_its_own_leaf() -> None:
    # bench_calibration --fitted-leaf measures the judge with the bot's leaf: the same
    # deals and moves, the unfinished playouts judged by the fitted leaf instead.
    hand = ["7", "5", "K", "J"]
    default = evaluate_moves(MID, hand, playouts=15, seed=4)
    assert default == evaluate_moves(MID, hand, playouts=15, seed=4, how=GREEDY)
    fitted = evaluate_moves(MID, hand, playouts=15, seed=4, how=Policy(leaf="fitted"))
    assert {(a.card, a.after) for a in fitted.ranked} == {(a.card, a.after) for a in default.ranked}
    assert sorted(a.raw_dist for a in fitted.ranked) != sorted(a.raw_dist for a in default.ranked)


def test_a_total_budget_is_spread_over_the_candidates() -> None:
    hand = ["7", "5", "K"]
    ev = evaluate_moves(MID, hand, playouts=999, total=60, seed=0)
    n = len(ev.ranked)
    assert n > 2 and ev.playouts == per_candidate(60, n) == 60 // n
    assert per_candidate(5, 12) == 1 and per_candidate(100, 0) == 100


def test_cards_restrict_the_candidates_and_include_adds_the_move_played() -> None:
    hand = ["7", "5", "K"]
    only5 = evaluate_moves(MID, hand, playouts=5, cards=["5"])
    assert {a.card for a in only5.ranked} == {"5"}
    assert len(only5.ranked) == len(list(successors(MID, "5")))
    with pytest.raises(ValueError, match="not all in the hand"):
        evaluate_moves(MID, hand, playouts=5, cards=["Q"])
    # A 7 has dozens of splits: the greedy bot's order keeps 12; the move played is
    # judged whatever its rank.
    sevens = [m for m, _ in successors(MID, "7")]
    few = evaluate_moves(MID, ["7"], playouts=1, limit=3)
    assert len(few.ranked) == 3
    low = next(m for m in reversed(sevens) if few.find("7", m, MID) is None)
    with_low = evaluate_moves(MID, ["7"], playouts=1, limit=3, include=("7", low))
    assert with_low.find("7", low, MID) is not None and len(with_low.ranked) == 4


def test_only_plays_exactly_the_moves_asked_and_find_knows_a_7_in_another_order() -> None:
    a = parse_move("7 0:T5-T8 0:T20-T24", MID.topology)
    b = parse_move("7 0:T20-T24 0:T5-T8", MID.topology)
    k = parse_move("K 0:N-S", MID.topology)
    ev = evaluate_moves(MID, ["7", "K"], playouts=10, only=[("7", a), ("K", k)])
    assert len(ev.ranked) == 2
    assert ev.find("7", b, MID) is ev.find("7", a, MID) is not None
    assert ev.find("K", k, MID) is not None and ev.find("K", a, MID) is None


def test_no_legal_move_no_candidates() -> None:
    start = Position.start(4)
    ev = evaluate_moves(start, ["5", "9"], playouts=10)
    assert ev.ranked == () and ev.best is None and ev.gap == 0.0


def test_the_evaluation_explains_itself_in_the_coachs_words() -> None:
    ev = evaluate_moves(WIN, ["3", "8"], playouts=10, seed=2)
    advice = explain_choice(WIN, ["3", "8"], ev.to_analysis())
    assert advice is not None and advice.text == "3 0:T62-H1"
    assert "Wins the game" in advice.sentence("en") and "Wint het spel" in advice.sentence("nl")
