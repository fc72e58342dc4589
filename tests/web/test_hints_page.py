"""Hints that teach, on the page (headless Chromium) and on the board's LEDs: a run-mode
hub on the fake Pi-direct board (mock chain, fake NeoPixel strip) from a hand-built
position where the right advice is clear: red's 5 captures blue's pawn two holes from its
home. Level "full": the suggested pawn and target lit in role "hint" on the strip and the
page, the reason in the log. Level "coach": red plays the other 5, the coach says so."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from test_protocol import hello, until
from test_run_mode import FakeGpio, wait_for

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import link, options, ws_path

from keezbord.engine.position import Position
from keezbord.host.drivers.leds import DEFAULT_STYLES
from keezbord.host.events import CardTap
from keezbord.host.referee.recognize import board_of
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

Serve = Callable[[Callable[[], Hub]], LiveServer]

POSITION = {
    "seats": 4,
    "turn": 0,
    "pawns": [
        ["T9", "T40", "N", "N"],
        ["T14", "N", "N", "N"],
        ["N", "N", "N", "N"],
        ["N", "N", "N", "N"],
    ],
}


def start(serve: Serve, db: Path, hints: str) -> tuple[LiveServer, FakeGpio]:
    pos = Position.from_dict(POSITION)
    gpio = FakeGpio(sorted(board_of(pos)))
    opts = options(db, mode="run")
    setup = {"type": "setup", "seats": 4, "dealer": 3, "hints": hints, "position": POSITION}
    return serve(lambda: Hub.open_run(opts, setup, gpio.board)), gpio


def tap(srv: LiveServer, card: str) -> None:
    hub = srv.hub
    hub.post(CardTap(hub.now(), card))


def test_full_hint_lit_on_the_strip_and_named_on_the_page(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv, gpio = start(serve, tmp_path / "h.sqlite", "full")
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(".hole[data-hole='T9']")
    tap(srv, "5")
    page.wait_for_selector(".hole[data-hole='T9'][data-led='hint']", timeout=15000)
    page.wait_for_selector(".hole[data-hole='T14'][data-led='hint']")
    # The other pawn that can move with the 5 is only a "source".
    assert page.get_attribute(".hole[data-hole='T40']", "data-led") == "source"
    log = page.inner_text("#log")
    assert "2 gaten van huis" in log and "%" in log, log
    # On the strip: the hint's blue, ramping; the source pawn in sky blue.
    hb = DEFAULT_STYLES["hint"].colour[2]
    wait_for(lambda: gpio.pixel("T9") != (0, 0, 0) and gpio.pixel("T14") != (0, 0, 0))
    r, g, b = gpio.pixel("T14")
    assert b > g > r and b <= hb // 2  # brightness 0.5, a level of the ramp
    seen = set()
    end = time.monotonic() + 2.5
    while time.monotonic() < end:  # the ramp changes with time (2 s period)
        seen.add(gpio.pixel("T14"))
        time.sleep(0.05)
    assert len(seen) > 3
    assert gpio.pixel("T40") != gpio.pixel("T14")


def test_coach_speaks_after_the_worse_move(serve: Serve, page: Any, tmp_path: Path) -> None:
    srv, gpio = start(serve, tmp_path / "c.sqlite", "coach")
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='T40']")
    tap(srv, "5")
    time.sleep(0.3)
    # No suggestion during the move at this level.
    assert page.locator(".hole[data-led='hint']").count() == 0
    gpio.set("T40", False)
    time.sleep(0.2)
    gpio.set("T45", True)
    page.wait_for_selector("#moves li[data-move='5 0:T40-T45']", timeout=15000)
    page.wait_for_selector("#log li.coach", timeout=15000)
    text = page.inner_text("#log li.coach")
    assert "better move" in text and "T14" in text and "captures blue" in text, text
    state = srv.hub.page_state()
    assert state["coach"]["better"] == "5 0:T9-T14" and state["coach"]["seat"] == 0
    assert "beter" in state["coach"]["text"]["nl"]


def test_search_bots_in_the_simulator_and_never_a_coach_for_bots(tmp_path: Path) -> None:
    # The players list accepts "search"; bots' moves are never coached.
    opts = options(tmp_path / "s.sqlite", seed=4, bot_speed=0.02, think_ms=50)
    app = create_app(
        lambda: Hub.open_sim(opts, kinds=["search", "greedy", "search", "greedy"], hints="coach")
    )
    with TestClient(app) as c, c.websocket_connect(ws_path()) as ws:
        _, s = hello(ws)
        assert [p["kind"] for p in s["players"]] == ["search", "greedy", "search", "greedy"]
        s = until(ws, lambda s: len(s["history"]) >= 4 or s["coach"] is not None, limit=4000)
        assert s["coach"] is None and len(s["history"]) >= 4
