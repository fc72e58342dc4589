"""A learner's progress, per name, in the journal (issue 26 part 2): the steps done of
each lesson, and (issue 40) the puzzles tried: solved, and whether at the first try. A
learner is a name chosen on the page (or ``--learner`` on the command line): no account,
no password. The tables ``lesson_progress`` and ``puzzle_progress`` come with the
journal's schema migrations 2 and 4 (journal_schema.py)."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from keezbord.host.journal import Journal

MAX_NAME = 40
ANSWER_SHOWN = 3  # ``helped``: 1 and 2 the hints asked, 3 the answer shown


@dataclass(frozen=True, slots=True)
class PuzzleTried:
    """A learner's record of one puzzle: answers judged, the most help asked (0 none,
    1 and 2 the hints, 3 the answer), solved, and solved at the very first answer with
    no help before it (a first-try solve: counted once, never later)."""

    tries: int
    helped: int
    solved: bool
    first_try: bool


def valid_name(name: object) -> str:
    """The learner's name, trimmed; ValueError for an empty, long or unprintable one."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("a learner's name must not be empty")
    name = " ".join(name.split())
    if len(name) > MAX_NAME or not name.isprintable():
        raise ValueError(f"a learner's name is at most {MAX_NAME} printable characters")
    return name


class Progress:
    """The progress table of the journal at ``path`` (opened, and migrated, by Journal)."""

    def __init__(self, path: str | Path) -> None:
        Journal(path).close()  # creates or migrates the journal first
        self.db = sqlite3.connect(str(path), isolation_level=None)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def done(self, name: str, lesson_id: str, step: int) -> None:
        """The learner made step ``step`` (0-based) of the lesson right."""
        self.db.execute(
            "INSERT OR IGNORE INTO lesson_progress (learner, lesson, step, at) VALUES (?, ?, ?, ?)",
            (valid_name(name), lesson_id, step, int(time.time())),
        )

    def of(self, name: str) -> dict[str, list[int]]:
        """lesson id -> the steps done, in order."""
        out: dict[str, list[int]] = {}
        rows = self.db.execute(
            "SELECT lesson, step FROM lesson_progress WHERE learner = ? ORDER BY lesson, step",
            (valid_name(name),),
        )
        for lesson_id, step in rows:
            out.setdefault(lesson_id, []).append(int(step))
        return out

    def learners(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT learner FROM lesson_progress")]

    def puzzle_answered(self, name: str, puzzle: str, right: bool) -> bool:
        """An answer of the learner judged (``right``: solved or as good); whether it is
        a first-try solve (the learner's first answer to it, no help asked before)."""
        name = valid_name(name)
        now = int(time.time())
        first = self.puzzle(name, puzzle) is None and right
        self.db.execute(
            "INSERT INTO puzzle_progress (learner, puzzle, tries, helped, solved, first_try, at)"
            " VALUES (?, ?, 1, 0, ?, ?, ?) ON CONFLICT (learner, puzzle) DO UPDATE SET"
            " tries = tries + 1, solved = MAX(solved, excluded.solved), at = excluded.at",
            (name, puzzle, int(right), int(first), now),
        )
        return first

    def puzzle_helped(self, name: str, puzzle: str, level: int) -> None:
        """The learner asked a hint (``level`` 1, 2) or the answer (``ANSWER_SHOWN``):
        a solve of it is no first-try solve from now on."""
        self.db.execute(
            "INSERT INTO puzzle_progress (learner, puzzle, tries, helped, solved, first_try, at)"
            " VALUES (?, ?, 0, ?, 0, 0, ?) ON CONFLICT (learner, puzzle) DO UPDATE SET"
            " helped = MAX(helped, excluded.helped), at = excluded.at",
            (valid_name(name), puzzle, level, int(time.time())),
        )

    def puzzle(self, name: str, puzzle: str) -> PuzzleTried | None:
        row = self.db.execute(
            "SELECT tries, helped, solved, first_try FROM puzzle_progress"
            " WHERE learner = ? AND puzzle = ?",
            (valid_name(name), puzzle),
        ).fetchone()
        return None if row is None else _tried(row)

    def puzzles(self, name: str) -> dict[str, PuzzleTried]:
        """puzzle id -> the learner's record of it."""
        rows = self.db.execute(
            "SELECT puzzle, tries, helped, solved, first_try FROM puzzle_progress"
            " WHERE learner = ?",
            (valid_name(name),),
        )
        return {r[0]: _tried(r[1:]) for r in rows}

    def first_tries(self, name: str) -> int:
        """How many puzzles the learner solved at the first try."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM puzzle_progress WHERE learner = ? AND first_try = 1",
            (valid_name(name),),
        ).fetchone()
        return int(row[0])


def _tried(row: tuple[int, ...]) -> PuzzleTried:
    tries, helped, solved, first = row
    return PuzzleTried(int(tries), int(helped), bool(solved), bool(first))
