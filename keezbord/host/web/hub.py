"""The running game behind the web page: referee session, simulated hands and bots,
drivers, and the broadcast of every change to the connected pages.

Everything that changes the game runs on the asyncio loop (drivers in threads post their
events onto it), so the referee sees one input at a time, in order. Times fed to the
referee are milliseconds on a clock that continues the journalled game's clock, so a
resumed game's settle timers keep working.

Two modes: ``sim`` (the page is the board: clicks are reed switches, the card tray is
the reader, bots fill seats) and ``run`` (a real board; the page is read-only unless the
client holds the control token).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from keezbord.engine.advice import coach
from keezbord.engine.board import Board as FastBoard
from keezbord.engine.board import to_move
from keezbord.engine.describe import describe_move
from keezbord.engine.movegen import apply
from keezbord.engine.notation import Move, Step
from keezbord.engine.position import NEST, location_hole
from keezbord.engine.profiles import PROFILES
from keezbord.engine.scoring import TIME_LIMIT_MINUTES, nk_score
from keezbord.engine.search import Known, known_of_game
from keezbord.engine.text import Text
from keezbord.engine.topology import SEAT_COLOURS
from keezbord.host.events import CardTap, Discard, HoleEvent, Penalty, TimeLimit
from keezbord.host.health import HealthMonitor
from keezbord.host.journal import Journal, JournalError
from keezbord.host.session import GameSession

from ..referee.recognize import board_of, board_sig, colours, nest_seat, pos_sig
from ..referee.state import (
    HINT_LEVELS,
    Board,
    Decision,
    Effect,
    Input,
    Leds,
    MoveRecord,
    Overrule,
)
from ..sim.physical import events_for_move
from .simtable import HUMAN, SimStore, SimTable, check_kinds, sim_setup

Mode = Literal["sim", "run"]


class HubError(ValueError):
    """A page's request that cannot be done; ``text`` is shown to the player."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


NOT_SIM = Text("dit is een echt bord: verzet de pionnen op het bord zelf",
               "this is a real board: move the pawns on the board itself")
NEED_TOKEN = Text("hiervoor is de beheercode nodig", "this needs the control token")
BOT_BUSY = Text("wacht even: een bot is aan zet", "wait: a bot is playing")
NO_PAWN = Text("daar staat geen pion", "there is no pawn there")
HOLE_TAKEN = Text("daar staat al een pion", "there is already a pawn there")
EMPTY_HAND = Text("je hebt geen pion in de hand", "you hold no pawn")
NOT_YOUR_CARD = Text("die kaart zit niet in de hand van wie aan zet is",
                     "that card is not in the hand of the player to play")
NOT_HUMAN = Text("deze stoel wordt door een bot gespeeld", "a bot plays this seat")
UNKNOWN_HOLE = Text("onbekend gat", "unknown hole")
GIVE_FIRST = Text("geef eerst een kaart aan je partner", "pass a card to your partner first")
NK_ONLY = Text("alleen bij het NK-profiel", "only with the nk profile")


class Driver(Protocol):
    """Hardware at the edge: delivers events with ``post`` and shows LED frames."""

    def start(self, post: Callable[[Input], None], now: Callable[[], int]) -> None: ...

    def show_leds(self, holes: Mapping[str, str], t: int) -> None: ...

    def close(self) -> None: ...


@dataclass
class HubOptions:
    mode: Mode = "sim"
    db: Path = Path("keezbord.sqlite")
    bot_speed: float = 1.0  # multiplies every bot delay (tests use less)
    think_ms: int = 700  # a bot's pause before it taps its card
    token: str | None = None  # control token (run mode)
    seed: int | None = None  # first game's seed (default random)
    tick_ms: int = 40
    health_ms: int = 1000  # how often the health is checked for a change to broadcast
    coach_playouts: int = 150  # the coach's search budget (hints "coach")
    defaults: dict[str, Any] = field(default_factory=dict)  # new-game defaults


def latest_game(db: Path, mode: str) -> int:
    """The journal's latest game of ``mode``; JournalError (a ValueError) if none."""
    with Journal(db, readonly=True) as journal:
        gid = journal.latest_game(mode)
    if gid is None:
        raise JournalError(f"{db}: no {mode} game")
    return gid


