"""The game analysis (engine/analysis.py, issue 27): each decision judged with what its
player knew, labels by loss, accuracy, and each team's swing split exactly into its own
decisions, the others' and the cards; deterministic per decision; a retry judged."""

from __future__ import annotations

import math

import pytest

from keezbord.engine.analysis import (
    ACCURACY_SCALE,
    THRESHOLDS,
    DiscardRow,
    GameAnalysis,
    Row,
    analyse_game,
    decision_accuracy,
    iter_rows,
    judge_turn,
    label_of,
)
from keezbord.engine.hand_record import GameRecord, TurnRecord, bots_for, record_selfplay
from keezbord.engine.notation import IllegalMoveError, parse_move
from keezbord.engine.position import Position
from keezbord.engine.retry import judge_retry, retry_target
from keezbord.engine.search import Known

H4 = ["H1", "H2", "H3", "H4"]


@pytest.fixture(scope="module")
def game() -> GameRecord:
    return record_selfplay(4, "standard", 21, bots_for(["random", "greedy"] * 2, 21))


@pytest.fixture(scope="module")
def analysed(game: GameRecord) -> GameAnalysis:
    return analyse_game(game, playouts=3, seed=2)


def test_labels_and_accuracy_follow_the_thresholds() -> None:
    (blunder, b), (mistake, m), (inacc, i) = THRESHOLDS
    assert (blunder, mistake, inacc) == ("blunder", "mistake", "inaccuracy") and b > m > i > 0
    assert label_of(0.0) is None and label_of(i - 1e-9) is None
    assert label_of(i) == "inaccuracy" and label_of(m) == "mistake" and label_of(b) == "blunder"
    assert decision_accuracy(0) == 100 and decision_accuracy(b) == pytest.approx(50)
    assert decision_accuracy(i) > decision_accuracy(m) > 50
    assert pytest.approx(b / math.log(2)) == ACCURACY_SCALE


def test_every_turn_is_a_row_and_every_decision_is_judged(
    game: GameRecord, analysed: GameAnalysis
) -> None:
    assert len(analysed.rows) == len(game.turns)
    for row, turn in zip(analysed.rows, game.turns, strict=True):
        assert row.index == turn.index and row.seat == turn.seat
        if turn.card is None:
            assert isinstance(row, DiscardRow) and row.cards == turn.shown
            continue
        assert isinstance(row, Row) and row.move == str(turn.move) and row.card == turn.card
        assert 0 <= row.win <= 1 and 0 <= row.best_win <= 1
        assert row.loss == pytest.approx(max(0.0, row.best_win - row.win))
        assert row.label == label_of(row.loss)
        assert (row.comment is not None) == (row.label is not None)
        if row.forced:
            assert row.loss == 0 and row.move == row.best_move
    assert [r.n for r in analysed.decisions] == list(range(1, len(game.decisions) + 1))
    labelled = [r for r in analysed.decisions if r.label]
    assert labelled, "random players make mistakes"
    r = labelled[0]
    assert r.comment is not None and r.comment.en.startswith("There was a better move")
    assert r.comment.nl.startswith("Dat kon beter") and r.best_holes


def test_the_split_adds_up_to_the_swing(analysed: GameAnalysis) -> None:
    teams = analysed.split()
    assert [t["seats"] for t in teams] == [[0, 2], [1, 3]]
    for t in teams:
        assert t["own"] + t["cards"] + t["others"] == pytest.approx(t["swing"], abs=1e-3)
        assert t["start"] == 0.5 and t["end"] in (0.0, 1.0)
    # What one team.s decisions lost, the other gained (two teams: a zero-sum split).
    assert teams[0]["own"] == pytest.approx(-teams[1]["others"], abs=1e-3)
    assert teams[0]["cards"] == pytest.approx(-teams[1]["cards"], abs=1e-3)
    for c in analysed.curve():
        assert sum(c) == pytest.approx(1.0)
    summary = analysed.summary()
    assert summary["decisions"] == len(analysed.decisions)
    for p in summary["players"]:
        mine = [r for r in analysed.decisions if r.seat == p["seat"]]
        chosen = [r for r in mine if not r.forced]
        assert p["decisions"] == len(mine) and p["choices"] == len(chosen)
        assert p["accuracy"] == pytest.approx(
            sum(decision_accuracy(r.loss) for r in chosen) / len(chosen), abs=0.05
        )
        assert p["lost"] == pytest.approx(sum(r.loss for r in mine), abs=1e-3)


