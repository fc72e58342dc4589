"""A simulated table for a club evening without boards (``keezbord club sim``), for the
tests and the benchmark: bots play each paired game through the real referee into the
board's own journal, and the board reports it over MQTT exactly as a real one does
(board_link.py, reporter.py). ``move_ms`` paces the moves (0: as fast as possible)."""

from __future__ import annotations

import threading
import time
import zlib
from pathlib import Path
from typing import Any

from keezbord.host.events import Tick, TimeLimit
from keezbord.host.journal import Journal
from keezbord.host.referee import Decision, Effect
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate

from .board_link import BoardLink, ClubSettings, Outbox, outbox_path
from .reporter import Reporter, record_lines

SETTLE_MS = 2000  # past any settle time of the referee: the last move is taken


class SimBoard:
    def __init__(
        self,
        settings: ClubSettings,
        journal: Path,
        *,
        seats: int = 4,
        move_ms: float = 0.0,
        on_result: Any = None,
    ) -> None:
        self.name = settings.board
        self.journal = journal
        self.seats = seats
        self.move_ms = move_ms
        self.on_result = on_result  # called (match, result message) when a game ends
        self.outbox = Outbox(outbox_path(journal))
        self.link = BoardLink(settings, self.outbox, lambda _: self._wake.set(), self._record_of)
        self.reporter = Reporter(self.name, self.link.send, self._report)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"board-{self.name}", daemon=True)
        self.played: dict[str, int] = {}  # match -> journal game

    def start(self) -> None:
        self.link.start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=30)
        self.link.stop()
        self.outbox.close()

    def _report(self, msg: dict[str, Any]) -> None:
        if self.on_result is not None:
            self.on_result(msg["match"], msg)
        self.link.report(msg)

    def _record_of(self, game: int) -> list[str] | None:
        with Journal(self.journal, readonly=True) as j:
            return record_lines(j, game)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.2)
            self._wake.clear()
            pairing = self.link.pairing
            if (
                pairing is not None
                and pairing.get("started") is not None
                and self.outbox.game_of(str(pairing["match"])) is None
            ):
                try:
                    self.play(pairing)
                except Exception as e:  # a simulated table reports and keeps going
                    print(f"keezbord club sim: {self.name}: {e!r}", flush=True)
                    time.sleep(1)

    def play(self, pairing: dict[str, Any]) -> int:
        """Play the pairing's game to its end or to the round's clock."""
        match = str(pairing["match"])
        ends = float(pairing["ends"])
        sim = simulate(self.seats, "nk", zlib.crc32(match.encode()), max_turns=4000)
        session = GameSession.start(self.journal, {**sim.setup, "mode": "simulated"})
        try:
            self.outbox.bind(session.game, match)
            self.played[match] = session.game
            self.reporter.started(match, session.game, session.state)
            last = 0
            for ev in sim.events:
                if self._stop.is_set():
                    return session.game
                if time.time() >= ends:
                    break
                last = ev.t
                moved = self._feed(session, ev)
                if session.state.over:
                    break
                if moved and self.move_ms:
                    time.sleep(self.move_ms / 1000)
            if not session.state.over:
                self._feed(session, Tick(max(last, session.state.now) + SETTLE_MS))
            while not session.state.over and not self._stop.is_set():
                if time.time() >= ends:  # the round's clock: NK stops the game
                    self._feed(session, TimeLimit(session.state.now + 1))
                    break
                time.sleep(0.05)
            return session.game
        finally:
            session.close()

    def _feed(self, session: GameSession, event: Any) -> bool:
        effects: list[Effect] = session.feed(event)
        records = [e.to_record() for e in effects if isinstance(e, Decision)]
        if records:
            self.reporter.decided(session.state, records, session.journal)
        return any(r["type"] == "move" for r in records)
