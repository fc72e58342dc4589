"""The simulated people (host/sim/people.py) play on when a linked board goes out of step
at the worst moments of their turn: just before their card (refused: the table is held),
between their card and their pawns, and with a pawn in hand (the move is finished, as a
hand would finish it, and settled when the table lets go).

Found by tests/club/test_linked_e2e.py stalling now and then: a card tapped while the
table was held was refused, the people moved the pawns anyway (a jack's swap: the board
as before by presence), and then, with pawns touched and no card, they waited for the
referee while the referee waited for a card."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

from stand_in_peer import StandInPeer
from web_helpers import options, run_async

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.events import HoleEvent, Reading
from keezbord.host.roles import Role
from keezbord.host.sim.people import People, TableHost
from keezbord.host.sim.table import TABLE, SimInfo, deal_dealer
from keezbord.host.web.hub import Hub

MOVES = 30
OUT_OF_STEP_S = 0.3  # how long the link stays out of step each time


class TouchedBoard(FakeBoard):
    """The board's switches as the people touch them, telling the test of every lift."""

    def __init__(self) -> None:
        super().__init__()
        self.on_lift: Callable[[], None] = lambda: None

    def put(self, event: Reading) -> None:
        super().put(event)
        if isinstance(event, HoleEvent) and event.action == "lift":
            self.on_lift()


class Cutting:
    """The hub as the people reach it, the link cut for a moment at their cards (every
    third card just before it is tapped, every third just after) and at their touches
    (every fifth lift, a pawn in hand)."""

    def __init__(self, hub: Hub, link: StandInPeer, board: TouchedBoard) -> None:
        self._hub, self._link = hub, link
        board.on_lift = self._lifted
        self.cards = 0
        self.cut = {"before": 0, "after": 0, "mid": 0}
        self.lifts = 0
        self.refused = 0  # cards the referee refused (the table held)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hub, name)

    def request(self, msg: Mapping[str, Any], role: Role) -> object:
        when = None
        if msg.get("type") == "card":
            when = ("before", "after", None)[self.cards % 3]
            self.cards += 1
        if when == "before":
            self._out(when)
        try:
            return self._hub.request(msg, role)
        finally:
            if when == "before" and self._hub.session.state.card != msg["card"]:
                self.refused += 1
            if when == "after":
                self._out(when)

    def _lifted(self) -> None:
        """Every fifth lift cuts the link, a pawn in hand."""
        self.lifts += 1
        if self.lifts % 5 == 0:
            self._out("mid")

    def _out(self, when: str) -> None:
        if not self._link.ok:
            return
        self.cut[when] += 1
        self._link.ok = False
        self._hub.away.replan()
        asyncio.get_running_loop().call_later(OUT_OF_STEP_S, self._back)

    def _back(self) -> None:
        self._link.ok = True
        self._hub.away.replan()


def _hub(db: Path, board: TouchedBoard) -> Hub:
    info = SimInfo(5, ["human"] * 4, None, {}, [TABLE] * 4)
    setup = {
        "type": "setup", "seats": 4, "profile": "standard", "hints": "off", "mode": "run",
        "dealer": deal_dealer(4, "standard", info),
    }  # fmt: skip
    return Hub.open_run(options(db, mode="run"), setup, board, resume=False, deal=info)


def test_the_people_play_on_when_the_link_is_cut_at_their_card(tmp_path: Path) -> None:
    async def play() -> tuple[int, dict[str, int], int, list[str]]:
        board = TouchedBoard()
        hub = _hub(tmp_path / "j.sqlite", board)
        await hub.start()
        link = StandInPeer(ok=True)
        hub.away.peer = link
        host = Cutting(hub, link, board)
        people = People(cast(TableHost, host), board, seed=7, speed=0.01)
        people.start()
        deadline = time.monotonic() + 240  # a stall, not slowness: ~20 s on one idle core
        while len(hub.session.state.history) < MOVES and time.monotonic() < deadline:
            if hub.session.state.over:
                break
            await asyncio.sleep(0.05)
        people.stop()
        await hub.stop()
        kinds = [d["type"] for d in hub.session.recent]
        return len(hub.session.state.history), host.cut, host.refused, kinds

    moves, cut, refused, kinds = run_async(play)
    assert moves >= MOVES, (moves, cut, kinds)
    assert cut["before"] >= 5 and cut["after"] >= 5 and cut["mid"] >= 3, cut
    assert refused >= 5, (refused, cut)
