"""A learner's progress, per name, in the journal (issue 26 part 2): the steps done of
each lesson. A learner is a name chosen on the page: no account, no password. The table
``lesson_progress`` comes with the journal's schema migration 2 (journal_schema.py)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from keezbord.host.journal import Journal

MAX_NAME = 40


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
