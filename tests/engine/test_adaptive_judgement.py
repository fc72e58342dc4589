"""The adaptive judgement (engine/adaptive_judge.py, issue 38): the analysis's playouts go
where the verdict is in doubt, deterministically for a seed; a forced move is played
out for its chances only; and the playout policy's memory of positions changes no
choice (the same playouts, faster)."""

from __future__ import annotations

import pytest

from keezbord.engine.adaptive_judge import MAX_BATCHES, Z, judge_adaptive, settled
from keezbord.engine.hand_record import GameRecord, bots_for, record_selfplay
from keezbord.engine.judge import (
    PLAYOUTS_PER_SCREEN,
    THRESHOLDS,
    judge,
    judge_seed,
    screen_for,
    seat_screen,
)
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.search import Known

H4 = ["H1", "H2", "H3", "H4"]
LEVELS = [at for _, at in THRESHOLDS]


@pytest.fixture(scope="module")
def game() -> GameRecord:
    return record_selfplay(4, "standard", 33, bots_for(["random", "greedy"] * 2, 33))


def test_a_verdict_is_settled_only_when_no_threshold_is_within_z_errors() -> None:
    assert Z == 2.5
    inaccuracy, mistake, blunder = sorted(LEVELS)
    assert settled(0.0, 0.005, LEVELS)  # clearly no label
    assert settled(0.2, 0.02, LEVELS)  # clearly a blunder
    between = (inaccuracy + mistake) / 2  # between ?! and ?, too close to either
    assert not settled(between, (mistake - between) / 1.7, LEVELS)
    assert not settled(inaccuracy - 0.008, 0.005, LEVELS)  # ?! within 1.6 errors
    mid = (mistake + blunder) / 2  # a mistake, over three errors from both ends ...
    assert settled(mid, (blunder - mid) / 3.2, LEVELS)
    assert not settled(mid, (blunder - mid) / 2.2, LEVELS)  # ... 2.2 errors: not yet


def test_the_same_seed_gives_the_same_verdict_and_another_seed_judges_anew(
    game: GameRecord,
) -> None:
    def verdicts(seed: int) -> list[tuple[float, float, str, int]]:
        out = []
        for t in game.decisions[10:40]:
            assert t.card is not None and t.move is not None
            v = judge(
                t.pos,
                t.hand,
                t.known,
                t.card,
                t.move,
                playouts=6,
                seed=judge_seed(seed, t.index),
            )
            out.append((v.win, v.loss, str(v.best.move), v.judged.playouts))
        return out

    first = verdicts(4)
    assert first == verdicts(4)
    assert [w for w, *_ in verdicts(5)] != [w for w, *_ in first]


def test_a_forced_move_is_played_out_for_its_chances_only() -> None:
    pos = Position.from_dict(
        {"seats": 4, "turn": 0, "pawns": [["T20", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]}
    )
    move = parse_move("5 0:T20-T25", pos.topology)
    screen, judged, mine, best = judge_adaptive(
        pos, ["5"], Known(), "5", move, LEVELS, screen=8, seed=1
    )
    assert len(screen.ranked) == 1 and mine == best and judged is screen
    assert mine.playouts == 8 and 0 < mine.win < 1 and sum(mine.dist) == pytest.approx(1)


def test_a_plain_blunder_is_found_and_its_fresh_deals_stop_within_the_limit() -> None:
    pos = Position.from_dict(
        {
            "seats": 4,
            "turn": 0,
            "pawns": [["T9", "H2", "H3", "H4"], ["T14", "H2", "H3", "H4"], H4, H4],
        }
    )
    move = parse_move("2 0:T9-T11", pos.topology)  # the 5 captures blue's last pawn
    v = judge(pos, ["5", "2"], Known(), "2", move, playouts=8, seed=3)
    assert str(v.best.move) == "5 0:T9-T14" and v.label == "blunder"
    assert v.judged is not v.first  # the two again on fresh deals
    assert 8 <= v.judged.playouts <= 8 * MAX_BATCHES and v.judged.playouts % 8 == 0


def test_the_best_move_made_is_no_mistake(game: GameRecord) -> None:
    pos = Position.from_dict(
        {
            "seats": 4,
            "turn": 0,
            "pawns": [["T9", "H2", "H3", "H4"], ["T14", "H2", "H3", "H4"], H4, H4],
        }
    )
    move = parse_move("5 0:T9-T14", pos.topology)
    v = judge(pos, ["5", "2"], Known(), "5", move, playouts=8, seed=3)
    assert v.loss == 0 and v.label is None and str(v.best.move) == "5 0:T9-T14"


def test_six_seats_judge_with_half_the_first_pass() -> None:
    """A 6-seat decision costs about twice a 4-seat one: its first pass is half of the
    budget asked (never below one deal), other boards' the whole; a time's budget
    (``--budget-ms``) is a decision's whole spend already and is not halved."""
    assert seat_screen(6, 8) == 4 and seat_screen(6, 5) == 3 and seat_screen(6, 1) == 1
    assert seat_screen(4, 8) == 8 and seat_screen(8, 8) == 8 and seat_screen(3, 8) == 8
    kinds = ["random", "greedy"] * 3
    rec = record_selfplay(6, "standard", 5, bots_for(kinds, 5), max_turns=30)
    turn = next(t for t in rec.decisions if t.card is not None and t.move is not None)
    assert turn.card is not None and turn.move is not None
    v = judge(turn.pos, turn.hand, turn.known, turn.card, turn.move, playouts=8, seed=1)
    assert v.first.playouts >= 4 and v.first.ranked[-1].playouts == 4  # dropped at once
    # A time's budget (``total``) is already a decision's whole spend: not halved again.
    total = 8 * PLAYOUTS_PER_SCREEN
    v = judge(turn.pos, turn.hand, turn.known, turn.card, turn.move, total=total, seed=1)
    assert v.first.ranked[-1].playouts == screen_for(total) == 8
