"""A damaged journal at a resume: never a game thrown away in silence.

``GameSession.resume`` replays a game's inputs and checks each one: an input that does
not read (a byte lost, garbage written over it) or whose replay does not give the
decisions the journal kept for it (an input edited: a ``place`` moved to another hole;
a decision row that does not read) is where the good part of the game ends. The game
resumes after the last good input, and that input and every one after it are *set
aside*: moved, text as it was, with their decisions, into the table ``set_aside``
(nothing is deleted; the game's own tables keep only what replays), so the game's
inputs go on from there and a later resume, an export or an analysis sees the same
game. The ``Damage`` report says what was set aside; the log says it once, the page's
instruction line until the next move, ``GET /api/health`` and ``keezbord doctor`` for
as long as it is the game in progress (docs/referee.md, "A damaged journal").

A game whose setup row does not read cannot be replayed at all: ``DamagedGame`` (a
ValueError) refuses it with its fix, and only the referee's word sets it aside
(``keezbord journal set-aside --game N``: a ``set_aside`` row with no input), after
which the mode's next start begins a new game. The compared decisions are the ones
that change the game (move, discard, undo, win, overrule: their type, seat and move),
so a reason worded anew by a later keezbord does not count as a difference.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from keezbord.engine.text import Text

TABLE = (
    "CREATE TABLE IF NOT EXISTS set_aside (game INTEGER NOT NULL, seq INTEGER, "
    "data TEXT, decisions TEXT, kind TEXT NOT NULL, why TEXT NOT NULL, at REAL NOT NULL)"
)
CHANGES = frozenset({"move", "discard", "undo", "win", "overrule"})


class DamagedGame(ValueError):
    """A game that cannot be resumed at all (its setup row does not read)."""

    def __init__(self, path: object, game: int, why: str) -> None:
        super().__init__(f"{path}: game {game} cannot be resumed: {why}")
        self.game = game
        self.why = why


@dataclass(frozen=True)
class Damage:
    """What a resume set aside: ``kept`` inputs replayed, ``dropped`` set aside from
    the next one on, because of ``kind`` ("unreadable" or "differs") told by ``why``."""

    game: int
    kept: int
    dropped: int
    kind: str
    why: str
    at: float = 0.0

    def text(self) -> Text:
        n = self.kept + 1
        cause = (
            Text(f"invoer {n} is onleesbaar", f"input {n} is unreadable")
            if self.kind == "unreadable"
            else Text(
                f"bij invoer {n} wijken de beslissingen af van het journaal",
                f"at input {n} the decisions differ from the journal",
            )
        )
        return Text(
            f"Het journaal was beschadigd ({cause.nl}): spel {self.game} gaat verder na "
            f"invoer {self.kept}; {self.dropped} invoer(en) apart gezet",
            f"The journal was damaged ({cause.en}): game {self.game} goes on after input "
            f"{self.kept}; {self.dropped} input(s) set aside",
        )

    def line(self) -> str:
        """The log's and doctor's line (English, with the technical cause)."""
        return (
            f"journal damaged: game {self.game} resumed after input {self.kept}, "
            f"{self.dropped} input(s) set aside (input {self.kept + 1}: {self.why}); "
            "they stay in the journal's table set_aside"
        )

    def summary(self) -> Text:
        """Doctor's words: what was set aside and why (the cause as SQLite or the replay
        said it)."""
        return Text(
            f"journaal beschadigd: spel {self.game} hervat na invoer {self.kept}, "
            f"{self.dropped} invoer(en) apart gezet (invoer {self.kept + 1}: {self.why})",
            f"journal damaged: game {self.game} resumed after input {self.kept}, "
            f"{self.dropped} input(s) set aside (input {self.kept + 1}: {self.why})",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "kept": self.kept,
            "dropped": self.dropped,
            "kind": self.kind,
            "why": self.why,
            "at": self.at,
            "text": self.text().as_dict(),
        }


def recorded(db: sqlite3.Connection, game: int) -> Iterator[tuple[int, str, list[str]]]:
    """Each input of ``game`` (its seq and text) with its decisions' texts, in order,
    streamed (a long game's decisions are megabytes)."""
    rows = db.execute(
        "SELECT i.seq, i.data, d.data FROM inputs i LEFT JOIN decisions d"
        " ON d.game = i.game AND d.seq = i.seq WHERE i.game = ? ORDER BY i.seq, d.idx",
        (game,),
    )
    seq: int | None = None
    data = ""
    decisions: list[str] = []
    for s, i, d in rows:
        if s != seq:
            if seq is not None:
                yield seq, data, decisions
            seq, data, decisions = s, i, []
        if d is not None:
            decisions.append(d)
    if seq is not None:
        yield seq, data, decisions


def _changes(records: Iterable[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r.get("type"), r.get("seat"), r.get("move"))
        for r in records
        if isinstance(r, Mapping) and r.get("type") in CHANGES
    ]


def differs(journalled: list[str], replayed: list[dict[str, Any]]) -> str | None:
    """How the decisions the journal kept for an input differ from its replay's (None:
    they agree on every decision that changes the game)."""
    try:
        kept = [json.loads(t) for t in journalled]
    except ValueError as e:
        return f"its decisions do not read ({e})"
    a, b = _changes(kept), _changes(replayed)
    if a == b:
        return None

    def said(cs: list[tuple[Any, ...]]) -> str:
        return "; ".join(" ".join(str(x) for x in c if x is not None) for c in cs) or "nothing"

    return f"the journal has {said(a)}, the replay gives {said(b)}"


def set_aside_from(db: sqlite3.Connection, game: int, seq: int, kind: str, why: str) -> Damage:
    """Move input ``seq`` of ``game`` and every one after it, with their decisions, into
    ``set_aside`` (one transaction; the caller flushes the journal)."""
    at = time.time()
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(TABLE)
        db.execute(
            "INSERT INTO set_aside (game, seq, data, decisions, kind, why, at)"
            " SELECT i.game, i.seq, i.data, (SELECT json_group_array(d.data) FROM decisions d"
            " WHERE d.game = i.game AND d.seq = i.seq), ?, ?, ? FROM inputs i"
            " WHERE i.game = ? AND i.seq >= ?",
            (kind, why, at, game, seq),
        )
        n = db.execute("DELETE FROM inputs WHERE game = ? AND seq >= ?", (game, seq)).rowcount
        db.execute("DELETE FROM decisions WHERE game = ? AND seq >= ?", (game, seq))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return Damage(game, seq, n, kind, why, at)


def set_aside_game(db: sqlite3.Connection, game: int, why: str) -> None:
    """The referee's word: ``game`` (whose setup does not read) is set aside whole; the
    mode's next start begins a new game."""
    db.execute(TABLE)
    db.execute(
        "INSERT INTO set_aside (game, seq, data, decisions, kind, why, at)"
        " VALUES (?, NULL, NULL, NULL, 'game', ?, ?)",
        (game, why, time.time()),
    )


def _has_table(db: sqlite3.Connection) -> bool:
    row = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'set_aside'"
    ).fetchone()
    return row is not None


