"""The simulator's bot seats, played at a person's pace: think, tap the card, then lift
and place the pawns as hole events (physical.py), each fed to the referee like a
person's. Runs on the host's asyncio loop, one bot turn at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Sequence
from typing import Final, Protocol

from keezbord.engine.board import Board as FastBoard
from keezbord.engine.board import to_move
from keezbord.engine.movegen import apply
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.engine.search import known_of_game
from keezbord.host.events import CardTap, Discard, Event, HoleEvent
from keezbord.host.referee import BOUNCE_MS, RefereeState, board_sig, pos_sig
from keezbord.host.sim.pawns import PawnTracker, landing_seats
from keezbord.host.sim.physical import events_for_move
from keezbord.host.sim.restore import put_back_on
from keezbord.host.sim.table import SimTable

# The least time a hand takes between two touches of the board. A bot sped up (speed < 1)
# still leaves this long between them (or as long as at full speed, if that is shorter:
# a switch's own bounce), or the referee would take a pawn lifted and put down again
# quicker than a hand can for a bounce (BOUNCE_MS) and never see the move.
HAND_MS: Final = 2 * BOUNCE_MS


def paced(times: Sequence[int], speed: float) -> list[int]:
    """The times (ms from the turn's start) of a move's events played at ``speed``."""
    out: list[int] = []
    for i, t in enumerate(times):
        if i == 0:
            out.append(int(t * speed))
        else:
            gap = t - times[i - 1]
            out.append(out[-1] + max(int(gap * speed), min(gap, HAND_MS)))
    return out


class BotHost(Protocol):
    """What a bot needs of the running game (the web hub)."""

    pawns: PawnTracker

    @property
    def referee_state(self) -> RefereeState: ...

    def feed(self, event: Event) -> object: ...

    def now(self) -> int: ...

    def changed(self) -> None: ...

    def track(self, ev: HoleEvent, seat_hint: int | None = None) -> None: ...

    def holding(self) -> bool:
        """The bots wait (the referee's takeback dialog is open)."""
        ...


class BotPlayer:
    def __init__(
        self,
        host: BotHost,
        sim: SimTable,
        *,
        think_ms: int = 700,
        speed: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        self.host = host
        self.sim = sim
        self.think_ms = think_ms
        self.speed = speed  # multiplies every delay (tests use less)
        self.rng = rng or random.Random()
        self.busy: int | None = None  # the seat of the bot playing now
        self._task: asyncio.Task[None] | None = None
        # Until this player's first turn, a bot's turn may have been cut off (the power,
        # Ctrl-C) and the game resumed: its card tapped, or pawns in its hand.
        self._restarted = True

    def maybe_start(self) -> None:
        """Start the turn of the bot to play, if it is a bot's turn and the board is at
        rest as the position says."""
        st = self.host.referee_state
        sim = self.sim
        if self.busy is not None or st.seat is None or sim.waiting or st.arranging is not None:
            return  # (the board being set up: the game has not begun)
        seat = st.seat
        if not sim.is_bot(seat) or st.flag is not None or st.ambiguous:
            return
        at_rest = board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos)
        if self._restarted and st.lifted and not at_rest:
            put_back_on(self.host)  # the bot's hand, cut off mid-move, puts its pawns back
            st = self.host.referee_state
            at_rest = board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos)
        # A card tapped is this bot's own, in play: unless the game was just resumed, its
        # move is on the board, settling (a swap's board looks as before it).
        if (st.card is not None and not self._restarted) or not at_rest:
            return  # the board is not at rest as the position says: wait for the people
        self._restarted = False
        self.busy = seat
        self._task = asyncio.create_task(self._turn(seat, st.card))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.busy = None

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _choose(self, seat: int, pos: Position, hand: list[str]) -> tuple[str, Move] | None:
        sim = self.sim
        informed = getattr(sim.bots[seat], "pick_known", None)
        if informed is None:
            return sim.bots[seat].choose(pos, hand)
        # The search bot: told what its seat knows.
        known = known_of_game(sim.game, seat, sim.gave(seat))
        fast = informed(FastBoard(pos), seat, hand, known)
        return None if fast is None else (fast[0], to_move(fast[1]))

    async def play_events(self, events: Sequence[Event], hints: dict[str, int]) -> None:
        """Feed a move's hole events at the bot's pace, each gap counted from the event
        really fed before it: a loop that ran late must not make the next gap short (a
        pawn put down too soon after its lift reads as a bounce)."""
        host = self.host
        last, prev = host.now(), 0
        for ev, at in zip(events, paced([e.t for e in events], self.speed), strict=True):
            assert isinstance(ev, HoleEvent)
            await self._sleep_until(last + at - prev)
            real = HoleEvent(host.now(), ev.action, ev.hole)
            host.track(real, hints.get(ev.hole))
            host.feed(real)
            last, prev = real.t, at

    async def _wait_hold(self) -> None:
        """While the referee decides on a takeback, a bot waits before its next step
        (a pawn already in its hand is put down: the move goes on)."""
        while self.host.holding():
            await asyncio.sleep(0.05)

    async def _sleep_until(self, t: int) -> None:
        delay = (t - self.host.now()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)

    async def _turn(self, seat: int, tapped: str | None = None) -> None:
        """Play ``seat``'s turn; ``tapped``: the card it had tapped when the game was
        cut off (it plays that card: the referee holds it)."""
        host, sim, speed = self.host, self.sim, self.speed
        try:
            await asyncio.sleep(self.think_ms * speed / 1000)
            await self._wait_hold()
            st = host.referee_state
            if st.seat != seat:
                return
            pos = st.pos
            hand = sim.hand(seat)
            # A card tapped before the game was cut off is played (it has a legal move:
            # the referee took it); else the bot chooses from its hand.
            choice = self._choose(seat, pos, [tapped]) if tapped in hand else None
            if choice is None:
                choice = self._choose(seat, pos, hand)
            host.changed()
            if choice is None:
                host.feed(Discard(host.now(), tuple(hand)))
                return
            card, move = choice
            after = apply(pos, card, move)
            if card != tapped:
                host.feed(CardTap(host.now(), card))
            await asyncio.sleep(self.think_ms * speed / 2000)
            await self._wait_hold()
            st = host.referee_state
            # A pawn counted hole by hole rests under the settle time even slowed down:
            # the simulator's referee gives no patience to a pawn resting on its path.
            rest = max(20, min(150, int(st.config.settle_ms * 0.8 / max(speed, 1e-3))))
            events = events_for_move(pos, move, after, self.rng, 0, st.sensed, max_rest=rest)
            await self.play_events(events, landing_seats(pos, move))
            # Let the page show the move (its pawn flies for 0.7 s) before the next bot
            # plays: a person can follow one move at a time (issue 13, defect 11).
            host.changed()
            await asyncio.sleep(self.think_ms * speed / 1000)
        finally:
            self.busy = None
            self._task = None
            host.changed()
