"""A linked board's own file beside its journal (``<journal>.link``, SQLite, written
before anything is sent): the linked games it plays (the host of record's id, the
journal's game, the setup and deal the host sent) and each game's log (link_sync.py),
with how far the other board has acknowledged it. The club's outbox is the same idea
for results (board_link.py): an entry written here survives the board being switched
off, and goes out again when it is back."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from .link_sync import Entry

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    journal_game INTEGER,
    spec TEXT NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    game TEXT NOT NULL,
    seq INTEGER NOT NULL,
    by TEXT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


def linked_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".link")


class LinkedStore:
    def __init__(self, path: str | Path) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(Path(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")  # an entry written is an entry kept
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -- games ------------------------------------------------------------------------

    def add_game(self, game: str, spec: dict[str, Any]) -> None:
        """A linked game (``spec``: the host's setup and deal) before it is played."""
        with self.lock:
            self.db.execute(
                "INSERT OR IGNORE INTO games (id, spec, created) VALUES (?, ?, ?)",
                (game, json.dumps(spec), time.time()),
            )

    def bind(self, game: str, journal_game: int) -> None:
        with self.lock:
            self.db.execute("UPDATE games SET journal_game = ? WHERE id = ?", (journal_game, game))

    def latest(self) -> tuple[str, int | None, dict[str, Any]] | None:
        """The latest linked game: its id, journal game and spec."""
        with self.lock:
            row = self.db.execute(
                "SELECT id, journal_game, spec FROM games ORDER BY created DESC, rowid DESC"
            ).fetchone()
        if row is None:
            return None
        return str(row[0]), None if row[1] is None else int(row[1]), json.loads(row[2])

    def spec(self, game: str) -> dict[str, Any] | None:
        with self.lock:
            row = self.db.execute("SELECT spec FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    # -- a game's log -----------------------------------------------------------------

    def entries(self, game: str) -> tuple[list[Entry], int]:
        with self.lock:
            rows = self.db.execute(
                "SELECT seq, by, action FROM log WHERE game = ? ORDER BY seq", (game,)
            ).fetchall()
            acked = self.db.execute("SELECT acked FROM games WHERE id = ?", (game,)).fetchone()
        return [Entry(int(s), str(b), json.loads(a)) for s, b, a in rows], int(
            acked[0] if acked else 0
        )

    def log_of(self, game: str) -> GameLog:
        return GameLog(self, game)


class GameLog:
    """One game's log in the store (link_sync.LogStore)."""

    def __init__(self, store: LinkedStore, game: str) -> None:
        self.store, self.game = store, game

    def append(self, entry: Entry) -> None:
        s = self.store
        with s.lock:
            s.db.execute(
                "INSERT OR REPLACE INTO log VALUES (?, ?, ?, ?)",
                (self.game, entry.seq, entry.by, json.dumps(dict(entry.action))),
            )

    def truncate(self, keep: int) -> None:
        s = self.store
        with s.lock:
            s.db.execute("DELETE FROM log WHERE game = ? AND seq > ?", (self.game, keep))

    def set_acked(self, seq: int) -> None:
        s = self.store
        with s.lock:
            s.db.execute("UPDATE games SET acked = ? WHERE id = ?", (seq, self.game))
