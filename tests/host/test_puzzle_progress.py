"""A learner's puzzles in the journal (issue 40, item 13), beside their lessons: a
first-try solve is the first answer to a puzzle, right, with no hint or answer asked
before it; it is counted once; a journal from before (schema 3) is taken forward."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from keezbord.host.journal import Journal
from keezbord.host.journal_schema import SCHEMA_VERSION, schema_version
from keezbord.host.lessons import ANSWER_SHOWN, Progress, PuzzleTried


def test_first_try_solves_and_what_spoils_them(tmp_path: Path) -> None:
    with Progress(tmp_path / "j.sqlite") as prog:
        assert prog.puzzle_answered("Anna", "kz-1", right=True) is True
        assert prog.puzzle_answered("Anna", "kz-1", right=True) is False  # once
        assert prog.puzzle_answered("Anna", "kz-2", right=False) is False
        assert prog.puzzle_answered("Anna", "kz-2", right=True) is False  # 2nd try
        prog.puzzle_helped("Anna", "kz-3", 1)  # a hint before any answer
        assert prog.puzzle_answered("Anna", "kz-3", right=True) is False
        prog.puzzle_helped("Anna", "kz-4", ANSWER_SHOWN)
        prog.puzzle_helped("Anna", "kz-4", 2)  # the most help asked is kept
        assert prog.puzzle_answered("Bram", "kz-2", right=True) is True  # per learner
        assert prog.first_tries("Anna") == 1 and prog.first_tries("Bram") == 1
        assert prog.first_tries("Cas") == 0 and prog.puzzles("Cas") == {}
        got = prog.puzzles("Anna")
        assert got["kz-1"] == PuzzleTried(tries=2, helped=0, solved=True, first_try=True)
        assert got["kz-2"] == PuzzleTried(tries=2, helped=0, solved=True, first_try=False)
        assert got["kz-3"] == PuzzleTried(tries=1, helped=1, solved=True, first_try=False)
        assert got["kz-4"] == PuzzleTried(tries=0, helped=3, solved=False, first_try=False)
        assert prog.puzzle("Anna", "kz-9") is None
        assert prog.puzzle(" Anna ", "kz-1") == got["kz-1"]  # the name as lessons trim it
        with pytest.raises(ValueError):
            prog.puzzle_answered("", "kz-1", right=True)


def test_a_journal_of_schema_3_is_taken_forward(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with Journal(db) as j:
        j.new_game({"type": "setup", "seats": 4})
    con = sqlite3.connect(db)
    con.execute("DROP TABLE puzzle_progress")
    con.execute("PRAGMA user_version = 3")  # as a keezbord before issue 40 left it
    con.commit()
    con.close()
    with Progress(db) as prog:
        assert schema_version(prog.db) == SCHEMA_VERSION >= 4
        assert prog.puzzle_answered("Anna", "kz-1", right=True) is True
    with Journal(db, readonly=True) as j:
        assert j.setup(1)["seats"] == 4
