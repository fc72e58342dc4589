"""One judge, one scale: what the coach says after a move is what the analysis says of it
after the game (a playtest found "the better move wins 31%, yours 8%" from the coach
where the analysis said "? mistake (-4%), 36% vs 32%", and ?? blunders the coach kept
quiet about). At the same budget and seed they are the same judgement: the coach speaks
exactly on the analysis's blunders, with its numbers and its words."""

from __future__ import annotations

import pytest

from keezbord.engine.advice import COACH_THRESHOLD, coach
from keezbord.engine.analysis import Row, analyse_game
from keezbord.engine.hand_record import bots_for, record_selfplay
from keezbord.engine.judge import (
    ANALYSIS_PLAYOUTS,
    PLAYOUTS_PER_SCREEN,
    THRESHOLDS,
    coach_playouts,
    coach_screen,
    judge_seed,
)

PLAYOUTS = 6
SEED = 4


@pytest.mark.parametrize("seats", [4, 6])
def test_the_coach_speaks_on_the_analysis_blunders_with_its_numbers(seats: int) -> None:
    kinds = ["random", "greedy"] * (seats // 2)
    # Games with a blunder in their first 70 turns (seed 12 at 4 seats: turn 24 loses
    # 0.13; seed 11 at 6 seats: turn 66, 0.08), so the coach has something to say.
    game = {4: 12, 6: 11}[seats]
    rec = record_selfplay(seats, "standard", game, bots_for(kinds, game), max_turns=70)
    rows = {r.index: r for r in analyse_game(rec, playouts=PLAYOUTS, seed=SEED).decisions}
    spoke = 0
    for turn in rec.decisions:
        assert turn.card is not None and turn.move is not None
        row: Row = rows[turn.index]
        remark = coach(
            turn.pos,
            turn.hand,
            turn.card,
            turn.move,
            turn.known,
            playouts=PLAYOUTS,
            seed=judge_seed(SEED, turn.index),
            hand_known=turn.hand_known,
        )
        assert (remark is not None) == (row.label == "blunder"), (turn.index, row.loss)
        if remark is not None:
            spoke += 1
            assert remark.played_win == pytest.approx(row.win)
            assert remark.better.win == pytest.approx(row.best_win)
            assert remark.better.text == row.best_move
            assert row.comment is not None and remark.text == row.comment
            assert "blunder" in remark.text.en and "blunder" in remark.text.nl
    assert spoke, "random players blunder"


def test_the_coach_margin_is_the_blunder_threshold() -> None:
    assert dict(THRESHOLDS)["blunder"] == COACH_THRESHOLD


def test_a_coach_with_the_time_for_it_judges_at_the_analysis_budget() -> None:
    """The web coach's budget is a time (``total`` playouts a decision): the same
    adaptive judge at the analysis's budget when the time affords it, a smaller first
    pass when it does not, never a larger one (more would not agree better)."""
    assert coach_screen(10**6) == ANALYSIS_PLAYOUTS
    assert coach_screen(ANALYSIS_PLAYOUTS * PLAYOUTS_PER_SCREEN) == ANALYSIS_PLAYOUTS
    assert coach_screen(3 * PLAYOUTS_PER_SCREEN) == 3 < ANALYSIS_PLAYOUTS
    assert coach_screen(0) == 1
    assert coach_playouts(3 * PLAYOUTS_PER_SCREEN, 7) == 3 and coach_playouts(None, 7) == 7


def test_the_coach_on_a_time_budget_says_what_the_default_analysis_says() -> None:
    """At the analysis's default budget (the web coach's time at 100 ms buys it here),
    a 4-seat game's coach remarks are the default analysis's blunders, number for
    number."""
    rec = record_selfplay(4, "standard", 12, bots_for(["random", "greedy"] * 2, 12), max_turns=50)
    rows = {r.index: r for r in analyse_game(rec, playouts=ANALYSIS_PLAYOUTS, seed=0).decisions}
    spoke = 0
    for turn in rec.decisions:
        assert turn.card is not None and turn.move is not None
        remark = coach(
            turn.pos,
            turn.hand,
            turn.card,
            turn.move,
            turn.known,
            total=10 * ANALYSIS_PLAYOUTS * PLAYOUTS_PER_SCREEN,  # a time with room to spare
            seed=judge_seed(0, turn.index),
            hand_known=turn.hand_known,
        )
        row = rows[turn.index]
        assert (remark is not None) == (row.label == "blunder"), (turn.index, row.loss)
        if remark is not None:
            spoke += 1
            assert remark.played_win == pytest.approx(row.win)
            assert remark.better.win == pytest.approx(row.best_win)
    assert spoke, "random players blunder"
