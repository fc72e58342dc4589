"""The simulated people (host/sim/people.py) hold the pawns the board misses even when
they do not remember lifting them: a pawn lifted before the program started (a restart
with a pawn in someone's hand) is in a person's hand, and when the referee asks for it
back (the missing pawn's flag, its restore LED) they put it back and play on."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from web_helpers import remote_hub, run_async

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.events import HoleEvent
from keezbord.host.referee.state import DEFAULT_MISSING_MS
from keezbord.host.sim.people import People

MOVES = 4


def test_a_pawn_lifted_before_the_people_came_is_put_back_when_asked(tmp_path: Path) -> None:
    async def play() -> tuple[tuple[str, ...], int, list[str]]:
        hub = remote_hub(tmp_path / "j.sqlite", 6, remote=())()  # every seat at the table
        await hub.start()
        board = hub.driver
        assert isinstance(board, FakeBoard)
        t = hub.clock.advance(0)
        board.put(HoleEvent(t, "lift", "N0.1"))  # in a hand before the people came
        # The pawn stays away past the referee's patience: it is asked back by a flag.
        deadline = time.monotonic() + 60
        while not hub.referee_state.missing and time.monotonic() < deadline:
            hub.clock.release(at_least=hub.now() + DEFAULT_MISSING_MS + 1)
            hub.tick()
            await asyncio.sleep(0.02)
        asked = hub.referee_state.missing
        people = People(hub, board, seed=6, speed=0.01)
        people.start()
        deadline = time.monotonic() + 240  # a stall, not slowness: a few seconds idle
        while len(hub.session.state.history) < MOVES and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        people.stop()
        await hub.stop()
        return asked, len(hub.session.state.history), [d["type"] for d in hub.session.recent]

    asked, moves, kinds = run_async(play)
    assert asked == ("N0.1",), asked  # the referee did ask for it
    assert moves >= MOVES, kinds
