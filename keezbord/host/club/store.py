"""The tournament's own SQLite store: teams, tables (boards), rounds, matches, results.

One file per club evening (``keezbord club --store FILE``). A result is stored once per
match (the primary key): a board that reports the same result twice, or reports it again
after a reconnect, changes nothing the second time. The store is shared by the MQTT
thread and the web server, so every call takes the lock.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .protocol import check_board_name

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS teams (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    players TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS boards (
    name TEXT PRIMARY KEY,
    password TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    no INTEGER PRIMARY KEY,
    minutes REAL NOT NULL,
    started REAL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    round INTEGER NOT NULL REFERENCES rounds(no),
    board TEXT,
    home INTEGER NOT NULL REFERENCES teams(id),
    away INTEGER REFERENCES teams(id)
);
CREATE TABLE IF NOT EXISTS results (
    match TEXT PRIMARY KEY REFERENCES matches(id),
    board TEXT NOT NULL,
    game INTEGER NOT NULL,
    home_points INTEGER NOT NULL,
    away_points INTEGER NOT NULL,
    home_pawns INTEGER NOT NULL,
    away_pawns INTEGER NOT NULL,
    winner TEXT NOT NULL,
    timed_out INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    digest TEXT NOT NULL,
    reported REAL NOT NULL,
    verified TEXT
);
"""


class StoreError(ValueError):
    """A request the store refuses (one line, for the command line and the control page)."""


@dataclass(frozen=True)
class Match:
    id: str
    round: int
    board: str | None  # None: a bye
    home: int
    away: int | None


