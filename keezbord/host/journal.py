"""The game journal: every input and every decision, in SQLite, before anything is shown.

WAL mode. The host writes each input together with the decisions it caused in one
transaction and only then shows them (LEDs, web page). A transaction that changes the game
(an accepted move, a discard, an undo, a win) is committed with ``synchronous = FULL``:
it is on disk, with everything before it, before the players see it, so a move the players
saw accepted is never lost. Transactions of mere sensor noise (lifts, places, ticks that
decide nothing final) are committed with ``synchronous = NORMAL``: written to the WAL in
order but not fsynced, which keeps the magnet-to-LED path inside its 5 ms budget. A power
cut can lose only such a tail of sensor events after the last accepted move; on restart the
referee re-reads the board and guides the players from there (session.py).
A game is rebuilt by replaying its inputs through the pure referee (session.py).

Tables: ``games`` (id, setup JSON, created), ``inputs`` (game, seq, JSON of the event),
``decisions`` (game, seq of the input that caused it, JSON with reasons in nl and en).
The schema's version and its migrations (since version 1 ``games`` also holds the keezbord
version that started the game): journal_schema.py.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from keezbord.host.journal_schema import NewerJournalError, migrate

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS inputs (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS decisions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game, seq, idx)
);
"""


# Decisions that change the game: their transaction is fsynced before they are shown.
DURABLE_DECISIONS = frozenset({"move", "discard", "undo", "win", "overrule"})


class JournalError(ValueError):
    """A journal that cannot be read as asked (no such game, not a journal)."""


class Journal:
    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        try:
            if readonly:
                uri = f"file:{self.path}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as e:  # e.g. its folder does not exist
            raise JournalError(f"{self.path}: cannot open the journal ({e})") from None
        try:
            if not readonly:
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.execute("PRAGMA synchronous = FULL")
                self._sync_full = True
                self.db.executescript(SCHEMA)
                migrate(self.db)
            self.db.execute("SELECT 1 FROM games LIMIT 1")
        except sqlite3.DatabaseError as e:  # a file that is not a database, or not ours
            self.db.close()
            raise JournalError(f"{self.path}: not a keezbord journal ({e})") from None
        except NewerJournalError as e:
            self.db.close()
            raise JournalError(f"{self.path}: {e}") from None

    # -- writing ---------------------------------------------------------------------

    def new_game(self, setup: dict[str, Any]) -> int:
        if not self._sync_full:
            self.db.execute("PRAGMA synchronous = FULL")
            self._sync_full = True
        from keezbord import __version__

        cur = self.db.execute(
            "INSERT INTO games (created, setup, version) VALUES (?, ?, ?)",
            (time.time(), json.dumps(setup), __version__),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def append(
        self,
        game: int,
        seq: int,
        data: dict[str, Any],
        decisions: list[dict[str, Any]],
        *,
        durable: bool | None = None,
    ) -> None:
        """One input and its decisions, atomically; durably (fsynced, with everything
        before it) when it changes the game, or when ``durable`` says so."""
        db = self.db
        if durable is None:
            durable = any(d.get("type") in DURABLE_DECISIONS for d in decisions)
        if durable != self._sync_full:
            # Only allowed outside a transaction; applies to the commits that follow.
            db.execute("PRAGMA synchronous = FULL" if durable else "PRAGMA synchronous = NORMAL")
            self._sync_full = durable
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "INSERT INTO inputs (game, seq, data) VALUES (?, ?, ?)",
                (game, seq, json.dumps(data)),
            )
            db.executemany(
                "INSERT INTO decisions (game, seq, idx, data) VALUES (?, ?, ?, ?)",
                [
                    (game, seq, i, json.dumps(d, ensure_ascii=False))
                    for i, d in enumerate(decisions)
                ],
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- reading ---------------------------------------------------------------------

    def latest_game(self, mode: str | None = None) -> int | None:
        """The latest game; with ``mode``, the latest whose setup has that ``"mode"``
        (``run``, ``sim``, ``simulated``; a setup without one counts as ``run``): every
        command shares one journal, each resumes its own kind of game."""
        if mode is None:
            row = self.db.execute("SELECT max(id) FROM games").fetchone()
            return None if row is None or row[0] is None else int(row[0])
        for gid, setup in self.db.execute("SELECT id, setup FROM games ORDER BY id DESC"):
            with contextlib.suppress(ValueError, AttributeError):
                if json.loads(setup).get("mode", "run") == mode:
                    return int(gid)
        return None

    def game_ids(self) -> list[int]:
        """Every game in the journal, oldest first."""
        return [int(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id")]

    def game(self, game: int | None) -> int:
        gid = self.latest_game() if game is None else game
        if (
            gid is None
            or self.db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is None
        ):
            raise JournalError(
                f"{self.path}: no game {game}"
                if game is not None
                else f"{self.path}: the journal holds no game"
            )
        return gid

    def setup(self, game: int) -> dict[str, Any]:
        row = self.db.execute("SELECT setup FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no game {game}")
        setup: dict[str, Any] = json.loads(row[0])
        return setup

    def inputs(self, game: int) -> list[dict[str, Any]]:
        return [
            json.loads(r[0])
            for r in self.db.execute("SELECT data FROM inputs WHERE game = ? ORDER BY seq", (game,))
        ]

    def decisions(self, game: int) -> list[dict[str, Any]]:
        return [
            json.loads(r[0])
            for r in self.db.execute(
                "SELECT data FROM decisions WHERE game = ? ORDER BY seq, idx", (game,)
            )
        ]

    def export(self, game: int | None = None) -> tuple[list[str], list[str]]:
        """The game as a trace (JSON lines) and its move list (one line a move)."""
        gid = self.game(game)
        lines = [json.dumps(self.setup(gid))] + [json.dumps(d) for d in self.inputs(gid)]
        moves: list[str] = []
        for d in self.decisions(gid):
            if d.get("type") == "move":
                line = f"{len(moves) + 1}. seat {d['seat']}: {d['move']}"
                if d.get("overruled"):
                    line += f" (overruled by the referee: {d['overruled']})"
                moves.append(line)
            elif d.get("type") == "undo" and d.get("ok") and d.get("move") and moves:
                moves.pop()
            elif (
                d.get("type") == "overrule" and d.get("ok") and d.get("kind") == "correct" and moves
            ):
                moves.pop()  # the corrected move follows as a move of its own
        return lines, moves

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
