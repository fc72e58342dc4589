"""A board's MQTT link to the tournament, with a durable outbox.

The board logs in with its own name and password (the broker's ACL lets it publish only
under ``keezbord/board/<name>/``), over TLS when ``[club] tls`` (mqtt_client.py). The
session is persistent (clean_session off, QoS 1): while the board or the broker is away,
the broker keeps what the tournament sent the board (acknowledgements, record requests)
and paho keeps what the board sends.

Results go through the outbox, a small SQLite file next to the board's journal: a result
is written there first (one row per match, however often the game reports it), sent on
every (re)connect until the tournament's ``ack`` names it, then kept as acknowledged.
A board that was offline for a whole round, even restarted meanwhile, reports its result
when it is back, and the tournament counts it once (its store keys results by match).
Unacknowledged results are also sent again every ``resend_s`` seconds while connected:
a result the broker took while no tournament session existed (the service never started
yet, or started afresh) is not lost either.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from keezbord.host.club_settings import ClubSettings as ClubSettings

from . import protocol as p
from .broker_link import BrokerLink

OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL,
    acked REAL
);
CREATE TABLE IF NOT EXISTS games (game INTEGER PRIMARY KEY, match TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def outbox_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".club-outbox")


class Outbox:
    def __init__(self, path: str | Path) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(Path(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")  # a result written is a result kept
        self.db.executescript(OUTBOX_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def bind(self, game: int, match: str) -> None:
        """The journal's ``game`` is the table's game of ``match``."""
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?)", (game, match))

    def game_of(self, match: str) -> int | None:
        with self.lock:
            row = self.db.execute("SELECT game FROM games WHERE match = ?", (match,)).fetchone()
        return None if row is None else int(row[0])

    def unreported(self) -> list[tuple[int, str]]:
        """The (game, match) pairs bound to a match whose result is not in the outbox."""
        with self.lock:
            rows = self.db.execute(
                "SELECT game, match FROM games"
                " WHERE match NOT IN (SELECT match FROM outbox) ORDER BY game"
            ).fetchall()
        return [(int(g), str(m)) for g, m in rows]

    def add(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Keep a result (once per match); returns it with its outbox id."""
        with self.lock:
            self.db.execute(
                "INSERT OR IGNORE INTO outbox (match, payload) VALUES (?, ?)",
                (msg["match"], json.dumps(msg)),
            )
            rid, payload = self.db.execute(
                "SELECT id, payload FROM outbox WHERE match = ?", (msg["match"],)
            ).fetchone()
        out: dict[str, Any] = {**json.loads(payload), "id": int(rid)}
        return out

    def pending(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute(
                "SELECT id, payload FROM outbox WHERE acked IS NULL ORDER BY id"
            ).fetchall()
        return [{**json.loads(payload), "id": int(rid)} for rid, payload in rows]

    def ack(self, rid: int) -> None:
        with self.lock:
            self.db.execute(
                "UPDATE outbox SET acked = ? WHERE id = ? AND acked IS NULL", (time.time(), rid)
            )

    def meta(self, key: str) -> str | None:
        with self.lock:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))


class BoardLink(BrokerLink):
    """The board's MQTT client. ``on_pairing`` gets each (retained) pairing message;
    ``record_of(game)`` gives a game's trace lines for the tournament's record request."""

    def __init__(
        self,
        settings: ClubSettings,
        outbox: Outbox,
        on_pairing: Callable[[dict[str, Any]], None],
        record_of: Callable[[int], list[str] | None],
    ) -> None:
        self.outbox = outbox
        self.on_pairing = on_pairing
        self.record_of = record_of
        self.pairing: dict[str, Any] | None = None
        saved = outbox.meta("pairing")
        if saved:
            self.pairing = json.loads(saved)
        name = p.check_board_name(settings.board)
        super().__init__(settings, f"keezbord-board-{name}", name, "club")
        self.settings: ClubSettings = settings
        self.on_connection: Callable[[bool], None] | None = None  # the page's banner

    def _tick(self) -> None:
        for msg in self.outbox.pending():
            self._publish_result(msg)

    # -- sending -----------------------------------------------------------------------

    def send(self, msg: dict[str, Any]) -> None:
        """A state change of the game (QoS 1, queued while the broker is away)."""
        self.client.publish(p.board_topic(self.settings.board, "event"), p.encode(msg), qos=p.QOS)

    def report(self, msg: dict[str, Any]) -> None:
        """A result: into the outbox first, then sent (again on every reconnect until
        acknowledged)."""
        kept = self.outbox.add(msg)
        self._publish_result(kept)

    def _publish_result(self, msg: dict[str, Any]) -> None:
        self.client.publish(p.board_topic(self.settings.board, "result"), p.encode(msg), qos=p.QOS)

    # -- paho callbacks (its network thread) ----------------------------------------------

    def _up(self, client: Any) -> None:
        client.subscribe(p.table_topic(self.settings.board, "#"), qos=p.QOS)
        for msg in self.outbox.pending():
            self._publish_result(msg)

    def _connection(self, up: bool) -> None:
        if self.on_connection is not None:
            self.on_connection(up)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        where = p.split_topic(message.topic)
        if where is None or where[1] != self.settings.board:
            return
        msg = p.decode(message.payload)
        if msg is None:
            self.client.said.error(f"{message.topic}: {p.not_read(message.payload)}")
            return
        leaf = where[2]
        if leaf == "pairing":
            self.pairing = msg
            self.outbox.set_meta("pairing", json.dumps(msg))
            self.on_pairing(msg)
        elif leaf == "ack" and isinstance(msg.get("id"), int):
            self.outbox.ack(msg["id"])
        elif leaf == "ask" and isinstance(msg.get("match"), str):
            game = self.outbox.game_of(msg["match"])
            lines = self.record_of(game) if game is not None else None
            self.client.publish(
                p.board_topic(self.settings.board, "record"),
                p.encode({"match": msg["match"], "game": game, "trace": lines}),
                qos=p.QOS,
            )
