"""The simulated people at a real board's table (``run --simulate`` with seats far away,
host/sim/people.py) hold the board's clock while their hands are on it (web/clock.py):
their touches are stamped a person's gaps apart in the board's time, however late the
machine wakes them, and once they are done their move is judged at once, on that
condition, not when the wall clock's settle time has passed and a tick comes."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from web_helpers import options, run_async

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.sim.people import People
from keezbord.host.sim.table import TABLE, SimInfo, deal_dealer
from keezbord.host.web.clock import HubClock
from keezbord.host.web.hub import Hub


def _hub(db: Path) -> Hub:
    """All four seats at the table; the hub's own ticker never comes (a machine too busy
    to wake it): only what the people do moves the game."""
    info = SimInfo(3, ["human"] * 4, None, {}, [TABLE] * 4)
    setup = {
        "type": "setup", "seats": 4, "profile": "standard", "hints": "off", "mode": "run",
        "dealer": deal_dealer(4, "standard", info),
    }  # fmt: skip
    opts = options(db, mode="run", tick_ms=3_600_000)
    return Hub.open_run(opts, setup, FakeBoard(), resume=False, deal=info)


def test_the_peoples_moves_are_judged_when_they_are_done_not_when_the_clock_ticks(
    tmp_path: Path,
) -> None:
    async def play() -> tuple[int, list[str]]:
        hub = _hub(tmp_path / "j.sqlite")  # made in the loop's thread: SQLite stays in it
        await hub.start()
        assert isinstance(hub.driver, FakeBoard)
        people = People(hub, hub.driver, seed=4, speed=0.01)
        people.start()
        deadline = time.monotonic() + 30
        while len(hub.session.state.history) < 4 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        people.stop()
        await hub.stop()
        return len(hub.session.state.history), [d["type"] for d in hub.session.recent]

    # a thread of its own: the browser tests' Playwright may keep a loop running in this one
    moves, kinds = run_async(play)
    assert moves >= 4, kinds
    assert not {"illegal", "second_card", "ambiguous"} & set(kinds), kinds  # no flag, no doubt


def test_a_held_clock_moves_only_as_the_people_say_and_never_back() -> None:
    clock = HubClock(1000)
    t0 = clock.hold()
    time.sleep(0.05)
    assert clock.now() == t0  # held: the wall clock does not move it
    assert clock.advance(250) == t0 + 250
    assert clock.release(at_least=t0 + 900) == t0 + 900  # done: on from the deadline
    assert clock.now() >= t0 + 900 and not clock.held
    assert clock.release(at_least=0) >= t0 + 900  # never backwards
