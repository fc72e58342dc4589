"""The journal's schema version and its migrations: a journal written by an older
keezbord opens in a newer one (``pip install -U keezbord`` keeps the game in progress).

The version is SQLite's ``PRAGMA user_version``: 0 for the first schema (the tables in
journal.py's ``SCHEMA``, which never change), then one migration per version. Every
journal, new or old, goes through the same steps when it is opened for writing, each in
one transaction with its version bump, so a cut in the middle leaves the old version.
A journal from a newer keezbord is refused (its games might not read right here).
"""

from __future__ import annotations

import sqlite3
from typing import Final

# version -> the SQL that brings a journal from version - 1 to it
MIGRATIONS: Final[dict[int, str]] = {
    # The keezbord version that started each game (NULL: a game from before), so an
    # exported game says which rules' release referee'd it.
    1: "ALTER TABLE games ADD COLUMN version TEXT",
    # A learner's steps done in the course (issue 26, host/lessons/progress.py): a table
    # of its own, so this step composes with any other branch's migration.
    2: "CREATE TABLE IF NOT EXISTS lesson_progress (learner TEXT NOT NULL, "
    "lesson TEXT NOT NULL, step INTEGER NOT NULL, at INTEGER NOT NULL, "
    "PRIMARY KEY (learner, lesson, step))",
    # The analysis of a finished game (issue 27, host/analysis/store.py): one JSON
    # document a game, the latest made; a table of its own, touching no other.
    3: "CREATE TABLE IF NOT EXISTS analyses (game INTEGER PRIMARY KEY REFERENCES games(id), "
    "data TEXT NOT NULL)",
    # A learner's puzzles (issue 40, host/lessons/progress.py): the answers judged, the
    # help asked (1, 2: hints, 3: the answer), solved, and whether at the first try.
    4: "CREATE TABLE IF NOT EXISTS puzzle_progress (learner TEXT NOT NULL, "
    "puzzle TEXT NOT NULL, tries INTEGER NOT NULL, helped INTEGER NOT NULL, "
    "solved INTEGER NOT NULL, first_try INTEGER NOT NULL, at INTEGER NOT NULL, "
    "PRIMARY KEY (learner, puzzle))",
}
SCHEMA_VERSION: Final = max(MIGRATIONS)


class NewerJournalError(ValueError):
    """A journal written by a newer keezbord."""


def schema_version(db: sqlite3.Connection) -> int:
    row = db.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def migrate(db: sqlite3.Connection) -> int:
    """Bring an open journal (autocommit connection) to ``SCHEMA_VERSION``; the version
    it had."""
    found = schema_version(db)
    if found > SCHEMA_VERSION:
        raise NewerJournalError(
            f"written by a newer keezbord (schema {found}, this one knows {SCHEMA_VERSION}): "
            "upgrade keezbord (pip install -U keezbord)"
        )
    for version in range(found + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(db) >= version:
                # Another process (the service, a `journal export`) opening the same old
                # journal at the same moment took this step while we waited for the lock.
                db.execute("COMMIT")
                continue
            db.execute(MIGRATIONS[version])
            db.execute(f"PRAGMA user_version = {version:d}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return found
