"""The search's hints off the event loop (hints "full", issue 15).

The referee's step never searches: at a card tap with hints "full" it emits an
``AdviceWanted`` effect (the position, the card, what is known of the cards, the move
count that seeds the search). ``Advisor`` answers it on one worker thread and hands the
``Advice`` back; the host feeds that to the referee as an input, journalled like any
other, so a replay or a resume shows the same hint without searching again. The
referee shows it only while the turn and card it was asked for still stand.

Budgets are milliseconds (``HubOptions.hint_ms``, ``coach_ms``), turned into playouts
once per process by search_budget.playouts_for_ms (measured here, in the worker, at
start-up), since the engine counts playouts only: the same seed and playouts, the same
advice.

The search is Python on the worker thread: the event loop's thread gets the GIL back at
the interpreter's switch interval, which the advisor lowers to 1 ms (from 5 ms) so that
an event arriving during a search waits at most about that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from keezbord.engine.text import Text

from .referee import Advice, AdviceWanted, Effect, RefereeState

T = TypeVar("T")
SWITCH_INTERVAL_S = 0.001
DEFAULT_HINT_MS = 100  # about 150 playouts here, what "full" used to search
DEFAULT_COACH_MS = 100


def answer(wanted: AdviceWanted, playouts: int, t: int | None = None) -> Advice | None:
    """The search's move for ``wanted`` (None when the card has no legal move), as the
    input the referee takes; ``t``: when it is fed (default: when it was asked)."""
    from keezbord.engine.advice import advise  # the search: only when hints need it

    hint = advise(wanted.pos, [wanted.card], wanted.known, playouts=playouts, seed=wanted.n)
    if hint is None:
        return None
    return Advice(
        wanted.t if t is None else t,
        wanted.seat,
        wanted.card,
        wanted.n,
        hint.text,
        hint.holes,
        hint.win,
        Text(hint.sentence("nl"), hint.sentence("en")),
    )


def playouts_for(ms: float, seats: int, profile: str) -> int:
    from keezbord.host.search_budget import playouts_for_ms  # measures once a process

    return playouts_for_ms(ms, seats, profile)


def still_wanted(state: RefereeState, advice: Advice) -> bool:
    """Whether the turn and card ``advice`` was asked for still stand (else the player
    was quicker than the search: the answer is dropped, not journalled)."""
    return (
        state.seat == advice.seat and state.card == advice.card and len(state.history) == advice.n
    )


class Host(Protocol):
    """What the advisor needs of the web hub (keezbord/host/web/hub.py)."""

    session: Any  # a GameSession: .state
    sim: Any  # the simulator's table, or None
    coach: dict[str, Any] | None  # the coach's last remark, for the page
    tap_hand: tuple[int, list[str]] | None  # a person's hand at its tap (the simulator)
    _loop: asyncio.AbstractEventLoop | None

    def feed(self, event: Advice) -> Any: ...
    def now(self) -> int: ...
    def changed(self) -> None: ...


class Advisor:
    """One worker thread for the search: hints asked by the referee, and the coach's
    remark after a person's move (also a search), both off the host's loop; results go
    back to the loop with call_soon_threadsafe."""

    def __init__(
        self,
        hint_ms: float = DEFAULT_HINT_MS,
        coach_ms: float = DEFAULT_COACH_MS,
        state: RefereeState | None = None,
    ) -> None:
        """``state``: the game at start-up, to measure the machine now if it searches."""
        self.hint_ms = hint_ms
        self.coach_ms = coach_ms
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self.asked = 0  # for tests and the bench
        self.answered = 0
        self.closed = False  # answers still on their way to the loop are then dropped
        if state is not None:
            self.warm_up(state)

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                if sys.getswitchinterval() > SWITCH_INTERVAL_S:
                    sys.setswitchinterval(SWITCH_INTERVAL_S)
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="advisor")
            return self._pool

    def warm_up(self, state: RefereeState) -> None:
        """At start-up, when the game's hints search: measure this machine's playouts a
        second now, on the worker, so that the first hint does not pay for it."""
        if state.config.hints in ("full", "coach"):
            pos = state.pos
            self._executor().submit(playouts_for, self.hint_ms, pos.seats, pos.profile.name)

    def hint_playouts(self, state: RefereeState) -> int:
        """The hint's budget in playouts (also for "which card?")."""
        return playouts_for(self.hint_ms, state.pos.seats, state.pos.profile.name)

    def coach_playouts(self, state: RefereeState) -> int:
        """The coach's budget in playouts (0 when the game has no coach)."""
        if state.config.hints != "coach":
            return 0
        return playouts_for(self.coach_ms, state.pos.seats, state.pos.profile.name)

    def answer(
        self,
        effects: Sequence[Effect],
        loop: asyncio.AbstractEventLoop | None,
        deliver: Callable[[Advice], None],
    ) -> None:
        """Every hint the referee asked in ``effects``: searched on the worker, then
        ``deliver(advice)`` on ``loop`` (at once, in this thread, without a loop: a hub
        driven by hand)."""
        for e in effects:
            if not isinstance(e, AdviceWanted):
                continue
            if loop is None:
                self.ask(e, deliver).result()
                continue

            def done(advice: Advice, loop: asyncio.AbstractEventLoop = loop) -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(deliver, advice)

            self.ask(e, done)

    def ask(self, wanted: AdviceWanted, done: Callable[[Advice], None]) -> Future[None]:
        """Search for ``wanted`` on the worker; ``done(advice)`` when there is one."""
        self.asked += 1

        def work() -> None:
            pos = wanted.pos
            advice = answer(wanted, playouts_for(self.hint_ms, pos.seats, pos.profile.name))
            self.answered += 1
            if advice is not None:
                done(advice)

        return self._executor().submit(work)

    def run(self, fn: Callable[[], None]) -> Future[None]:
        """Any other search off the loop, in order with the hints."""
        return self._executor().submit(fn)

    def coach(
        self,
        remark: Callable[[RefereeState, Any, Any, Any, int], T],
        args: tuple[RefereeState, Any, Any, Any],
        loop: asyncio.AbstractEventLoop | None,
        deliver: Callable[[T], None],
    ) -> None:
        """Hints "coach": ``remark(*args, playouts)`` (web/coach.py's search after a
        person's move) on the worker, then ``deliver(result)`` on ``loop``, in order with
        the hints (at once, in this thread, without a loop). Nothing at other levels."""
        if args[0].config.hints != "coach":
            return

        def work() -> T:
            return remark(*args, self.coach_playouts(args[0]))

        if loop is None:
            deliver(self._executor().submit(work).result())
            return

        def done(result: T) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(deliver, result)

        self._executor().submit(lambda: done(work()))

    def answer_for(self, host: Host, effects: Sequence[Effect]) -> None:
        """The hub's hints: each answer fed on its loop while its turn and card stand.
        Only for people: a bot's tap in the simulator asks for nothing."""

        def feed(advice: Advice) -> None:
            st = host.session.state
            if not self.closed and still_wanted(st, advice):
                host.feed(replace(advice, t=max(host.now(), st.now)))

        sim = host.sim
        wanted = [
            e
            for e in effects
            if isinstance(e, AdviceWanted) and (sim is None or not sim.is_bot(e.seat))
        ]
        self.answer(wanted, host._loop, feed)

    def coach_for(
        self,
        host: Host,
        record: dict[str, Any],
        remark: Callable[[RefereeState, Any, Any, Any, int], dict[str, Any] | None],
    ) -> None:
        """After a move or undo: the hub's coach remark is cleared, and (hints "coach")
        searched anew on the worker, shown if no other move came first; the hand
        tapped with is used up."""
        host.coach = None
        tap, host.tap_hand = host.tap_hand, None

        def show(result: dict[str, Any] | None) -> None:
            if self.closed:
                return
            if result is not None and result["n"] == len(host.session.state.history):
                host.coach = result
                host.changed()

        args = (host.session.state, record, host.sim, tap)
        self.coach(remark, args, host._loop, show)

    def close(self) -> None:
        self.closed = True
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
