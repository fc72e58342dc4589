"""The running game behind the web page: the game loop.

The ``Hub`` holds the referee session (referee plus journal), the board driver, the
ticker that fires the referee's deadlines, and the broadcast of every change to the
connected pages. Everything that changes the game runs on the asyncio loop (drivers in
threads post their readings onto it), so the referee sees one input at a time, in order.
Times fed to the referee are milliseconds on a clock that continues the journalled game's
clock, so a resumed game's settle timers keep working.

Two modes: ``sim`` (the page is the board: clicks are reed switches, the card tray is
the reader, bots fill seats: keezbord/host/sim/) and ``run`` (a real board; the page is
read-only but for the referee's link). Who may ask for what is the page's role
(keezbord/host/roles.py: the token in the page's link); a page's requests are checked in
requests.py; what a page draws is page.py's pure ``page_state``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable, Mapping
from typing import Any

from keezbord.host.advisor import Advisor
from keezbord.host.drivers.boards import BoardDriver
from keezbord.host.events import Discard, HoleEvent, Reading, SwitchRead
from keezbord.host.journal import JournalError, JournalWriteError
from keezbord.host.journal_status import cannot_start
from keezbord.host.referee import Decision, Effect, Input, Leds, RefereeState, clear_caches
from keezbord.host.roles import Access, Role, access_of
from keezbord.host.session import GameSession
from keezbord.host.sim.agree import Mismatch
from keezbord.host.sim.bot_player import BotPlayer
from keezbord.host.sim.pawns import PawnTracker
from keezbord.host.sim.table import SimInfo, SimStore, SimTable

from . import actions, drawing, opening, page, requests, setups
from .away import Away
from .clock import HubClock
from .coach import coach_remark
from .health_view import HealthWatch, journal_health
from .hub_error import HubError as HubError
from .instruction import Instruction
from .options import HubOptions as HubOptions
from .page_view import page_view
from .remarks import Remarks
from .tasks import attach, views


class Hub:
    def __init__(
        self,
        session: GameSession,
        options: HubOptions,
        sim: SimTable | None = None,
        driver: BoardDriver | None = None,
    ) -> None:
        self.session = session
        self.opts = options
        self.driver = driver
        self.store: SimStore | None = sim.store if sim is not None else None
        decisions, self.log = actions.opened(session)
        self.shown: tuple[str, ...] = ()  # the cards of the last hand shown (Discard)
        self.sim: SimTable | None = None
        self.bots: BotPlayer | None = None
        self._set_sim(sim, decisions)
        self.clock = HubClock(session.state.now + 1)  # held by simulated people (clock.py)
        self.version = 0
        self.listeners: set[asyncio.Queue[int]] = set()
        self.pawns = PawnTracker()
        self._tasks: list[asyncio.Task[None]] = []
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._entries: dict[int, dict[str, Any]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.sensors = HealthWatch(session.state)  # run mode: chatter, stuck switches
        self._coach: dict[str, Any] | None = None  # the coach's last remark (hints "coach")
        self.remarks = Remarks(session.state.pos.topology)  # hints, coach remarks
        self.tap_hand: tuple[int, list[str]] | None = None  # a human's hand at its tap
        self.advisor = Advisor(options.hint_ms, options.coach_ms, session.state)  # searches
        # Called with each input's decision records (the club link, host/club/board_club.py).
        self.observers: list[Callable[[list[dict[str, Any]]], None]] = []
        # Told ("game", a new game's opening decisions) and ("coach", a remark): the voice.
        self.heard: list[Callable[[str, Any], None]] = []
        # Parts of page_state others add: "club" (a club evening, board_club.py), "remote".
        self.views: dict[str, Callable[[], Any]] = {"club": lambda: None}
        self.views.update(views(self))  # lesson, puzzle, retry: null, or the task played
        self.club: Any = None  # a BoardClub at a club evening
        self.analyst: Any = None  # the review's Analyst (app.py): a retry on the board
        self.away = Away(self)  # seats played far away (remote, linked; away.py)
        # What other parts of the host tell the players (instruct): source -> instruction.
        self.instructions: dict[str, Instruction] = {}
        self.hold_until = 0.0  # monotonic: bots wait till then (a takeback dialog is open)
        self.mismatch: Mismatch | None = None  # the drawing and the referee differ (sim)
        self._recolour()
        attach(self)  # a lesson's step, a puzzle, a retry (web/tasks.py)
        # Opening a long game replayed it: the referee's caches hold its old positions.
        clear_caches()
        gc.collect()

    def _set_sim(self, sim: SimTable | None, decisions: list[dict[str, Any]]) -> None:
        self.sim = sim  # the simulator's table, or a real board's virtual deal (issue 28)
        self.bots = None
        if sim is not None:
            sim.sync(decisions)
            self.log.seen_exchanges(sim)
        if sim is not None and self.opts.mode == "sim":
            self.bots = BotPlayer(self, sim, think_ms=self.opts.think_ms, speed=self.opts.bot_speed)

    @classmethod
    def open_sim(
        cls,
        options: HubOptions,
        *,
        seats: int = 4,
        profile: str = "standard",
        kinds: list[str] | None = None,
        teams: str | None = None,
        hints: str = "targets",
        resume: bool = True,
        game: int | None = None,
        start: opening.Start | None = None,
    ) -> Hub:
        """The simulator: resumes ``game``, else the journal's latest simulator game,
        or starts a new one (opening.py; ``start``: begun at a position)."""
        session, sim = opening.sim_game(
            options, seats, profile, kinds, teams, hints, resume=resume, game=game, start=start
        )
        return cls(session, options, sim)

    @classmethod
    def open_run(
        cls,
        options: HubOptions,
        setup: dict[str, Any],
        driver: BoardDriver | None,
        *,
        resume: bool = True,
        deal: SimInfo | None = None,
    ) -> Hub:
        """A real board: resumes the journal's latest game of ``setup``'s mode, else
        starts ``setup``; ``deal``: a new game's virtual deal (opening.py)."""
        session, sim = opening.run_game(options, setup, resume=resume, deal=deal)
        return cls(session, options, sim, driver)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._tasks.append(asyncio.create_task(self._ticker()))
        if self.driver is not None:
            self.driver.start(self.post, self.now)
            self.driver.show_leds(self.session.state.leds, self.now())
        self.away.replan()  # a seat far away to play first: the table waits
        for begin in self.away.on_start:
            begin()

    async def stop(self) -> None:
        for end in self.away.on_stop:
            end()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self.bots is not None:
            await self.bots.stop()
        if self.driver is not None:
            self.driver.close()
        self.advisor.close()
        self.session.close()
        if self.store is not None:
            self.store.close()

    @property
    def coach(self) -> dict[str, Any] | None:
        """The coach's last remark (the advisor sets it); each one is kept (remarks.py)."""
        return self._coach

    @coach.setter
    def coach(self, remark: dict[str, Any] | None) -> None:
        self._coach = remark
        if remark is not None:
            self.remarks.coach(remark, self.log.entries)
            for f in self.heard:
                f("coach", remark)

    @property
    def referee_state(self) -> RefereeState:
        return self.session.state

    def holding(self) -> bool:
        """The bots wait: the referee's takeback dialog is open (requests.hold)."""
        return requests.holding(self)

    @property
    def bot_busy(self) -> int | None:
        """The seat of the bot that is playing, if one is."""
        return self.bots.busy if self.bots is not None else None

    def now(self) -> int:
        return self.clock.now()

    def post(self, reading: Reading) -> None:
        """From a driver thread: feed ``reading`` on the loop."""
        if self._loop is None:
            return
        self._loop.call_soon_threadsafe(self._feed_reading, reading)

    def _feed_reading(self, reading: Reading) -> None:
        if isinstance(reading, SwitchRead):
            # The driver's full read (at start or after a reconnect): news only if it
            # differs from what the referee believes.
            sensed = self.session.state.sensed
            if reading.holes == sensed:
                return
            self.sensors.resync(reading.t, reading.holes, sensed)
            self.feed(reading)
            self._recolour()
            return
        if isinstance(reading, HoleEvent):
            self.sensors.observe(reading)
            self.track(reading)
        elif self.sim is not None:
            return  # a virtual deal: cards are played on the page, the reader is unused
        self.feed(reading)

    def feed(self, event: Input) -> list[Effect]:
        if isinstance(event, Discard):
            self.shown = event.cards
        effects = self.session.feed(event)
        self._after(effects)
        return effects

    def track(self, ev: HoleEvent, seat_hint: int | None = None) -> None:
        """Follow a lift or place for the drawing of the board (sim/pawns.py)."""
        self.pawns.track(ev, seat_hint, "bot" if self.bot_busy is not None else "player")

    def _after(self, effects: list[Effect]) -> None:
        self.advisor.answer_for(self, effects)  # hints "full", searched off the loop
        records = [e.to_record() for e in effects if isinstance(e, Decision)]
        st = self.session.state
        for r in records:
            if r["type"] == "hint":  # kept with the move it is for (remarks.py)
                self.remarks.hint(r, self.log.entries, len(st.history) + 1)
            self.log.add(r, st, self.shown, self.pawns.pawn_seat)
            if r["type"] in ("move", "undo"):
                self.advisor.coach_for(self, r, coach_remark)  # off the loop too
        if self.sim is not None and records:
            self.sim.sync(actions.for_sim(records))
            self.log.exchanges(self.sim, st)
        drawing.observe(self, records, drawing.watch(self, records))  # sim: drawn = read
        self.away.decided(records)
        if any(r["type"] in drawing.recolours(self) for r in records):
            self.sensors.new_turn()
            self._recolour()
        if self.driver is not None and any(isinstance(e, Leds) for e in effects):
            self.driver.show_leds(self.session.state.leds, self.now())
        self.changed()

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The loop the hub is served on (None until then)."""
        return self._loop

    def call_soon(self, fn: Callable[[], None]) -> None:
        """From another thread (the club link): run ``fn`` on the hub's loop."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(fn)

    def changed(self) -> None:
        self.version += 1
        for q in list(self.listeners):
            q.put_nowait(self.version)

    async def _ticker(self) -> None:
        next_health = 0.0
        while True:
            await asyncio.sleep(self.opts.tick_ms / 1000)
            if time.monotonic() >= next_health:  # run and sim: the journal's fsync too
                next_health = time.monotonic() + self.opts.health_ms / 1000
                self._check_health()
            self.tick()

    def tick(self) -> None:
        """The referee's timers at the clock's time (also when simulated people let go)."""
        try:
            effects = self.session.tick(self.now())
            if effects:  # a flag cleared comes as a "resolved" decision
                self._after(effects)
            if self.bots is not None and not self.holding():
                self.bots.maybe_start()
        except Exception as e:  # the host must keep running whatever one tick does
            print(f"keezbord: tick failed: {e!r}")

    def _recolour(self) -> None:
        st = self.session.state
        self.pawns.recolour(st.pos, st.sensed)

    # -- sensor and link health (run mode) ------------------------------------------------

    def health(self) -> dict[str, Any] | None:
        """Sensors (chatter, stuck switches) and the board's link, for the page."""
        if self.opts.mode != "run":
            return None
        return self.sensors.view(self.session.state, self.driver, self.now(), self.session)

    def _check_health(self) -> None:
        """Broadcast when the health changed (ages and counters of good frames aside); in
        the simulator the journal's alone: a failing fsync shows before the next change."""
        if self.sensors.news(self.health() or {"journal": journal_health(self.session)}):
            self.changed()

    # -- requests from a page ------------------------------------------------------------

    def access(self, token: str | None) -> Access:
        """What a page's token gives it (every page is the referee without tokens)."""
        tokens = self.opts.tokens
        return Access(Role.REFEREE) if tokens is None else access_of(tokens, token)

    def request(self, msg: Mapping[str, Any], role: Access | Role) -> dict[str, Any] | None:
        """One message from a page (docs/web.md); a question's answer, if it asked one.
        Raises HubError with a player text."""
        return requests.handle(self, msg, role if isinstance(role, Access) else Access(role))

    def undo(self) -> None:
        effects = self.session.undo_last_move(self.now())
        self._after(effects)

    def new_game(self, msg: Mapping[str, Any], made: dict[str, Any] | None = None) -> None:
        """Start a new game (the old one stays in the journal); ``made``: its setup."""
        if made is not None:  # (a game set up in the simulator: its table's info)
            setup, info = made, made.pop(setups.SIM_INFO, None)
        else:
            setup, info = setups.new_setup(self, msg)
        if self.bots is not None:
            self.bots.cancel()
        self.start_game(setup, info)

    def start_game(self, setup: dict[str, Any], info: SimInfo | None) -> None:
        """Start ``setup`` (a new game, or a linked game's host's): the old one stays in
        the journal; ``info``: the simulator's table or a virtual deal."""
        try:  # opened before the old one is closed: a full disk keeps the game going on
            session = GameSession.start(self.opts.db, setup)
        except (JournalError, JournalWriteError) as e:
            raise HubError(cannot_start(e)) from None
        self.session.close()
        self.session = session
        decisions, self.log = actions.opened(self.session)
        self.remarks = Remarks(self.session.state.pos.topology)
        sim = None
        attach(self)
        setups.note_at_once(self)
        if info is not None:
            if self.store is None:
                self.store = SimStore(self.opts.db)
            self.store.save(self.session.game, info)
            pos = self.session.state.pos
            sim = SimTable(info, pos.seats, pos.profile.name, self.store, self.session.game)
        self._set_sim(sim, decisions)
        self.clock.reset(self.session.state.now + 1)
        self._entries.clear()
        self.sensors.reset(self.session.state)
        self.pawns.reset()
        self.mismatch = None
        self._recolour()
        if self.driver is not None:
            self.driver.show_leds(self.session.state.leds, self.now())
        self.away.replan()
        for f in self.heard:  # after the LEDs, as the voice's words always are
            f("game", self.session.recent)
        self.changed()

    # -- what a page shows -----------------------------------------------------------------

    def instruct(self, source: str, instruction: Instruction | None) -> None:
        """Post ``source``'s instruction to the players (None: take it back); the page
        shows the most urgent one, or the game's own (docs/web.md "The instruction line")."""
        if instruction is None:
            if self.instructions.pop(source, None) is None:
                return
        else:
            self.instructions[source] = instruction
        self.changed()

    def page_state(self) -> dict[str, Any]:
        """Everything the page draws (docs/web.md ``state``), cached per version."""
        if self._cache is not None and self._cache[0] == self.version:
            return self._cache[1]
        out = page.page_state(page_view(self))
        out.update({key: view() for key, view in self.views.items()})
        self._cache = (self.version, out)
        return out

    def export(self) -> tuple[list[str], list[str]]:
        """The game's trace (JSON lines) and its move list (notation and words)."""
        return self.session.export_trace(), self.log.lines()