class Hub:
    def __init__(self, session: GameSession, options: HubOptions,
                 sim: SimTable | None = None, driver: Driver | None = None) -> None:
        self.session = session
        self.opts = options
        self.sim = sim
        self.driver = driver
        self.store: SimStore | None = sim.store if sim is not None else None
        self.decisions: list[dict[str, Any]] = session.journal.decisions(session.game)
        if sim is not None:
            sim.sync(self.decisions)
        self._t0 = time.monotonic()
        self._base = session.state.now + 1
        self.version = 0
        self.listeners: set[asyncio.Queue[int]] = set()
        self.pawn_seat: dict[str, int | None] = {}
        self.held: list[int | None] = []
        self.last: dict[str, Any] | None = None
        self.bot_busy: int | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._words: dict[int, dict[str, str]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._rng = random.Random()
        self.monitor = self._new_monitor()
        self._health_key: Any = None
        self._resynced: set[str] = set()  # holes a Board read changed (this turn)
        self.coach: dict[str, Any] | None = None  # the coach's last remark (hints "coach")
        self._tap_hand: tuple[int, list[str]] | None = None  # a human's hand at its tap
        self._recolour()

    # -- building --------------------------------------------------------------------

    @classmethod
    def open_sim(cls, options: HubOptions, *, seats: int = 4, profile: str = "standard",
                 kinds: list[str] | None = None, teams: str | None = None,
                 hints: str = "targets", resume: bool = True,
                 game: int | None = None) -> Hub:
        """The simulator: resumes ``game``, else the journal's latest simulator game,
        or starts a new one."""
        store = SimStore(options.db)
        session: GameSession | None = None
        if resume and options.db.exists():
            with contextlib.suppress(ValueError):
                session = GameSession.resume(options.db, game if game is not None
                                             else latest_game(options.db, "sim"))
        info = store.load(session.game) if session is not None else None
        if session is None or info is None:
            if session is not None:
                session.close()
            seed = options.seed if options.seed is not None else random.randrange(2**31)
            setup, info = sim_setup(seats, profile, seed, kinds or [HUMAN], teams=teams,
                                    hints=hints)
            session = GameSession.start(options.db, setup)
            store.save(session.game, info)
        pos = session.state.pos
        sim = SimTable(info, pos.seats, pos.profile.name, store, session.game)
        return cls(session, options, sim)

    @classmethod
    def open_run(cls, options: HubOptions, setup: dict[str, Any],
                 driver: Driver | None, *, resume: bool = True) -> Hub:
        """A real board: resumes the journal's latest game of ``setup``'s mode (a real
        board's by default), else starts ``setup``."""
        session = None
        if resume and options.db.exists():
            with contextlib.suppress(ValueError):
                session = GameSession.resume(options.db,
                                             latest_game(options.db, setup.get("mode", "run")))
        if session is None:
            session = GameSession.start(options.db, setup)
        return cls(session, options, None, driver)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._tasks.append(asyncio.create_task(self._ticker()))
        if self.driver is not None:
            self.driver.start(self.post, self.now)
            self.driver.show_leds(self.session.state.leds, self.now())

    async def stop(self) -> None:
        for task in [*self._tasks, *( [self._bot_task] if self._bot_task else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self.driver is not None:
            self.driver.close()
        self.session.close()
        if self.store is not None:
            self.store.close()

    # -- time and inputs ---------------------------------------------------------------

    def now(self) -> int:
        return self._base + int((time.monotonic() - self._t0) * 1000)

    def post(self, event: Input) -> None:
        """From a driver thread: feed ``event`` on the loop."""
        if self._loop is None:
            return
        self._loop.call_soon_threadsafe(self._feed_external, event)

    def _feed_external(self, event: Input) -> None:
        if isinstance(event, Board):
            # The driver's full read (at start or after a reconnect): news only if it
            # differs from what the referee believes.
            sensed = self.session.state.sensed
            if event.holes == sensed:
                return
            self._resynced |= event.holes ^ sensed
            for h in sorted(event.holes ^ sensed):
                self.monitor.observe(HoleEvent(event.t, "place" if h in event.holes
                                               else "lift", h))
            self.feed(event)
            self._recolour()
            return
        if isinstance(event, HoleEvent):
            self.monitor.observe(event)
            self._track(event)
        self.feed(event)

    def feed(self, event: Input) -> list[Effect]:
        effects = self.session.feed(event)
        self._after(effects)
        return effects

    def _after(self, effects: list[Effect]) -> None:
        records = [e.to_record() for e in effects if isinstance(e, Decision)]
        self.decisions.extend(records)
        for r in records:
            if r["type"] in ("move", "undo"):
                self._coach(r)
        if self.sim is not None and records:
            self.sim.sync(self.decisions)
        if any(r["type"] in ("move", "undo", "penalty", "overrule") for r in records):
            self._resynced.clear()
            self._recolour()
        if self.driver is not None and any(isinstance(e, Leds) for e in effects):
            self.driver.show_leds(self.session.state.leds, self.now())
        self.changed()

    def changed(self) -> None:
        self.version += 1
        for q in list(self.listeners):
            q.put_nowait(self.version)

    async def _ticker(self) -> None:
        next_health = 0.0
        while True:
            await asyncio.sleep(self.opts.tick_ms / 1000)
            if self.opts.mode == "run" and time.monotonic() >= next_health:
                next_health = time.monotonic() + self.opts.health_ms / 1000
                self._check_health()
            try:
                effects = self.session.tick(self.now())
                if effects:  # a flag cleared comes as a "resolved" decision
                    self._after(effects)
                self._maybe_bot()
            except Exception as e:  # the host must keep running whatever one tick does
                print(f"keezbord: tick failed: {e!r}")

    # -- sensor and link health (run mode) ------------------------------------------------

    def _new_monitor(self) -> HealthMonitor:
        st = self.session.state
        return HealthMonitor(st.pos.topology.hole_names, st.sensed, start=st.now)

    def health(self) -> dict[str, Any] | None:
        """Sensors (chatter, stuck switches) and the board's link, for the page."""
        if self.opts.mode != "run":
            return None
        st = self.session.state
        # A switch closed where the game has no pawn, and not placed on this turn (a
        # pawn put there by mistake is the referee's flag, not a stuck switch); a switch
        # found closed by a full read (at start) counts, it was never seen to close.
        expected = set(board_of(st.pos)) | (st.touched - self._resynced)
        summary = self.monitor.summary(self.now(), expected)
        sensors = {**summary.to_dict(), "bad": list(summary.bad_holes)}
        del sensors["never_changed"]  # the selftest's business, not the game's
        link = None
        health = getattr(self.driver, "health", None)
        if callable(health):
            try:
                link = health()
            except Exception as e:  # shown on the page, not fatal
                link = {"ok": False, "error": repr(e)}
        return {"sensors": sensors, "link": link}

    def _check_health(self) -> None:
        """Broadcast when the health changed (ages and counters of good frames aside)."""
        h = self.health()
        if h is None:
            return
        link = h["link"] or {}
        key = (h["sensors"]["ok"], tuple(h["sensors"]["bad"]), link.get("ok"),
               link.get("connected"), link.get("frames_bad"), link.get("gaps"),
               link.get("chain_ok"), link.get("broken_reads"), link.get("error"))
        if key != self._health_key:
            self._health_key = key
            self.changed()

    # -- the coach (hints "coach": after a player's clearly worse move) -----------------

    def _coach(self, record: Mapping[str, Any]) -> None:
        """After a move: the coach's remark when a person played clearly worse than the
        search's best (never for a bot's move, never at another hint level)."""
        self.coach = None
        tap, self._tap_hand = self._tap_hand, None
        st = self.session.state
        if record["type"] != "move" or st.config.hints != "coach" or not st.history:
            return
        seat = record["seat"]
        if self.sim is not None and self.sim.is_bot(seat):
            return
        rec = st.history[-1]
        hand = tap[1] if tap is not None and tap[0] == seat else [rec.card]
        shuffle = rec.table_before.shuffle_no
        seen = tuple(r.card for r in st.history[:-1] if r.table_before.shuffle_no == shuffle)
        known = Known(seen, rec.table_before.cards_left)
        remark = coach(rec.before.replace(turn=seat), hand, rec.card, rec.move, known,
                       playouts=self.opts.coach_playouts, seed=len(st.history))
        if remark is not None:
            self.coach = {"n": len(st.history), **remark.record()}

    # -- the simulated board (which seat's pawn stands where: the page's drawing) -----

    def _recolour(self) -> None:
        """Seat of every sensed pawn from the position (after a move is accepted or the
        game is opened); pawns the position does not explain keep their tracked seat."""
        pos = self.session.state.pos
        expected = colours(pos)
        sensed = self.session.state.sensed
        old = self.pawn_seat
        self.pawn_seat = {h: _seat_of(h, expected, old) for h in sensed}
        missing = [h for h in expected if h not in sensed]
        nests = [0] * pos.seats
        for h in sensed:
            s = nest_seat(h)
            if s is not None:
                nests[s] += 1
        held: list[int | None] = [expected[h] for h in sorted(missing)]
        for s, locs in enumerate(pos.pawns):
            held += [s] * max(0, sum(1 for loc in locs if loc == NEST) - nests[s])
        total = 4 * pos.seats
        held += [None] * max(0, total - len(sensed) - len(held))
        self.held = held[:max(0, total - len(sensed))]

    def _track(self, ev: HoleEvent, seat_hint: int | None = None) -> None:
        if ev.action == "lift":
            self.held.append(self.pawn_seat.pop(ev.hole, None))
        else:
            idx = len(self.held) - 1
            want = nest_seat(ev.hole) if ev.hole[0] == "N" else seat_hint
            if want is not None and want in self.held:
                idx = len(self.held) - 1 - self.held[::-1].index(want)
            seat = self.held.pop(idx) if self.held else None
            self.pawn_seat[ev.hole] = seat
        self.last = {"action": ev.action, "hole": ev.hole,
                     "by": "bot" if self.bot_busy is not None else "player"}

    # -- requests from a page ------------------------------------------------------------

    def request(self, msg: Mapping[str, Any], control: bool) -> None:
        """One message from a page (docs/web.md). Raises HubError with a player text."""
        kind = msg.get("type")
        if kind in ("lift", "place", "card", "discard", "fix", "give"):
            if self.sim is None:
                raise HubError(NOT_SIM)
            if self.bot_busy is not None:
                raise HubError(BOT_BUSY)
            if kind in ("card", "discard") and self.sim.waiting:
                raise HubError(GIVE_FIRST)
        elif kind in ("undo", "new_game", "penalty", "time_limit", "overrule") and not control:
            raise HubError(NEED_TOKEN)
        if kind in ("penalty", "time_limit") and \
                self.session.state.pos.profile.scoring != "nk":
            raise HubError(NK_ONLY)
        if kind == "lift" or kind == "place":
            self._hole_request(kind, msg)
        elif kind == "card":
            seat = self._human_to_play()
            card = msg.get("card")
            assert self.sim is not None
            if not isinstance(card, str) or card not in self.sim.hand(seat):
                raise HubError(NOT_YOUR_CARD)
            self._tap_hand = (seat, self.sim.hand(seat))
            self.feed(CardTap(self.now(), card))
        elif kind == "discard":
            seat = self._human_to_play()
            assert self.sim is not None
            self.feed(Discard(self.now(), tuple(self.sim.hand(seat))))
        elif kind == "fix":
            self._fix()
        elif kind == "give":
            assert self.sim is not None
            seat = msg.get("seat", self.sim.waiting[0] if self.sim.waiting else None)
            card = msg.get("card")
            if not isinstance(seat, int) or not isinstance(card, str):
                raise HubError(Text("kies een kaart", "choose a card"))
            try:
                self.sim.give(seat, card)
            except ValueError as e:
                raise HubError(Text("die kaart kan nu niet doorgegeven worden",
                                    f"that card cannot be passed now ({e})")) from None
            self.changed()
        elif kind == "undo":
            self.undo()
        elif kind == "penalty":
            offender = msg.get("seat")
            if isinstance(offender, bool) or not isinstance(offender, int) or \
                    not 0 <= offender < self.session.state.pos.seats:
                raise HubError(Text("kies een stoel", "choose a seat"))
            self.feed(Penalty(self.now(), offender))
        elif kind == "time_limit":
            self.feed(TimeLimit(self.now()))
        elif kind == "overrule":
            reason, mv, correct = msg.get("reason"), msg.get("move") or None, msg.get("correct")
            if not isinstance(reason, str) or not reason.strip() or (
                    mv is not None and not isinstance(mv, str)) or not isinstance(
                    correct if correct is not None else False, bool):
                raise HubError(Text("geef een reden op (en eventueel de zet)",
                                    "give a reason (and, if need be, the move)"))
            self.feed(Overrule(self.now(), reason.strip(), mv, bool(correct)))
        elif kind == "new_game":
            self.new_game(msg)
        else:
            raise HubError(Text(f"onbekend bericht {kind!r}", f"unknown message {kind!r}"))

    def _hole_request(self, kind: str, msg: Mapping[str, Any]) -> None:
        hole = msg.get("hole")
        topo = self.session.state.pos.topology
        if not isinstance(hole, str) or hole not in topo.hole_names:
            raise HubError(UNKNOWN_HOLE)
        sensed = self.session.state.sensed
        if kind == "lift":
            if hole not in sensed:
                raise HubError(NO_PAWN)
            ev = HoleEvent(self.now(), "lift", hole)
            self._track(ev)
        else:
            if hole in sensed:
                raise HubError(HOLE_TAKEN)
            if not self.held:
                raise HubError(EMPTY_HAND)
            pawn = msg.get("pawn")
            if isinstance(pawn, int) and 0 <= pawn < len(self.held):
                # The player chose which pawn in hand to put down: move it to the end.
                self.held.append(self.held.pop(pawn))
            ev = HoleEvent(self.now(), "place", hole)
            self._track(ev, self.held[-1])
        self.feed(ev)

    def _human_to_play(self) -> int:
        seat = self.session.state.seat
        if seat is None:
            raise HubError(Text("het spel is afgelopen", "the game is over"))
        assert self.sim is not None
        if self.sim.is_bot(seat):
            raise HubError(NOT_HUMAN)
        return seat

    def _fix(self) -> None:
        """Simulator help: put a flagged board right as the restore guidance says."""
        flag = self.session.state.flag
        if flag is None:
            return
        for frm, to in flag.pairs:
            if frm is not None and frm in self.session.state.sensed:
                ev = HoleEvent(self.now(), "lift", frm)
                self._track(ev)
                self.feed(ev)
            if to is not None and to not in self.session.state.sensed:
                if not self.held:
                    self.held.append(None)
                ev = HoleEvent(self.now(), "place", to)
                self._track(ev)
                self.feed(ev)

    def undo(self) -> None:
        effects = self.session.undo_last_move(self.now())
        self._after(effects)

    def new_game(self, msg: Mapping[str, Any]) -> None:
        """Start a new game (the old one stays in the journal)."""
        pos = self.session.state.pos
        d = self.opts.defaults
        seats = _int_in(msg.get("seats", d.get("seats", pos.seats)), 2, 8, "seats")
        profile = msg.get("profile", d.get("profile", pos.profile.name))
        if profile not in PROFILES:
            raise HubError(Text(f"onbekend profiel {profile!r}", f"unknown profile {profile!r}"))
        teams = msg.get("teams") or None
        if teams not in (None, "pairs", "none") or (teams == "pairs" and seats % 2):
            raise HubError(Text("teams: 'pairs' (bij een even aantal stoelen) of 'none'",
                                "teams: 'pairs' (with an even number of seats) or 'none'"))
        hints = msg.get("hints", self.session.setup_raw.get("hints", "targets"))
        if hints not in HINT_LEVELS:
            raise HubError(Text(f"onbekend hintniveau {hints!r}", f"unknown hint level {hints!r}"))
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None
        self.bot_busy = None
        if self.sim is not None:
            kinds_raw = msg.get("players", d.get("players", self.sim.info.kinds))
            try:
                kinds = check_kinds(list(kinds_raw), seats)
            except (TypeError, ValueError) as e:
                raise HubError(Text(str(e), str(e))) from None
            seed = msg.get("seed")
            if not isinstance(seed, int):
                seed = random.randrange(2**31)
            setup, info = sim_setup(seats, profile, seed, kinds, teams=teams, hints=hints)
        else:
            setup = dict(self.session.setup_raw)
            setup.pop("position", None)
            setup.pop("turn", None)
            setup.update({"hints": hints})
            if teams is not None:
                setup["teams"] = teams
        self.session.close()
        self.session = GameSession.start(self.opts.db, setup)
        self.decisions = self.session.journal.decisions(self.session.game)
        if self.sim is not None:
            assert self.store is not None
            self.store.save(self.session.game, info)
            self.sim = SimTable(info, seats, profile, self.store, self.session.game)
            self.sim.sync(self.decisions)
        self._base = self.session.state.now + 1
        self._t0 = time.monotonic()
        self._words.clear()
        self.monitor = self._new_monitor()
        self._resynced.clear()
        self.pawn_seat = {}
        self.last = None
        self._recolour()
        if self.driver is not None:
            self.driver.show_leds(self.session.state.leds, self.now())
        self.changed()

    # -- bots ----------------------------------------------------------------------------

    def _maybe_bot(self) -> None:
        sim = self.sim
        st = self.session.state
        if sim is None or self.bot_busy is not None or st.seat is None or sim.waiting:
            return
        if not sim.is_bot(st.seat) or st.flag is not None or st.card is not None:
            return
        if st.ambiguous or board_sig(st.sensed, st.pos.seats) != pos_sig(st.pos):
            return  # the board is not at rest as the position says: wait for the people
        self.bot_busy = st.seat
        self._bot_task = asyncio.create_task(self._bot_turn(st.seat))

    async def _sleep_until(self, t: int) -> None:
        delay = (t - self.now()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)

    async def _bot_turn(self, seat: int) -> None:
        sim = self.sim
        assert sim is not None
        speed = self.opts.bot_speed
        try:
            await asyncio.sleep(self.opts.think_ms * speed / 1000)
            st = self.session.state
            if st.seat != seat:
                return
            pos = st.pos
            hand = sim.hand(seat)
            informed = getattr(sim.bots[seat], "pick_known", None)
            if informed is not None:  # the search bot: told what its seat knows
                known = known_of_game(sim.game, seat, sim.gave(seat))
                fast = informed(FastBoard(pos), seat, hand, known)
                choice = None if fast is None else (fast[0], to_move(fast[1]))
            else:
                choice = sim.bots[seat].choose(pos, hand)
            self.changed()
            if choice is None:
                self.feed(Discard(self.now(), tuple(hand)))
                return
            card, move = choice
            after = apply(pos, card, move)
            self.feed(CardTap(self.now(), card))
            await asyncio.sleep(self.opts.think_ms * speed / 2000)
            events = events_for_move(pos, move, after, self._rng, 0, st.sensed)
            hints = _landing_seats(pos, move)
            start = self.now()
            for ev in events:
                assert isinstance(ev, HoleEvent)
                await self._sleep_until(start + int(ev.t * speed))
                real = HoleEvent(self.now(), ev.action, ev.hole)
                self._track(real, hints.get(ev.hole))
                self.feed(real)
        finally:
            self.bot_busy = None
            self._bot_task = None
            self.changed()

    # -- the state a page shows ------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the page draws (docs/web.md ``state``), cached per version."""
        if self._cache is not None and self._cache[0] == self.version:
            return self._cache[1]
        snap = self.session.snapshot("nl")
        st = self.session.state
        pos = st.pos
        sim = self.sim
        players = []
        for s in range(pos.seats):
            c = SEAT_COLOURS[s]
            players.append({
                "seat": s, "kind": sim.info.kinds[s] if sim is not None else "player",
                "colour": {"nl": c.nl, "en": c.en, "hex": c.hex, "symbol": c.symbol},
                "cards": sim.counts()[s] if sim is not None else None,
                "team": list(pos.team_of(s))})
        history = []
        for i, rec in enumerate(st.history):
            words = self._words.get(i)
            if words is None or words.get("_move") != rec.text:  # a corrected move
                words = {**_words(rec).as_dict(), "_move": rec.text}
                self._words[i] = words
            entry = {"n": i + 1, "seat": rec.seat, "card": rec.card, "move": rec.text,
                     "words": {k: v for k, v in words.items() if k != "_move"}}
            if rec.overruled:
                entry["overruled"] = rec.overruled
            history.append(entry)
        for k in [k for k in self._words if k >= len(st.history)]:
            del self._words[k]
        hand = None
        exchange = None
        if sim is not None and sim.waiting:
            giver = sim.waiting[0]
            exchange = {"seat": giver, "partner": sim.partner(giver), "cards": sim.hand(giver),
                        "waiting": list(sim.waiting)}
            hand = {"seat": giver, "cards": sim.hand(giver), "playable": [], "active": False}
        elif sim is not None:
            seat = st.seat
            if seat is None or sim.is_bot(seat):
                humans = [s for s in range(pos.seats) if not sim.is_bot(s)]
                seat = humans[0] if humans else None
            if seat is not None:
                active = (st.seat == seat and self.bot_busy is None)
                hand = {"seat": seat, "cards": sim.hand(seat),
                        "playable": sim.playable(seat) if active else [],
                        "active": active}
        flag = snap["flag"]
        if flag is not None:
            flag["guidance"] = [_guidance(a, b).as_dict() for a, b in st.flag.pairs] \
                if st.flag is not None else []
        score = None
        nk = pos.profile.scoring == "nk"
        if nk:
            score = [{"seats": list(team), "points": pts}
                     for team, pts in nk_score(pos, timed_out=st.stopped).items()]
        # Game time: the referee's clock continues over restarts (it starts at 0).
        clock = {"elapsed_ms": st.now if st.over else self.now(),
                 "running": not st.over,
                 "limit_ms": TIME_LIMIT_MINUTES * 60_000 if nk else None,
                 "stopped": st.stopped}
        out = {
            "type": "state", "version": self.version, "mode": self.opts.mode,
            "game": snap["game"], "seats": pos.seats, "segment": pos.topology.segment,
            "profile": pos.profile.name, "teams": pos.teams, "hints": snap["hints"],
            "players": players, "turn": snap["turn"], "card": snap["card"],
            "table": snap["table"], "position": snap["position"],
            "pawns": [{"hole": h, "seat": self.pawn_seat.get(h)} for h in sorted(st.sensed)],
            "held": list(self.held), "expected_board": snap["expected_board"],
            "leds": snap["leds"], "flag": flag, "ambiguous": snap["ambiguous"],
            "history": history, "decisions": snap["decisions"], "winner": snap["winner"],
            "score": score, "hand": hand, "bot_busy": self.bot_busy, "last": self.last,
            "health": self.health(), "clock": clock, "stopped": st.stopped,
            "exchange": exchange, "coach": self.coach,
        }
        self._cache = (self.version, out)
        return out

    def export(self) -> tuple[list[str], list[str]]:
        """The game's trace (JSON lines) and its move list (notation and words)."""
        trace = self.session.export_trace()
        moves = []
        for i, rec in enumerate(self.session.state.history):
            w = _words(rec)
            note = f"\t(overruled: {rec.overruled})" if rec.overruled else ""
            moves.append(f"{i + 1}. {rec.text}\t{w.nl}\t{w.en}{note}")
        return trace, moves


def _words(rec: MoveRecord) -> Text:
    """A move in words; a move the referee overruled may break every rule (even have no
    card): then its notation."""
    try:
        return describe_move(rec.before, rec.move)
    except (KeyError, ValueError, IndexError):
        return Text(rec.text, rec.text)


def _seat_of(hole: str, expected: Mapping[str, int], old: Mapping[str, int | None]
             ) -> int | None:
    if hole in expected:
        return expected[hole]
    if hole[0] in "NH":
        return int(hole[1:hole.index(".")])
    return old.get(hole)


def _landing_seats(pos: Any, move: Move) -> dict[str, int]:
    """Hole -> seat of the pawn that ends there (to draw a bot's pawns in hand right)."""
    out: dict[str, int] = {}
    for part in move.parts:
        if isinstance(part, Step):
            out[location_hole(pos.topology, part.seat, part.to).name] = part.seat
    return out


def _guidance(frm: str | None, to: str | None) -> Text:
    if frm is not None and to is not None:
        return Text(f"zet de pion van {frm} terug op {to}", f"move the pawn on {frm} back to {to}")
    if to is not None:
        return Text(f"zet een pion op {to}", f"put a pawn on {to}")
    return Text(f"haal de pion van {frm} weg", f"take the pawn off {frm}")


def _int_in(v: Any, lo: int, hi: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise HubError(Text(f"{name}: {lo} tot {hi}", f"{name}: {lo} to {hi}"))
    return v