def games_set_aside(db: sqlite3.Connection) -> set[int]:
    """The games set aside whole (the referee's word)."""
    if not _has_table(db):
        return set()
    return {int(r[0]) for r in db.execute("SELECT game FROM set_aside WHERE seq IS NULL")}


def reports(db: sqlite3.Connection, game: int) -> list[Damage]:
    """What resumes of ``game`` set aside, oldest first (read-only: doctor)."""
    if not _has_table(db):
        return []
    rows = db.execute(
        "SELECT min(seq), count(*), kind, why, at FROM set_aside"
        " WHERE game = ? AND seq IS NOT NULL GROUP BY at ORDER BY at",
        (game,),
    ).fetchall()
    return [Damage(game, int(s), int(n), str(k), str(w), float(a)) for s, n, k, w, a in rows]


def setup_of(raw: str) -> dict[str, Any] | None:
    """A setup row read, or None if it does not read as an object."""
    try:
        setup = json.loads(raw)
    except ValueError:
        return None
    return setup if isinstance(setup, dict) else None


def mode_of(raw: str) -> str | None:
    """The mode of a game's setup row (``run`` without one); for a row that does not read,
    the mode its text still names, else None (it could be any mode's)."""
    setup = setup_of(raw)
    if setup is not None:
        return str(setup.get("mode", "run"))
    for mode in ("run", "sim", "simulated", "linked", "lesson"):
        if f'"mode": "{mode}"' in raw:
            return mode
    return None
