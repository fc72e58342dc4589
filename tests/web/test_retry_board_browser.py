"""Issue 27 in real headless Chromium on a simulated real board (a fake GPIO chain
behind mock pins; the card reader's taps posted as its driver posts them): a finished
board game analysed, a mistake's review, "Again with the pawns": the position before it
set up by a simulated person following only the LEDs and the instruction line, the best
move played with the pawns, "the best move" shown."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from test_puzzles_browser import _events, _state
from test_retry_board import _tap, finished_board_game
from test_run_mode import FakeGpio, nests
from web_helpers import link, options

from keezbord.engine.movegen import successors
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.host.roles import Role
from keezbord.host.sim.follower import told_of
from keezbord.host.sim.physical import events_for_move
from keezbord.host.sim.setting_up import person_for
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_a_mistake_tried_again_with_the_pawns_in_the_browser(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "r.sqlite"
    finished_board_game(db)
    gpio = FakeGpio(nests())
    opts = options(db, mode="run", analysis_playouts=4)
    hubs: list[Hub] = []

    def make() -> Hub:
        hubs.append(Hub.open_run(opts, {"type": "setup", "seats": 4, "dealer": 3}, gpio.board))
        return hubs[-1]

    srv = serve(make)
    page.goto(link(srv, Role.PLAYER, lang="en"))
    page.wait_for_selector("#analysis-summary li.player", timeout=600_000)
    data = page.evaluate("analysisView.data")
    rows = [r for r in data["rows"] if r["type"] == "decision" and r["label"]]
    row = min(
        (r for r in rows if r["hand_known"] and len(set(r["hand"])) > 1), key=lambda r: r["n"]
    )
    page.focus(f"#analysis-chart .dot[data-n='{row['n']}'][data-move='{row['move']}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden]) #retry-board")
    page.click("#retry-board")
    page.wait_for_selector("#review", state="hidden")
    page.wait_for_selector("#puzzle:not([hidden])")
    assert f"play move {row['n']} again" in page.inner_text("#puzzle-task")
    page.wait_for_function("() => window.keezbord.state.setup !== null")
    s = _state(page)
    start = Position.start(4, "standard")
    person = person_for(start, frozenset(p["hole"] for p in s["pawns"]), random.Random(5))
    count = 0
    while (s := _state(page))["setup"] is not None:
        told = s["setup"]["told"]
        evs = person.respond(s["leds"], told_of(s["setup"]), 0)
        assert evs and count < 60
        _events(gpio, evs)
        count += 1
        page.wait_for_function(
            f"() => {{ const s = window.keezbord.state.setup; return !s || s.told > {told}; }}"
        )
    page.wait_for_selector("#instruction[data-source='retry']")
    shot(page, "retry-board-set-up")
    pos = Position.from_dict(_state(page)["position"])
    best = parse_move(row["best"]["move"], pos.topology)
    after = next(a for m, a in successors(pos, best.card) if m == best)
    sensed = frozenset(p["hole"] for p in _state(page)["pawns"])
    _tap(hubs[-1], best.card)
    _events(gpio, events_for_move(pos, best, after, random.Random(1), 0, sensed))
    page.wait_for_selector("#puzzle-verdict[data-outcome='best']", timeout=60_000)
    assert page.inner_text("#puzzle-verdict").startswith("The best move")
    shot(page, "retry-board-best")
