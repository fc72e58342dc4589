"""Issue 26 part 3, done-when: in real headless Chromium a puzzle is set up on a
simulated real board (a fake GPIO chain behind mock pins, no card reader) by a
simulated person who follows only the LEDs and the instruction line (sim/follower.py),
chosen on the page by its theme, its solution played with the pawns, "solved" shown."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from puzzle_record import PID, PUZZLE, write_puzzle_file
from test_run_mode import FakeGpio, nests
from web_helpers import gpio_hub, link

from keezbord.engine.movegen import successors
from keezbord.engine.position import Position
from keezbord.engine.puzzles import Puzzle
from keezbord.host.events import HoleEvent
from keezbord.host.roles import Role
from keezbord.host.sim.follower import told_of
from keezbord.host.sim.physical import events_for_move
from keezbord.host.sim.setting_up import person_for
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def _state(page: Any) -> dict[str, Any]:
    st: dict[str, Any] = page.evaluate("window.keezbord.state")
    return st


def _events(gpio: FakeGpio, events: list[Any]) -> None:
    for ev in events:
        if isinstance(ev, HoleEvent):
            gpio.set(ev.hole, ev.action == "place")
            time.sleep(0.06)  # a hand's pace: each switch scanned on its own


def test_a_puzzle_set_up_by_a_simulated_person_and_solved(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # The tests' own puzzle (blue with A, 6, A: the 6 captures yellow), in the club's file.
    write_puzzle_file(tmp_path / "puzzles.jsonl")
    gpio = FakeGpio(nests())
    srv = serve(gpio_hub(tmp_path / "r.sqlite", gpio.board))
    page.goto(link(srv, Role.PLAYER, lang="en"))
    page.wait_for_selector(f"#puzzle-list li[data-puzzle='{PID}']")
    every = page.locator("#puzzle-list li").count()
    page.select_option("#puzzle-theme", "capture")  # asked for: the filter still works
    page.wait_for_function(f"() => document.querySelectorAll('#puzzle-list li').length < {every}")
    assert "capture" not in page.inner_text("#puzzle-list")  # the list gives nothing away
    page.click(f"#puzzle-list button[data-puzzle='{PID}']")
    page.wait_for_selector("#puzzle:not([hidden])")
    assert page.inner_text("#puzzle-task") == (
        "Blue to play, holding A, 6, A: play the best move with the pawns"
    )
    page.wait_for_function("() => window.keezbord.state.setup !== null")
    # The simulated person: sees the pawns (colours too), reads the LEDs and the line.
    s = _state(page)
    start = Position.start(4, "standard")
    person = person_for(start, frozenset(p["hole"] for p in s["pawns"]), random.Random(7))
    count = 0
    while (s := _state(page))["setup"] is not None:
        told = s["setup"]["told"]
        evs = person.respond(s["leds"], told_of(s["setup"]), 0)
        assert evs, "the person found nothing to do"
        _events(gpio, evs)
        count += 1
        page.wait_for_function(
            f"() => {{ const s = window.keezbord.state.setup; return !s || s.told > {told}; }}"
        )
        assert count < 20
    shot(page, "puzzle-1-set-up")
    puzzle = Puzzle.from_json(PUZZLE)
    pos = puzzle.position
    assert _state(page)["position"]["pawns"][1][3] == "T22"
    page.wait_for_selector("#instruction[data-source='puzzle']")
    page.click("#puzzle-cards button[data-card='6']")
    page.wait_for_selector("#puzzle-cards button[data-card='6'][aria-pressed='true']")
    after = next(a for m, a in successors(pos, "6") if m == puzzle.solution)
    sensed = frozenset(p["hole"] for p in _state(page)["pawns"])
    _events(gpio, events_for_move(pos, puzzle.solution, after, random.Random(1), 0, sensed))
    page.wait_for_selector("#puzzle-verdict[data-outcome='solved']")
    assert page.inner_text("#puzzle-verdict").startswith("Solved at the first try!")
    shot(page, "puzzle-2-solved")
