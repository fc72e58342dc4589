"""``keezbord lessons`` (issue 26 part 2): the course one JSON object a line; a move for
a step judged, a right one kept in the learner's progress; bad input one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import assert_one_line_error, run


def test_lessons_json_lists_the_course_one_object_a_line(tmp_path: Path) -> None:
    r = run(tmp_path, "lessons", "--json")
    assert r.returncode == 0, r.stderr
    lessons = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lessons) >= 10
    for les in lessons:
        assert set(les) >= {"id", "title", "steps"} and set(les["title"]) == {"nl", "en"}
        for st in les["steps"]:
            assert st["position"] and st["move"] and st["task"]["nl"] and st["task"]["en"]
    text = run(tmp_path, "lessons", "--lang", "nl")
    assert "Een pion op het bord" in text.stdout


def test_a_right_answer_is_kept_per_learner_and_a_wrong_one_explained(tmp_path: Path) -> None:
    db = str(tmp_path / "j.sqlite")
    r = run(tmp_path, "lessons", "answer", "out", "3", "6 0:T2-T8", "--learner", "Anna", "--db", db)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["result"] == "right"
    other = run(tmp_path, "lessons", "answer", "capture", "2", "5 0:T20-T25", "--db", db)
    v = json.loads(other.stdout)
    assert v["result"] == "other" and "5" in v["says"]
    r = run(tmp_path, "lessons", "--json", "--learner", "Anna", "--db", db)
    done = {x["id"]: x["done"] for x in map(json.loads, r.stdout.splitlines())}
    assert done["out"] == [3] and done["capture"] == []
    nl = run(tmp_path, "lessons", "answer", "sit_out", "2", "discard", "--lang", "nl")
    assert json.loads(nl.stdout)["says"].startswith("Je hebt een kaart die je kunt spelen")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["answer", "nope", "1", "A 0:N-S"], "no lesson 'nope'"),
        (["answer", "out", "9", "A 0:N-S"], "steps 1 to 3"),
        (["answer", "out", "1", "K 0:N-S"], "card is A"),
        (["answer", "out", "1", "A 0:T1-T2"], "not a legal move"),
        (["--learner", "   "], "--learner"),
    ],
)
def test_bad_lesson_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], words: str
) -> None:
    assert_one_line_error(
        run(tmp_path, "lessons", *args, "--db", str(tmp_path / "j.sqlite")), words
    )


def test_a_7s_parts_are_taken_in_either_order(tmp_path: Path) -> None:
    # Issue 40, item 12: `check`, the page and `puzzles try` take the 7's parts in the
    # order written; `lessons answer` took only the order `moves` prints.
    db = str(tmp_path / "j.sqlite")
    for move in ("7 0:T20-T24 0:T3-T6", "7 0:T3-T6 0:T20-T24"):
        r = run(tmp_path, "lessons", "answer", "seven", "1", move, "--db", db)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["result"] == "right"
    bad = run(tmp_path, "lessons", "answer", "seven", "1", "7 0:T20-T24 0:T3-T9", "--db", db)
    assert_one_line_error(bad, "not a legal move")


def test_plain_lessons_says_each_lessons_idea(tmp_path: Path) -> None:
    # Issue 40, item 6: the introduction was only in --json.
    out = run(tmp_path, "lessons", "--lang", "en").stdout
    lines = out.splitlines()
    assert lines[0].split()[0] == "game"  # how a game runs, first
    assert lines[1].startswith("           Everyone has 4 pawns in their nest.")
    assert "The 4 walks 4 holes backwards." in " ".join(x.strip() for x in lines)