@dataclass(frozen=True)
class Result:
    match: str
    board: str
    game: int
    home_points: int
    away_points: int
    home_pawns: int
    away_pawns: int
    winner: str  # "home", "away" or "" (stopped by the time limit, or unfinished)
    timed_out: bool
    moves: int
    digest: str
    verified: str | None = None  # None, "ok" or what the replay disagreed on

    @staticmethod
    def from_message(msg: dict[str, Any]) -> Result:
        """A board's result message (protocol.py); ValueError if a field is missing."""
        try:
            return Result(
                match=str(msg["match"]),
                board=str(msg["board"]),
                game=int(msg["game"]),
                home_points=int(msg["points"][0]),
                away_points=int(msg["points"][1]),
                home_pawns=int(msg["pawns"][0]),
                away_pawns=int(msg["pawns"][1]),
                winner=str(msg.get("winner") or ""),
                timed_out=bool(msg.get("timed_out")),
                moves=int(msg["moves"]),
                digest=str(msg["digest"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise ValueError(f"not a result message ({e!r})") from None


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock = threading.RLock()
        if not self.path.exists():  # it holds the boards' broker passwords: owner only
            with contextlib.suppress(OSError):
                self.path.touch(mode=0o600)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: not a tournament store ({e})") from None
        if self.meta("tournament") is None:
            # Pairings and results carry it: a board's outbox left over from another
            # evening is acknowledged but never counted here.
            self.set_meta("tournament", secrets.token_hex(4))

    def close(self) -> None:
        self.db.close()

    def _q(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self.lock:
            return self.db.execute(sql, args).fetchall()

    def _x(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        with self.lock:
            try:
                return self.db.execute(sql, args).rowcount
            except sqlite3.IntegrityError as e:
                raise StoreError(str(e)) from None

    # -- meta ------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        rows = self._q("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._x("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    @property
    def tournament(self) -> str:
        return self.meta("tournament") or ""

    # -- teams and boards ------------------------------------------------------------

    def add_team(self, name: str, players: list[str] | None = None) -> int:
        name = name.strip()
        if not name:
            raise StoreError("a team needs a name")
        if self._q("SELECT 1 FROM teams WHERE name = ?", (name,)):
            raise StoreError(f"team {name!r} already exists")
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO teams (name, players) VALUES (?, ?)",
                (name, json.dumps(players or [], ensure_ascii=False)),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def teams(self) -> dict[int, tuple[str, list[str]]]:
        return {
            int(i): (str(n), list(json.loads(p)))
            for i, n, p in self._q("SELECT id, name, players FROM teams ORDER BY id")
        }

    def add_board(self, name: str, password: str | None = None) -> str:
        """A table's board: its MQTT login (a new random password unless given)."""
        check_board_name(name)
        if self._q("SELECT 1 FROM boards WHERE name = ?", (name,)):
            raise StoreError(f"board {name!r} already exists")
        password = password or secrets.token_urlsafe(12)
        self._x("INSERT INTO boards (name, password) VALUES (?, ?)", (name, password))
        return password

    def boards(self) -> dict[str, str]:
        """Board name to its MQTT password, in the order they were added."""
        return {
            str(n): str(p) for n, p in self._q("SELECT name, password FROM boards ORDER BY rowid")
        }

    # -- rounds and matches -----------------------------------------------------------

    def rounds(self) -> list[tuple[int, float, float | None]]:
        """(number, minutes, started epoch or None) of each round."""
        return [
            (int(n), float(m), s)
            for n, m, s in self._q("SELECT no, minutes, started FROM rounds ORDER BY no")
        ]

    def current_round(self) -> int | None:
        rows = self._q("SELECT max(no) FROM rounds")
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    def add_round(self, minutes: float, pairs: list[tuple[int, int | None]]) -> int:
        """A new round with its matches: each pair at the next free board, a bye
        (``away`` None) at none."""
        boards = list(self.boards())
        need = sum(1 for _, away in pairs if away is not None)
        if need > len(boards):
            raise StoreError(f"{need} matches need {need} boards; only {len(boards)} registered")
        with self.lock:
            no = (self.current_round() or 0) + 1
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("INSERT INTO rounds (no, minutes) VALUES (?, ?)", (no, minutes))
                free = iter(boards)
                for i, (home, away) in enumerate(pairs):
                    board = next(free) if away is not None else None
                    mid = f"{self.tournament}-r{no}-{board or f'bye{i}'}"
                    self.db.execute(
                        "INSERT INTO matches (id, round, board, home, away) VALUES (?, ?, ?, ?, ?)",
                        (mid, no, board, home, away),
                    )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return no

    def start_round(self, no: int, at: float | None = None) -> float:
        """Start the round's clock for every table at once (the same epoch for all)."""
        rows = self._q("SELECT started FROM rounds WHERE no = ?", (no,))
        if not rows:
            raise StoreError(f"no round {no}")
        if rows[0][0] is not None:
            raise StoreError(f"round {no} has already started")
        started = time.time() if at is None else at
        self._x("UPDATE rounds SET started = ? WHERE no = ?", (started, no))
        return started

    def matches(self, round_no: int | None = None) -> list[Match]:
        sql = "SELECT id, round, board, home, away FROM matches"
        rows = (
            self._q(sql + " WHERE round = ? ORDER BY rowid", (round_no,))
            if round_no is not None
            else self._q(sql + " ORDER BY rowid")
        )
        return [
            Match(str(i), int(r), b, int(h), None if a is None else int(a))
            for i, r, b, h, a in rows
        ]

    def match(self, mid: str) -> Match | None:
        return next((m for m in self.matches() if m.id == mid), None)

    # -- results ----------------------------------------------------------------------

    def record_result(self, result: Result) -> bool:
        """Store a board's result; False (and nothing changed) if the match already has
        one, or if the match is not this board's (then it is not counted either)."""
        m = self.match(result.match)
        if m is None or m.board != result.board:
            return False
        with self.lock:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                (
                    result.match, result.board, result.game, result.home_points,
                    result.away_points, result.home_pawns, result.away_pawns, result.winner,
                    int(result.timed_out), result.moves, result.digest, time.time(),
                ),
            )  # fmt: skip
            return cur.rowcount == 1

    def results(self) -> dict[str, Result]:
        rows = self._q(
            "SELECT match, board, game, home_points, away_points, home_pawns, away_pawns,"
            " winner, timed_out, moves, digest, verified FROM results"
        )
        return {
            str(r[0]): Result(
                str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]),
                str(r[7]), bool(r[8]), int(r[9]), str(r[10]), r[11],
            )
            for r in rows
        }  # fmt: skip

    def set_verified(self, mid: str, verdict: str) -> None:
        self._x("UPDATE results SET verified = ? WHERE match = ?", (verdict, mid))
