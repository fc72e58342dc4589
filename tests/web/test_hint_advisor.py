"""Hints "full" searched off the event loop (issues 14/15): a card tap returns at once
with the referee's request (AdviceWanted), the hub's advisor thread searches while the
loop keeps serving, and the answer comes back as a journalled ``advice`` input that
lights the hint; a resume shows it again without searching."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from web_helpers import run_async

from keezbord.host.events import CardTap, HoleEvent
from keezbord.host.journal import Journal
from keezbord.host.referee.state import AdviceWanted, Decision
from keezbord.host.web.hub import Hub, HubOptions

POSITION = {
    "seats": 4,
    "turn": 0,
    "pawns": [["T9", "T40", "N", "N"], ["T14", "N", "N", "N"], ["N"] * 4, ["N"] * 4],
}
SETUP = {"type": "setup", "seats": 4, "dealer": 3, "hints": "full", "position": POSITION}


def _hints(hub: Hub) -> list[dict[str, Any]]:
    return [d for d in hub.session.recent if d["type"] == "hint"]


async def _until(cond: Any, what: str, timeout: float = 60.0) -> int:
    """Spin the loop until ``cond()``; returns how many loop turns that took."""
    turns = 0
    end = asyncio.get_running_loop().time() + timeout
    while not cond():
        assert asyncio.get_running_loop().time() < end, f"no {what}"
        await asyncio.sleep(0.005)
        turns += 1
    return turns


def test_the_hint_is_searched_off_the_loop_and_journalled(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"

    async def scenario() -> None:
        hub = Hub.open_run(HubOptions(mode="run", db=db, hint_ms=30), SETUP, None)
        await hub.start()
        try:
            effects = hub.feed(CardTap(hub.now(), "5"))
            assert [e for e in effects if isinstance(e, AdviceWanted)]
            assert not [e for e in effects if isinstance(e, Decision) and e.type == "hint"]
            assert _hints(hub) == []
            assert not hub.session.state.hint
            turns = await _until(lambda: _hints(hub), "hint")
            assert turns >= 1  # the loop ran meanwhile: it was never blocked by the search
            [hint] = _hints(hub)
            assert hint["move"] == "5 0:T9-T14" and hint["holes"] == ["T9", "T14"]
            state = hub.session.state
            assert state.hint == ("T9", "T14") and state.leds["T9"] == "hint"
            assert hub.advisor.asked == hub.advisor.answered == 1
        finally:
            await hub.stop()

    run_async(scenario)
    with Journal(db, readonly=True) as j:
        inputs = j.inputs(j.game(None))
    types = [i["type"] for i in inputs]
    assert types[0] == "card" and types.count("advice") == 1  # ticks may come between
    advice = inputs[types.index("advice")]
    assert advice["move"] == "5 0:T9-T14" and set(advice["reason"]) == {"nl", "en"}


def test_an_answer_after_the_move_is_dropped(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"

    async def scenario() -> None:
        hub = Hub.open_run(HubOptions(mode="run", db=db, hint_ms=30), SETUP, None)
        await hub.start()
        try:
            # The player lifts and places before the search answers: the referee ignores
            # the late answer and the hub does not journal it.
            go = threading.Event()

            def busy() -> None:
                go.wait(30)

            hub.advisor.run(busy)  # the worker is busy
            t = hub.now()
            hub.feed(CardTap(t, "5"))
            hub.feed(HoleEvent(t + 1, "lift", "T40"))
            hub.feed(HoleEvent(t + 2, "place", "T45"))
            await _until(lambda: len(hub.session.state.history) == 1, "move")  # it settles
            go.set()
            await _until(lambda: hub.advisor.answered == 1, "answer")
            await asyncio.sleep(0.05)
            assert _hints(hub) == [] and len(hub.session.state.history) == 1
        finally:
            await hub.stop()

    run_async(scenario)
    with Journal(db, readonly=True) as j:
        types = [i["type"] for i in j.inputs(j.game(None))]
    assert "advice" not in types


def test_the_coach_searches_off_the_loop_too(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    setup = {**SETUP, "hints": "coach"}

    async def scenario() -> None:
        hub = Hub.open_run(HubOptions(mode="run", db=db, coach_ms=30), setup, None)
        await hub.start()
        try:
            t = hub.now()
            effects = hub.feed(CardTap(t, "5"))
            assert not [e for e in effects if isinstance(e, AdviceWanted)]  # no hint here
            hub.feed(HoleEvent(t + 1, "lift", "T40"))
            hub.feed(HoleEvent(t + 2, "place", "T45"))  # the worse 5: no capture
            await _until(lambda: len(hub.session.state.history) == 1, "move")
            await _until(lambda: hub.coach is not None, "remark")
            assert hub.coach is not None and hub.coach["better"] == "5 0:T9-T14"
            assert hub.advisor.asked == 0  # the coach is no hint: nothing journalled
        finally:
            await hub.stop()

    run_async(scenario)
    with Journal(db, readonly=True) as j:
        assert "advice" not in [i["type"] for i in j.inputs(j.game(None))]


def test_bots_in_the_simulator_ask_for_no_hint(tmp_path: Path) -> None:
    async def scenario() -> None:
        opts = HubOptions(db=tmp_path / "s.sqlite", seed=2, bot_speed=0.02, think_ms=20)
        hub = Hub.open_sim(opts, kinds=["random"] * 4, hints="full")
        await hub.start()
        try:
            await _until(lambda: len(hub.session.state.history) >= 4, "bot moves")
            assert hub.advisor.asked == 0 and _hints(hub) == []
        finally:
            await hub.stop()

    run_async(scenario)
