"""The game journal: every input and every decision, in SQLite, before anything is shown.

WAL mode, ``synchronous = NORMAL``, no automatic checkpoint on the writing connection. The
host writes each input together with the decisions it caused in one transaction and only
then shows them (LEDs, web page): a committed transaction is in the WAL, in the operating
system's hands, so it survives the host process dying (a crash, kill -9) whatever it is.
A transaction that changes the game (an accepted move, a discard, an undo, a win) is then
fsynced by the journal's syncer thread, off the event path (an fsync takes 1-15 ms on an
SD card, more than the magnet-to-LED budget of 5 ms): ``durable()`` says how far that has
gone and ``flush()`` waits for it. The syncer also checkpoints the WAL into the database
(fsyncing both) now and then (journal_sync.py: a failing fsync is tried again and said
in the journal's health, journal_status.py). So a power cut can lose a move the LEDs
showed only within one fsync after it (milliseconds, before anyone can act on it), plus
the sensor events after the last fsync; on restart the referee re-reads the board and
guides the players from there (session.py; a damaged record: journal_damage.py).
docs/referee.md ("Durability") gives the trade-off.
A game is rebuilt by replaying its inputs through the pure referee (session.py).

Tables: ``games`` (id, setup JSON, created), ``inputs`` (game, seq, JSON of the event),
``decisions`` (game, seq of the input that caused it, JSON with reasons in nl and en).
The schema's version and its migrations (since version 1 ``games`` also holds the keezbord
version that started the game, since 2 ``analyses`` a finished game's analysis:
host/analysis/store.py): journal_schema.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from keezbord.host.journal_schema import NewerJournalError, migrate
from keezbord.host.journal_status import JournalWriteError as JournalWriteError
from keezbord.host.journal_status import not_writable, private, write_error
from keezbord.host.journal_sync import Syncer

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


# Decisions that change the game: their transaction is fsynced (by the syncer thread).
DURABLE_DECISIONS = frozenset({"move", "discard", "undo", "win", "overrule"})


class JournalError(ValueError):
    """A journal that cannot be read as asked (no such game, not a journal, not
    writable)."""


class UnreadableSetup(JournalError):
    """A game whose setup row does not read (journal_damage.py: it cannot be resumed)."""

    def __init__(self, path: Path, game: int, why: str) -> None:
        super().__init__(f"{path}: game {game}: its setup does not read ({why})")
        self.game = game
        self.why = why


class Journal:
    def __init__(
        self,
        path: str | Path,
        *,
        readonly: bool = False,
        fsync: Callable[[int], None] = os.fsync,
    ) -> None:
        self.path = Path(path)
        self.write_error: JournalWriteError | None = None  # the last append's, until one works
        try:
            if readonly:
                uri = f"file:{self.path}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                private(self.path)  # 0600: it holds the deal's seed (docs/referee.md)
                self.db = sqlite3.connect(self.path, isolation_level=None)
        except (sqlite3.Error, OSError) as e:  # e.g. its folder does not exist
            why = not_writable(self.path, e, readonly)
            raise JournalError(f"{self.path}: {why or f'cannot open the journal ({e})'}") from None
        try:
            if not readonly:
                self.db.execute("PRAGMA journal_mode = WAL")
                # No fsync and no checkpoint on the event path: the syncer does both.
                self.db.execute("PRAGMA synchronous = NORMAL")
                self.db.execute("PRAGMA wal_autocheckpoint = 0")
                self.db.executescript(SCHEMA)
                migrate(self.db)
            # Appends and one sequential read at a resume: a small page cache will do
            # (SQLite's default is 2 MB a connection, a share of the host's RSS budget).
            self.db.execute("PRAGMA cache_size = -128")
            self.db.execute("SELECT 1 FROM games LIMIT 1")
        except sqlite3.DatabaseError as e:  # a file that is not a database, or not ours
            self.db.close()
            why = not_writable(self.path, e, readonly) or f"not a keezbord journal ({e})"
            raise JournalError(f"{self.path}: {why}") from None
        except NewerJournalError as e:
            self.db.close()
            raise JournalError(f"{self.path}: {e}") from None
        self._syncer = None if readonly else Syncer(self.path, fsync)

    # -- writing ---------------------------------------------------------------------

    def new_game(self, setup: dict[str, Any]) -> int:
        from keezbord import __version__

        try:
            cur = self.db.execute(
                "INSERT INTO games (created, setup, version) VALUES (?, ?, ?)",
                (time.time(), json.dumps(setup), __version__),
            )
        except sqlite3.OperationalError as e:  # a full disk: said as such (journal_status)
            raise write_error(e) from None
        assert cur.lastrowid is not None
        self.flush()  # not on an event's path: a new game is on disk before it starts
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
        """One input and its decisions, atomically, committed (safe from the process
        dying) before it returns; fsynced by the syncer soon after (``flush`` waits for
        it) when it changes the game, or when ``durable`` says so. A disk that refuses
        it (full, read-only) is a JournalWriteError naming why, and nothing of it is
        written (``write_error`` keeps it until an append works again)."""
        if durable is None:
            durable = any(d.get("type") in DURABLE_DECISIONS for d in decisions)
        try:
            self._append(game, seq, data, decisions)
        except sqlite3.OperationalError as e:
            self.write_error = write_error(e)
            raise self.write_error from None
        self.write_error = None
        if durable and self._syncer is not None:
            self._syncer.ask()

    def _append(
        self, game: int, seq: int, data: dict[str, Any], decisions: list[dict[str, Any]]
    ) -> None:
        db = self.db
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
            # SQLite may have rolled back already (a full disk): a ROLLBACK then fails
            # with "no transaction is active" and would hide the real error.
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    @property
    def syncer(self) -> Syncer | None:
        """The syncer thread's state (its error and failures: journal_status.py)."""
        return self._syncer

    def durable(self) -> bool:
        """Whether every durable commit so far is fsynced."""
        s = self._syncer
        return s is None or s.done >= s.asked

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything committed so far is fsynced (False on a timeout or a
        disk error)."""
        s = self._syncer
        if s is None:
            return True
        return s.wait(s.ask(), timeout)

    # -- reading ---------------------------------------------------------------------

    def latest_game(self, mode: str | None = None) -> int | None:
        """The latest game; with ``mode``, the latest whose setup has that ``"mode"``
        (``run``, ``sim``, ``simulated``; a setup without one counts as ``run``): every
        command shares one journal, each resumes its own kind of game. A game whose
        setup row does not read counts for every mode its text might be (its resume then
        refuses it: journal_damage.py), unless the referee set it aside."""
        from keezbord.host.journal_damage import games_set_aside, mode_of

        if mode is None:
            row = self.db.execute("SELECT max(id) FROM games").fetchone()
            return None if row is None or row[0] is None else int(row[0])
        aside = games_set_aside(self.db)
        for gid, setup in self.db.execute("SELECT id, setup FROM games ORDER BY id DESC"):
            found = mode_of(setup)
            if int(gid) not in aside and found in (mode, None):
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
        try:
            setup: dict[str, Any] = json.loads(row[0])
        except ValueError as e:
            raise UnreadableSetup(self.path, game, str(e)) from None
        return setup

    def inputs(self, game: int) -> list[dict[str, Any]]:
        return [
            json.loads(r[0])
            for r in self.db.execute("SELECT data FROM inputs WHERE game = ? ORDER BY seq", (game,))
        ]

    def iter_inputs(self, game: int) -> Iterator[dict[str, Any]]:
        """The inputs one by one (a resume replays them without holding them all)."""
        for r in self.db.execute("SELECT data FROM inputs WHERE game = ? ORDER BY seq", (game,)):
            yield json.loads(r[0])

    def decisions(self, game: int) -> list[dict[str, Any]]:
        return list(self.iter_decisions(game))

    def last_decisions(self, game: int, n: int) -> list[dict[str, Any]]:
        """The last ``n`` decisions, oldest first (read from the end: not the whole game)."""
        rows = self.db.execute(
            "SELECT data FROM decisions WHERE game = ? ORDER BY seq DESC, idx DESC LIMIT ?",
            (game, n),
        ).fetchall()
        return [json.loads(r[0]) for r in reversed(rows)]

    def iter_decided(self, game: int) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """Each decision with the input that caused it (a discard's cards are the
        input's), in order."""
        for d, i in self.db.execute(
            "SELECT d.data, i.data FROM decisions d JOIN inputs i"
            " ON i.game = d.game AND i.seq = d.seq WHERE d.game = ? ORDER BY d.seq, d.idx",
            (game,),
        ):
            yield json.loads(d), json.loads(i)

    def iter_decisions(self, game: int) -> Iterator[dict[str, Any]]:
        """The decisions one by one (each move's carries its position: a long game's
        are megabytes held all at once)."""
        for r in self.db.execute(
            "SELECT data FROM decisions WHERE game = ? ORDER BY seq, idx", (game,)
        ):
            yield json.loads(r[0])

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
        if self._syncer is not None:
            self._syncer.stop()  # after the last fsync; closing checkpoints the WAL
            self._syncer = None
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