def test_three_teams_share_the_rest() -> None:
    rec = record_selfplay(3, "standard", 4, bots_for(["greedy"] * 3, 4), max_turns=30)
    a = analyse_game(rec, playouts=3)
    assert a.teams() == [(0,), (1,), (2,)]
    for c in a.curve():
        assert len(c) == 3 and sum(c) == pytest.approx(1.0)
    for t in a.split():  # not finished: the end is the last chance
        assert t["own"] + t["cards"] + t["others"] == pytest.approx(t["swing"], abs=1e-3)


def test_deterministic_and_judged_alike_whatever_else_is_analysed(game: GameRecord) -> None:
    def rows(turns: slice, seed: int = 9) -> list[Row]:
        some = GameRecord(game.start, game.turns[turns], game.winner)
        return [r for r in iter_rows(some, playouts=5, seed=seed) if isinstance(r, Row)]

    wide = rows(slice(20, 80))
    assert wide == rows(slice(20, 80))
    part = rows(slice(40, 60))
    by_index = {r.index: r for r in wide}
    assert part and all(
        (r.win, r.best_move, r.loss)
        == (by_index[r.index].win, by_index[r.index].best_move, by_index[r.index].loss)
        for r in part
    )
    assert [r.win for r in rows(slice(40, 60), seed=10)] != [r.win for r in part]


def test_a_hand_not_known_is_judged_among_the_cards_moves() -> None:
    pos = Position.from_dict(
        {"seats": 4, "turn": 0, "pawns": [["T9", "T30", "N", "N"], ["T14", "N", "N", "N"], H4, H4]}
    )
    move = parse_move("5 0:T30-T35", pos.topology)
    turn = TurnRecord(0, 0, pos, ("5",), False, Known((), (4, 4, 4, 4)), "5", move, (0, 1))
    row = judge_turn(turn, 1, playouts=20, total=None, seed=0)
    assert not row.hand_known and row.best_move.startswith("5 ")
    assert row.candidates == 2  # the 5 moves either pawn; the rest of the hand unknown
    assert row.best_move == "5 0:T9-T14"  # it captures blue
    assert row.label is not None


def test_trying_a_mistake_again() -> None:
    pos = Position.from_dict(
        {
            "seats": 4,
            "turn": 0,
            "pawns": [["T9", "H2", "H3", "H4"], ["T14", "H2", "H3", "H4"], H4, H4],
        }
    )
    move = parse_move("2 0:T9-T11", pos.topology)
    turn = TurnRecord(0, 0, pos, ("5", "2"), True, Known(), "2", move, (0, 0))
    row = judge_turn(turn, 1, playouts=30, total=None, seed=0)
    assert row.best_move == "5 0:T9-T14" and row.label == "blunder"
    assert retry_target(turn) == (pos, ("5", "2"))
    best = judge_retry(turn, row, "5 0:T9-T14")
    assert best.outcome == "best" and best.text.en.startswith("The best move!")
    assert "Captures blue's pawn" in best.text.en and best.text.nl.startswith("De beste zet!")
    again = judge_retry(turn, row, "2 0:T9-T11", playouts=40)
    assert again.outcome == "mistake" and again.text.en.startswith("Still a mistake.")
    assert "Nog steeds een fout" in again.text.nl and again.best == "5 0:T9-T14"
    d = again.to_dict()
    assert set(d["text"]) == {"nl", "en"} and d["outcome"] == "mistake"
    with pytest.raises(IllegalMoveError):
        judge_retry(turn, row, "9 0:T9-T18")


def test_a_retry_says_the_best_move_once_and_in_words() -> None:
    # Issue 40, item 14: "The best move! The best choice." and "good enough ... the best
    # move (Q 0:T11-T23)": said once, and the move in words.
    pos = Position.from_dict(
        {"seats": 4, "turn": 0, "pawns": [["T20", "T40", "H3", "H4"], H4, H4, H4]}
    )
    move = parse_move("5 0:T20-T25", pos.topology)
    turn = TurnRecord(0, 0, pos, ("5",), True, Known(), "5", move, (0, 0))
    row = judge_turn(turn, 1, playouts=30, total=None, seed=0)
    assert row.best_move == "5 0:T20-T25"
    best = judge_retry(turn, row, "5 0:T20-T25", playouts=40)
    assert best.outcome == "best" and best.text.en == "The best move!"
    good = judge_retry(turn, row, "5 0:T40-T45", playouts=40)
    assert good.outcome == "good"
    assert "(the 5: red T20 → T25)" in good.text.en and "0:T20" not in good.text.en
    assert "0:T20" not in good.text.nl
