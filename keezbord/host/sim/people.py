"""The simulated people at a real board's table (``keezbord run --simulate`` with seats
far away, issue 28): they play the seats at the table (a greedy bot chooses; they tap
the card on the board's page and move the pawns, as hole events through the board
driver) and carry out every move the board lights for them (a remote seat's, the linked
board's), following the LEDs only (led_person.py's ``next_touch``, the same reading of the
lights as the set-up's person), a flag's restore LEDs too.

``mistakes``: the first that many lit moves are carried out wrong once (the moved pawn
put one hole off), so a demonstration shows the flag and how the LEDs put it right.

Runs on the hub's asyncio loop (``start`` from the hub's start hooks); what it touches
goes through the driver like a real board's switches (``FakeBoard.put``), so the hub
reads it as it reads a board.

The machine's pace is not the people's: while their hands are on the board they hold
the hub's clock (web/clock.py) and stamp each touch a person's gap after the last, so
a move is never judged half made because the machine woke them late; when they have
nothing more to do they let go at the referee's settle deadline, so a finished move is
judged at once (``--speed`` only paces what the page shows).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Mapping
from typing import Any, Final, Protocol

from keezbord.engine.bot_kinds import make_bot
from keezbord.engine.movegen import apply
from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.events import HoleEvent
from keezbord.host.referee import RefereeState, board_of, board_sig, deadline, pos_sig
from keezbord.host.roles import Role

from .led_person import ROLES, Held, carry, next_touch, slip
from .physical import events_for_move
from .restore import put_back
from .table import TABLE, SimTable

# A person's gap between two touches when following the lights, in the game's time
# (between ~50 ms, a switch's bounce twice, and the referee's settle time).
FOLLOW_GAP_MS: Final = 250
PAUSE_FLOOR_MS: Final = 2.0  # the least real pause of the people's loop
IDLE_MS: Final = 200.0  # nothing to do: look again when the board changes, or this late


class Clock(Protocol):
    """The hub's clock as the people hold it (web/clock.py's HubClock)."""

    @property
    def held(self) -> bool: ...

    def advance(self, ms: int) -> int: ...

    def release(self, at_least: int = 0) -> int: ...


class TableHost(Protocol):
    """What the people need of the running game (the web hub)."""

    sim: SimTable | None
    listeners: set[asyncio.Queue[int]]  # told of every change (hub.changed)

    @property
    def clock(self) -> Clock: ...

    def tick(self) -> None: ...

    @property
    def referee_state(self) -> RefereeState: ...

    def now(self) -> int: ...

    def request(self, msg: Mapping[str, Any], role: Role) -> object: ...


class People:
    def __init__(
        self,
        host: TableHost,
        board: FakeBoard,
        *,
        seed: int = 0,
        speed: float = 1.0,
        mistakes: int = 0,
    ) -> None:
        self.host, self.board = host, board
        self.rng = random.Random(seed)
        self.speed = speed
        self.mistakes = mistakes
        self.hand: list[Held] = []
        self.slipped: str | None = None  # the lit move carried out wrong (once)
        self.lit_seen: list[str] = []  # lit moves met, in order
        self._mine: tuple[int, int] | None = None  # (moves made, seat) of our own turn
        self._task: asyncio.Task[None] | None = None
        self._news: asyncio.Queue[int] = asyncio.Queue()

    def start(self) -> None:
        self.host.listeners.add(self._news)
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        self.host.listeners.discard(self._news)
        if self._task is not None:
            self._task.cancel()

    async def _pause(self, ms: float) -> None:
        await asyncio.sleep(max(ms * self.speed, PAUSE_FLOOR_MS) / 1000)

    async def _idle(self) -> None:
        """Nothing to do: wait for the board to change (a move lit, a judgment, the other
        board's news), or ``IDLE_MS`` at most; no sooner than a pause."""
        await self._pause(200)
        if self._news.empty():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.get(), IDLE_MS / 1000)
        while not self._news.empty():
            self._news.get_nowait()

    def _touch(self, action: str, hole: str, gap: int = FOLLOW_GAP_MS) -> None:
        """A touch, stamped ``gap`` ms of the game's time after the last one while the
        hands are on the board (the clock held: web/clock.py)."""
        t = self.host.clock.advance(gap)
        self.board.put(HoleEvent(t, "lift" if action == "lift" else "place", hole))

    def _let_go(self) -> None:
        """Nothing more to do: the clock runs again, from the settle deadline of what the
        board shows if it waits only for quiet (so it is judged now), and ticks."""
        clock = self.host.clock
        if not clock.held:
            return
        clock.release()
        if self.host.referee_state.pending is not None:  # a closing lift: no bounce
            self._judge_at(deadline(self.host.referee_state))
        st = self.host.referee_state
        if st.pending is None and st.at_rest and st.stage == 0:  # it waits for quiet
            self._judge_at(deadline(st))

    def _judge_at(self, due: int | None) -> None:
        if due is not None:
            self.host.clock.release(at_least=due)
            self.host.tick()

    async def _run(self) -> None:
        await self._pause(600)
        while True:
            try:
                did = await self._step()
                if not did:
                    self._let_go()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the show goes on: a person tries again
                print(f"keezbord: simulated people: {e!r}", flush=True)
                did = False
            if did:
                await self._pause(120)
            else:
                await self._idle()

    async def _step(self) -> bool:
        """One thing the people do now (False: nothing to do)."""
        st = self.host.referee_state
        sim = self.host.sim
        if sim is None or st.over:
            return False
        lit = st.lit
        if lit is not None or st.flag is not None or st.missing:
            return self._follow(st, None if lit is None else str(lit))
        if self._mine is not None and self._mine != (len(st.history), st.seat):
            self._mine = None  # our move was taken: the turn moved on
        if st.card is not None or st.touched:
            if st.seat is None or sim.where(st.seat) != TABLE:
                return False
            as_before = board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos)
            if self._mine is not None:
                if not (as_before and st.outcome == "before" and st.stage >= 1):
                    return False  # our move is on the board: the referee settles it
                self._mine = None  # put back (moved while the table was held): again
            if st.card is None or not as_before:
                # A turn cut off (a restart): the board put back. With nothing to put
                # back and no card tapped, the turn is still to play (pawns touched and
                # standing as before: the referee waits for a card, not for the board).
                if self._tidy(st):
                    return True
                if st.card is not None:
                    return False
            if self.hand or st.hold is not None:
                return False
            await self._play(st.seat, st, st.card)  # and played again, with its card
            return True
        if self.hand or board_sig(st.sensed, st.pos.seats) != pos_sig(st.pos):
            return self._tidy(st)  # a new game, or a restart left pawns in hand
        here = [s for s in sim.waiting if sim.where(s) == TABLE]
        if here:
            card = make_bot("greedy", self.rng).give(sim.game.position, sim.hand(here[0]))
            with contextlib.suppress(ValueError):
                self.host.request({"type": "give", "seat": here[0], "card": card}, Role.PLAYER)
            return True
        seat = st.seat
        if seat is None or sim.where(seat) != TABLE or st.hold is not None:
            return False
        await self._play(seat, st)
        return True

    def _follow(self, st: RefereeState, lit: str | None) -> bool:
        if lit is not None and (not self.lit_seen or self.lit_seen[-1] != lit):
            self.lit_seen.append(lit)
        frame = {h: r for h, r in st.leds.items() if r in ROLES}
        self._recall(st, frame)
        touch = next_touch(frame, st.sensed, self.hand)
        if touch is None:
            return False
        action, hole = touch
        pawn = carry(self.hand, touch, frame)
        if pawn is not None and (
            lit is not None
            and pawn.role == "source"
            and self.mistakes > 0
            and self.slipped != lit
            and frame.get(hole) == "target"
        ):
            wrong = slip(hole, st.sensed, frame, st.pos.topology.hole_names, self.rng)
            if wrong != hole:
                self.mistakes -= 1
                self.slipped = lit
                hole = wrong
        self._touch(action, hole)
        return True

    def _recall(self, st: RefereeState, frame: Mapping[str, str]) -> None:
        """Pawns off the board that the people do not remember lifting (lifted before a
        restart, or before they sat down) are in their hands all the same: each taken as
        lifted from a hole the position has and the board misses, as it is lit now (the
        lit move's source first, then lit holes), so the frame's restore or target holes
        get them back."""
        unknown = st.total - len(st.sensed) - len(self.hand)
        if unknown <= 0:
            return
        held = {p.hole for p in self.hand}
        # Lit holes first (a nest's missing pawn may be read in any of its free holes).
        gone = sorted(
            (h for h in board_of(st.pos) - st.sensed if h not in held),
            key=lambda h: (frame.get(h) != "source", h not in frame, h),
        )
        self.hand += [Held(h, frame.get(h)) for h in gone[:unknown]]

    def _tidy(self, st: RefereeState) -> bool:
        """Put the board as the position says, one pawn at a time (after a restart with
        pawns in hand, or a new game)."""
        steps = put_back(st.pos, st.sensed)
        if not steps:
            self.hand.clear()
            return False
        action, hole = steps[0]
        if action == "lift":
            self.hand.append(Held(hole, None))
        elif self.hand:
            self.hand.pop()
        self._touch(action, hole)
        return True

    async def _play(self, seat: int, st: RefereeState, tapped: str | None = None) -> None:
        """A seat at the table plays: its card tapped on the page, its pawns moved
        (``tapped``: the card it had tapped before a restart)."""
        sim = self.host.sim
        assert sim is not None
        self._mine = (len(st.history), seat)
        await self._pause(700)
        pos = st.pos
        hand = [tapped] if tapped is not None else sim.hand(seat)
        choice = make_bot("greedy", self.rng).choose(pos, hand)
        if choice is None:
            self.host.request({"type": "discard"}, Role.PLAYER)
            return
        card, move = choice
        if tapped is None:
            self.host.request({"type": "card", "card": card}, Role.PLAYER)
            if self.host.referee_state.card != card:
                self._mine = None  # refused (the table held): no pawn moved, played later
                return
        await self._pause(400)
        if self.host.referee_state.hold is not None:
            return  # held before a pawn was moved: played with its card when it lets go
        after = apply(pos, card, move)
        events = events_for_move(pos, move, after, self.rng, 0, st.sensed)
        last = 0
        for ev in events:  # a person's gaps in the game's time; the page's pace real
            assert isinstance(ev, HoleEvent)
            await asyncio.sleep((ev.t - last) * self.speed / 1000)
            self._touch(ev.action, ev.hole, ev.t - last)
            last = ev.t
