"""Issue 26 part 2: the course. Every step's move is legal and, where the step says it is
the only good one, passes the only-move test (test_lesson_only.py); every step played on the referee
(the pawns' hole events, the card tapped) is judged right, its typical wrong move is
refused with the rule it breaks, a legal move that is not the task says what to look
for; the learner's progress is kept per name in the journal (schema migration 2)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from keezbord.engine.movegen import successor_positions
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, Discard, Event, HoleEvent, Tick
from keezbord.host.journal import Journal
from keezbord.host.journal_schema import SCHEMA_VERSION, schema_version
from keezbord.host.lessons import COURSE, LessonStep, Progress, judge, judge_referee, step_setup
from keezbord.host.lessons.judge import dead_hand, wanted
from keezbord.host.referee import Decision, begin, setup_from_dict, step
from keezbord.host.sim.physical import events_for_move

STEPS = [(les.id, i, s) for les in COURSE for i, s in enumerate(les.steps)]
IDS = [f"{lid}-{i + 1}" for lid, i, _ in STEPS]


def test_the_course_has_ten_lessons_each_in_dutch_and_english() -> None:
    assert len(COURSE) >= 10
    assert len({les.id for les in COURSE}) == len(COURSE)
    for les in COURSE:
        assert les.steps
        for text in (les.title, les.intro, *(t for s in les.steps for t in (s.task, s.why))):
            assert text.nl and text.en and text.nl != text.en


@pytest.mark.parametrize(("lid", "i", "st"), STEPS, ids=IDS)
def test_every_step_move_is_legal_and_an_only_move_is_the_only_one(
    lid: str, i: int, st: LessonStep
) -> None:
    pos = Position.from_text(st.position)
    assert pos.turn == 0
    if st.move == "discard":
        assert st.card is None and dead_hand(st)  # no card of the hand can be played
        return
    assert st.card is not None and (not st.hand or st.card in st.hand)
    moves = [str(m) for m in successor_positions(pos, st.card).values()]
    assert st.move in moves
    if len(set(successor_positions(pos, st.card))) > 1:
        # another legal move: the step says what to look for (and, if it says its move is
        # the only good one, the only-move test holds it to that: test_lesson_only.py)
        assert st.hint is not None


def _play(st: LessonStep, evs: list[Event]) -> list[Decision]:
    state, _ = begin(setup_from_dict(step_setup(st)))
    out: list[Decision] = []
    t = 0
    for ev in evs:
        state, effects = step(state, ev)
        out += [e for e in effects if isinstance(e, Decision)]
        t = ev.t
    state, effects = step(state, Tick(t + 3000))  # the settle time passes
    return out + [e for e in effects if isinstance(e, Decision)]


def _moved(st: LessonStep, seed: int = 0) -> list[Event]:
    """The learner plays the step's move with real pawns: the card, then the hole events."""
    pos = Position.from_text(st.position)
    if st.move == "discard":
        return [Discard(1000, st.hand)]
    assert st.card is not None
    after = wanted(st)
    assert after is not None
    move = successor_positions(pos, st.card)[after]
    return [CardTap(1000, st.card), *events_for_move(pos, move, after, random.Random(seed), 2000)]


@pytest.mark.parametrize(("lid", "i", "st"), STEPS, ids=IDS)
def test_every_step_played_on_the_referee_is_right_and_its_wrong_move_is_explained(
    lid: str, i: int, st: LessonStep
) -> None:
    verdict = judge_referee(st, _play(st, _moved(st)))
    assert verdict is not None and verdict.result == "right", verdict
    assert verdict.text == st.why
    if st.wrong:
        assert st.card is not None
        evs: list[Event] = [CardTap(1000, st.card)]
        t = 2000
        for frm, to in st.wrong:
            evs += [HoleEvent(t, "lift", frm), HoleEvent(t + 400, "place", to)]
            t += 1000
        decisions = _play(st, evs)
        assert "illegal" in [d.type for d in decisions]
        wrong = judge_referee(st, decisions)
        assert wrong is not None and wrong.result == "wrong"
        assert wrong.text.en.endswith("Try again.") and wrong.text.nl.endswith("nog eens.")
        assert len(wrong.text.en) > len("Try again.") + 10  # the rule it breaks, in words


def test_a_legal_move_that_is_not_the_task_says_what_to_look_for() -> None:
    hinted = [s for _, _, s in STEPS if s.hint is not None]
    assert hinted
    for st in hinted:
        assert st.card is not None
        pos = Position.from_text(st.position)
        other = next(a for a, m in successor_positions(pos, st.card).items() if str(m) != st.move)
        v = judge(st, other)
        assert v.result == "other" and st.hint is not None and st.hint.en in v.text.en


def test_showing_the_hand_while_a_card_can_be_played_is_refused() -> None:
    st = next(s for _, _, s in STEPS if s.hand and s.move != "discard")
    decisions = _play(st, [Discard(1000, st.hand)])
    v = judge_referee(st, decisions)
    assert v is not None and v.result == "wrong"
    assert judge(st, None).result == "wrong"


def test_progress_is_kept_per_learner_in_the_journal(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    prog = Progress(db)
    prog.done("Anna", "out", 0)
    prog.done("Anna", "out", 1)
    prog.done("Anna", "out", 1)  # again: once
    prog.done("  Bram  ", "capture", 0)
    assert prog.of("Anna") == {"out": [0, 1]}
    assert prog.of("Bram") == {"capture": [0]}
    assert sorted(prog.learners()) == ["Anna", "Bram"]
    prog.close()
    for bad in ("", "   ", "x" * 41, "a\x07b"):
        with pytest.raises(ValueError):
            Progress(db).done(bad, "out", 0)


def test_migration_2_takes_a_version_1_journal_forward_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite"
    with Journal(db) as j:
        j.new_game({"type": "setup", "seats": 4})
    con = sqlite3.connect(db)
    con.execute("DROP TABLE lesson_progress")
    con.execute("PRAGMA user_version = 1")  # as a keezbord before issue 26 left it
    con.commit()
    con.close()
    assert SCHEMA_VERSION >= 2
    prog = Progress(db)
    prog.done("Anna", "four", 1)
    assert prog.of("Anna") == {"four": [1]}
    assert schema_version(prog.db) == SCHEMA_VERSION
    prog.close()
    with Journal(db, readonly=True) as j:
        assert j.setup(1)["seats"] == 4


def test_a_second_card_tapped_in_a_step_is_wrong_with_the_referees_reason() -> None:
    # On the board any card can be tapped: the step's card, then another one that moves.
    def moves(st: LessonStep, card: str) -> bool:
        return any(True for _ in successor_positions(Position.from_text(st.position), card))

    ranks = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
    st, other = next(
        (s, c) for _, _, s in STEPS for c in ranks if s.card not in (None, c) and moves(s, c)
    )
    assert st.card is not None
    decisions = _play(st, [CardTap(1000, st.card), CardTap(1500, other)])
    assert [d.type for d in decisions] == ["second_card"], decisions
    v = judge_referee(st, decisions)
    assert v is not None and v.result == "wrong"
    assert v.text.en.startswith("Two cards played in one turn") and v.text.en.endswith("Try again.")
