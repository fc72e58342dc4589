"""A board at a club evening (``keezbord run`` with a ``[club]`` section, ``keezbord sim
--club FILE``): the hub's games reported to the tournament, a new game when the round's
clock starts, the NK time-limit stop when it runs out, and the page's club banner
(``club`` in page_state: who plays at this table, the time left).

The hub runs on its asyncio loop; the MQTT link and the clock watch run in threads and
hand their work to the loop (``Hub.call_soon``), so the referee still sees one input at
a time.
"""

from __future__ import annotations

import functools
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.host.events import TimeLimit
from keezbord.host.journal import Journal
from keezbord.host.session import GameSession

from .board_link import BoardLink, ClubSettings, Outbox, outbox_path
from .reporter import Reporter, record_lines, result_message, sides

if TYPE_CHECKING:
    from keezbord.host.web.hub import Hub


class BoardClub:
    def __init__(self, hub: Hub, settings: ClubSettings, journal: Path) -> None:
        sides(hub.session.state.pos)  # ValueError unless the table seats two teams
        self.hub = hub
        self.journal = journal
        self.outbox = Outbox(outbox_path(journal))
        self.link = BoardLink(settings, self.outbox, self._on_pairing, self._record_of)
        self.reporter = Reporter(settings.board, self.link.send, self.link.report)
        self._stop = threading.Event()
        self._stopping_game: int | None = None
        self._watch = threading.Thread(target=self._clock, name="club-clock", daemon=True)
        pr = self.link.pairing  # the last one seen, kept in the outbox (a restart mid-round)
        if (
            pr is not None
            and pr.get("match")
            and self.outbox.game_of(pr["match"]) == hub.session.game
        ):
            self.reporter.match, self.reporter.game = str(pr["match"]), hub.session.game
        self._catch_up()
        hub.observers.append(self._decided)
        hub.club = self
        hub.views["club"] = self.view
        self.link.on_connection = lambda _up: hub.call_soon(hub.changed)

    def _catch_up(self) -> None:
        """Results the journal has and the outbox has not: a power cut (or a failed
        report) between the game's last move and the outbox. The journal is the source of
        truth, so they go into the outbox now and out at the next connection (once: the
        outbox and the tournament keep one result per match)."""
        for game, match in self.outbox.unreported():
            try:
                session = GameSession.resume(self.journal, game)
            except Exception as e:  # the club link must never stop the board
                print(f"keezbord: club: game {game} of {match} unreadable: {e!r}", flush=True)
                continue
            try:
                state = session.state
                if state.winner is None and not state.stopped:
                    continue  # still being played (or abandoned): nothing to report
                msg = result_message(self.link.settings.board, match, game, state, session.journal)
            finally:
                session.close()
            self.outbox.add(msg)
            if (self.reporter.match, self.reporter.game) == (match, game):
                self.reporter.reported = True

    def start(self) -> None:
        self.link.start()
        self._watch.start()

    def stop(self) -> None:
        self._stop.set()
        self.link.stop()

    # -- the hub's loop ------------------------------------------------------------------

    def _decided(self, records: list[dict[str, Any]]) -> None:
        try:
            self._report(records)
        except Exception as e:  # the club link must never stop the referee
            print(f"keezbord: club report failed: {e!r}", flush=True)

    def _report(self, records: list[dict[str, Any]]) -> None:
        hub = self.hub
        rep = self.reporter
        if rep.game is not None and rep.game != hub.session.game and self._replayable():
            # The referee started the round's game again (New game) before it ended:
            # the new game is the table's game of this match.
            assert rep.match is not None
            self.outbox.bind(hub.session.game, rep.match)
            rep.started(rep.match, hub.session.game, hub.session.state)
        if rep.game == hub.session.game:
            rep.decided(hub.session.state, records, hub.session.journal)

    def _replayable(self) -> bool:
        """Whether the match's game may still be replaced: no result yet, clock running."""
        pr = self.link.pairing
        rep = self.reporter
        return (
            pr is not None
            and pr.get("match") == rep.match
            and pr.get("ends") is not None
            and time.time() < float(pr["ends"])
            and not rep.reported
        )

    def _pairing_changed(self) -> None:
        pr = self.link.pairing
        if pr is not None and pr.get("started") is not None:
            match = str(pr["match"])
            ends = float(pr["ends"])
            if self.outbox.game_of(match) is None and time.time() < ends:
                hub = self.hub
                hub.new_game({})  # the round's game: a fresh one, at every table at once
                self.outbox.bind(hub.session.game, match)
                self.reporter.started(match, hub.session.game, hub.session.state)
        self.hub.changed()

    def _time_up(self, game: int) -> None:
        hub = self.hub
        if hub.session.game == game and not hub.session.state.over:
            hub.feed(TimeLimit(hub.now()))

    # -- threads -------------------------------------------------------------------------

    def _on_pairing(self, msg: dict[str, Any]) -> None:
        self.hub.call_soon(self._pairing_changed)

    def _clock(self) -> None:
        while not self._stop.wait(0.5):
            pr = self.link.pairing
            game = self.reporter.game
            if (
                pr is not None
                and pr.get("ends") is not None
                and time.time() < float(pr["ends"])
                and self.outbox.game_of(str(pr["match"])) is None
            ):  # a started round whose game has not begun (the pairing came before the loop)
                self.hub.call_soon(self._pairing_changed)
            if (
                pr is not None
                and pr.get("ends") is not None
                and time.time() >= float(pr["ends"])
                and game is not None
                and game != self._stopping_game
                and self.reporter.match == pr.get("match")
            ):
                self._stopping_game = game
                self.hub.call_soon(functools.partial(self._time_up, game))

    def _record_of(self, game: int) -> list[str] | None:
        with Journal(self.journal, readonly=True) as j:
            return record_lines(j, game)

    # -- the page ------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        pr = self.link.pairing or {}
        return {
            "board": self.link.settings.board,
            "connected": self.link.connected.is_set(),
            "round": pr.get("round"),
            "home": pr.get("home"),
            "away": pr.get("away"),
            "started": pr.get("started"),
            "ends": pr.get("ends"),
            "now": time.time(),
            "playing": self.reporter.game is not None
            and self.reporter.game == self.hub.session.game,
        }
