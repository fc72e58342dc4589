"""The tournament service: the store, the MQTT client that reads the boards and writes
the pairings, and the live view the scoreboard shows.

Everything a board says arrives on paho's network thread; the store takes a lock, the
live table lives under ``self.lock``, and ``changed`` tells the web server (its asyncio
loop) that the scoreboard must be redrawn.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import protocol as p
from .mqtt_client import Keeper, new_client, no_answer
from .pairing import pair_round
from .standings import Game, Row, standings
from .store import Result, Store, StoreError
from .verify import verify

DEFAULT_MINUTES = 50.0


@dataclass(frozen=True)
class BrokerSettings:
    host: str = "127.0.0.1"
    port: int = 1883
    password: str = ""  # the tournament's login (user ``tournament``)
    tls: bool = False  # TLS to the broker (mqtt_client.py)
    ca: str | None = None  # the broker's authority's certificate (None: the system's)


class Tournament:
    def __init__(self, store: Store, broker: BrokerSettings | None = None) -> None:
        self.store = store
        self.broker = broker
        self.lock = threading.Lock()
        self.live: dict[str, dict[str, Any]] = {}  # board -> its last state change
        self.records: dict[str, list[str]] = {}  # match -> fetched record (trace lines)
        self.version = 0
        self.listeners: list[Callable[[int], None]] = []
        self.duplicates = 0  # results reported again (acknowledged, not counted)
        self.received: Counter[str] = Counter()  # messages per topic (tests, benchmark)
        self.connected = threading.Event()
        self.client: Any = None
        self.keeper: Keeper | None = None
        self.listen = True
        self.outage: p.Outage | None = None  # the service's word on the broker (start)

    # -- MQTT ---------------------------------------------------------------------------

    def start(self, *, listen: bool = True) -> None:
        """Connect to the broker. ``listen``: the service itself (one persistent session
        that receives the boards' messages); else a one-off client of the command line
        (``keezbord club pair``) that only writes, so it never takes the service's
        session or its messages."""
        if self.broker is None or self.client is not None:
            return
        import secrets

        self.listen = listen
        self.outage = p.Outage("keezbord club", self.broker.host, self.broker.port)
        suffix = "" if listen else f"-cli-{secrets.token_hex(3)}"
        client = new_client(
            f"keezbord-tournament-{self.store.tournament}{suffix}",
            p.TOURNAMENT_USER,
            self.broker,
            clean_session=not listen,
            who="keezbord club",
        )
        client.on_connect = self._on_connect
        client.on_disconnect = lambda *a: self._down("the connection to the MQTT broker was lost")
        client.on_connect_fail = lambda *a: self._down(no_answer(self.broker.tls))
        client.on_message = self._on_message
        client.connect_async(self.broker.host, self.broker.port, 15)
        client.loop_start()
        self.client = client
        self.keeper = Keeper(client, "keezbord club")
        self.keeper.start()

    def stop(self) -> None:
        if self.keeper is not None:
            self.keeper.stop()
        if self.client is not None:
            self.client.on_disconnect = None  # a stop is no outage to report
            self.client.disconnect()
            self.client.loop_stop()
            self.client = None
        self.connected.clear()

    def _publish(self, board: str, leaf: str, msg: dict[str, Any], retain: bool = False) -> None:
        if self.client is not None:
            self.client.publish(p.table_topic(board, leaf), p.encode(msg), qos=p.QOS, retain=retain)

    def _down(self, why: str) -> None:
        self.connected.clear()
        if self.listen and self.outage is not None:  # a one-off `club pair` says it itself
            self.outage.lost(why)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            self._down(f"the MQTT broker refused the tournament's login ({rc})")
            return
        if self.listen:
            client.subscribe(f"{p.PREFIX}/board/+/+", qos=p.QOS)
            if self.outage is not None:
                self.outage.back()
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self.received[message.topic] += 1
        where = p.split_topic(message.topic)
        if where is None or where[0] != "board":
            return
        board, leaf = where[1], where[2]
        try:
            msg = p.decode(message.payload)  # bounded in size and depth before parsing
            if msg is None:
                client.said.error(f"{message.topic}: {p.not_read(message.payload)}")
                return
            if leaf == "event":
                self.on_event(board, msg)
            elif leaf == "result":
                self.on_result(board, msg)
            elif leaf == "record":
                self.on_record(board, msg)
        except Exception as e:  # one bad message must not stop the service
            print(f"keezbord club: ignored a message from {board}: {e!r}", flush=True)

    # -- what the boards say ---------------------------------------------------------------

    def on_event(self, board: str, msg: dict[str, Any]) -> None:
        if msg.get("board") != board:
            return  # the topic is the board's login (ACL): the message must agree
        event = p.live_event(msg)
        if event is None:
            return
        with self.lock:
            self.live[board] = {**event, "at": time.time()}
        self.changed()

    def on_result(self, board: str, msg: dict[str, Any]) -> bool:
        """Store a result (once) and acknowledge it; True if it was new."""
        if msg.get("board") != board:
            return False
        result = Result.from_message(msg)
        new = self.store.record_result(result)
        if not new:
            self.duplicates += 1
        if isinstance(msg.get("id"), int):
            self._publish(board, "ack", {"id": msg["id"], "match": result.match})
        if new:
            self.changed()
        return new

    def on_record(self, board: str, msg: dict[str, Any]) -> None:
        mid, lines = msg.get("match"), msg.get("trace")
        if not isinstance(mid, str) or not isinstance(lines, list):
            return
        m = self.store.match(mid)
        result = self.store.results().get(mid)
        if m is None or m.board != board or result is None:
            return
        self.records[mid] = [str(x) for x in lines]
        self.store.set_verified(mid, verify(result, self.records[mid]))
        self.changed()

    def ask_record(self, mid: str) -> None:
        """Ask the match's board for the game's record; it is replayed when it comes."""
        m = self.store.match(mid)
        if m is None or m.board is None:
            raise StoreError(f"no match {mid!r} at a board")
        self._publish(m.board, "ask", {"match": mid})

    # -- the secretary's actions ------------------------------------------------------------

    def pair_next(self, minutes: float = DEFAULT_MINUTES) -> int:
        """Pair the next round (round robin or Swiss) and send each board its pairing."""
        if not 0 < minutes <= 600:
            raise StoreError(f"a round lasts more than 0 and at most 600 minutes, not {minutes:g}")
        teams = self.store.teams()
        if len(teams) < 2:
            raise StoreError("pairing needs at least 2 teams")
        matches = self.store.matches()
        played = {frozenset((m.home, m.away)) for m in matches if m.away is not None}
        had_bye = {m.home for m in matches if m.away is None}
        ranked = [r.team for r in self.standings()]
        no = (self.store.current_round() or 0) + 1
        _, pairs = pair_round(list(teams), no, ranked, played, had_bye)
        self.store.add_round(minutes, pairs)
        self.push_pairings(no)
        self.changed()
        return no

    def start_clock(self, no: int | None = None) -> float:
        no = no or self.store.current_round()
        if no is None:
            raise StoreError("no round to start: pair one first")
        started = self.store.start_round(no)
        self.push_pairings(no)
        self.changed()
        return started

    def push_pairings(self, no: int) -> None:
        for msg in self.pairings(no):
            self._publish(msg["board"], "pairing", msg, retain=True)

    def pairings(self, no: int) -> list[dict[str, Any]]:
        """Each board's pairing message of round ``no`` (protocol.py); a board without a
        match this round gets one with ``match`` None (else it would keep showing the
        last round's retained pairing)."""
        teams = self.store.teams()
        rounds = {n: (m, s) for n, m, s in self.store.rounds()}
        minutes, started = rounds[no]
        out = []
        busy = {m.board for m in self.store.matches(no)}
        for board in self.store.boards():
            if board not in busy:
                out.append(
                    {
                        "tournament": self.store.tournament,
                        "round": no,
                        "match": None,
                        "board": board,
                        "home": None,
                        "away": None,
                        "minutes": minutes,
                        "started": None,
                        "ends": None,
                    }
                )
        for m in self.store.matches(no):
            if m.board is None or m.away is None:
                continue
            out.append(
                {
                    "tournament": self.store.tournament,
                    "round": no,
                    "match": m.id,
                    "board": m.board,
                    "home": {"name": teams[m.home][0], "players": teams[m.home][1]},
                    "away": {"name": teams[m.away][0], "players": teams[m.away][1]},
                    "minutes": minutes,
                    "started": started,
                    "ends": None if started is None else started + minutes * 60,
                }
            )
        return out

    # -- views ------------------------------------------------------------------------------

    def games(self) -> list[Game]:
        results = self.store.results()
        return [
            Game(m.home, m.away, r.home_points, r.away_points, r.home_pawns, r.away_pawns, r.winner)
            for m in self.store.matches()
            if m.away is not None and (r := results.get(m.id)) is not None
        ]

    def standings(self) -> list[Row]:
        names = {i: n for i, (n, _) in self.store.teams().items()}
        return standings(names, self.games())

    def changed(self) -> None:
        with self.lock:
            self.version += 1
            v = self.version
            listeners = list(self.listeners)
        for f in listeners:
            f(v)

    def view(self) -> dict[str, Any]:
        """What the scoreboard shows (JSON): standings, the current round's tables."""
        teams = self.store.teams()
        results = self.store.results()
        no = self.store.current_round()
        rounds = {n: (m, s) for n, m, s in self.store.rounds()}
        tables = []
        with self.lock:
            live = dict(self.live)
            version = self.version
        if no is not None:
            for m in self.store.matches(no):
                r = results.get(m.id)
                ev = live.get(m.board or "")
                if ev is not None and ev.get("match") != m.id:
                    ev = None
                tables.append(
                    {
                        "match": m.id,
                        "board": m.board,
                        "home": teams[m.home][0],
                        "away": None if m.away is None else teams[m.away][0],
                        "state": "done" if r else (ev["kind"] if ev else "waiting"),
                        "moves": r.moves if r else (ev or {}).get("moves"),
                        "pawns": [r.home_pawns, r.away_pawns] if r else (ev or {}).get("pawns"),
                        "points": [r.home_points, r.away_points] if r else None,
                        "winner": r.winner if r else None,
                        "timed_out": r.timed_out if r else None,
                        "verified": r.verified if r else None,
                    }
                )
        late = [
            {"match": m.id, "board": m.board, "round": m.round}
            for m in self.store.matches()
            if m.away is not None and m.id not in results and no is not None and m.round < no
        ]
        minutes, started = rounds.get(no, (DEFAULT_MINUTES, None)) if no else (0.0, None)
        return {
            "version": version,
            "round": no,
            "minutes": minutes,
            "started": started,
            "ends": None if started is None else started + minutes * 60,
            "now": time.time(),
            "tables": tables,
            "late": late,
            "standings": [
                {
                    "rank": i + 1,
                    "team": r.name,
                    "played": r.played,
                    "won": r.won,
                    "points": r.points,
                    "pawns": r.pawns,
                }
                for i, r in enumerate(self.standings())
            ],
        }
