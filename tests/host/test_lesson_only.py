"""Issue 26 part 2/3: a lesson step that says its move is the only good one (``only``)
passes the puzzles' only-move test (engine/puzzles.py ``only_move``: the evaluator of
alternatives at both of its budgets, the move first and ahead of the second best by the
margin), not just "the only legal move of its card".

A step whose hand reaches one position only (one legal move, or one card playable with
one move) has nothing to weigh: it passes trivially, and the test says how many steps
were judged by the evaluator and how many were forced, so that the count cannot hide
behind the forced ones. The budgets are the mining ones (100 and 400 playouts a
candidate): a lesson's hand is one card, so that is well under a second a step."""

from __future__ import annotations

import pytest

from keezbord.engine.movegen import successor_positions
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.puzzles import BUDGETS, MARGIN, only_move, puzzle_seed
from keezbord.host.lessons import COURSE, LessonStep

ONLY = [(les.id, i, s) for les in COURSE for i, s in enumerate(les.steps) if s.only]


def _outcomes(st: LessonStep) -> int:
    """How many different positions the step's hand can leave (0: it must sit out)."""
    pos = Position.from_text(st.position)
    hand = st.hand or ((st.card,) if st.card else ())
    return len({after for c in set(hand) for after in successor_positions(pos, c)})


def _judge(lid: str, i: int, st: LessonStep) -> str:
    """ "forced", "evaluated" (passed the only-move test) or why it failed."""
    if _outcomes(st) <= 1:
        return "forced"
    assert st.card is not None  # several outcomes: a card to play
    pos = Position.from_text(st.position)
    hand = st.hand or (st.card,)
    ev = only_move(pos, hand, budgets=BUDGETS, margin=MARGIN, seed=puzzle_seed(f"{lid}.{i}"))
    if ev is None:
        return "no move clearly best"
    best = ev.find(st.card, parse_move(st.move, pos.topology), pos)
    if best is None or ev.best is not best:
        return f"the evaluator prefers {ev.best.move if ev.best else None}"
    return "evaluated"


def test_every_only_step_passes_the_only_move_test_and_the_count_is_honest() -> None:
    verdicts = {f"{lid}-{i + 1}": _judge(lid, i, st) for lid, i, st in ONLY}
    failed = {k: v for k, v in verdicts.items() if v not in ("forced", "evaluated")}
    assert failed == {}
    evaluated = sorted(k for k, v in verdicts.items() if v == "evaluated")
    forced = sorted(k for k, v in verdicts.items() if v == "forced")
    print(f"only steps: {len(evaluated)} judged by the evaluator {evaluated}, {len(forced)} forced")
    # The course holds steps whose "only" is a real choice, weighed by the evaluator.
    assert evaluated == ["capture-2"]
    assert len(forced) == len(ONLY) - 1


@pytest.mark.parametrize(("lid", "i"), [("seven", 0)], ids=["seven-1"])
def test_a_step_not_marked_only_is_one_the_evaluator_does_not_call_clearly_best(
    lid: str, i: int
) -> None:
    # The 7 split with a capture: the capture is the lesson's move, but other splits stand
    # within the margin of it (the test would fail it), so the step does not say "only".
    st = next(les for les in COURSE if les.id == lid).steps[i]
    assert not st.only
    assert _judge(lid, i, st) != "evaluated"
