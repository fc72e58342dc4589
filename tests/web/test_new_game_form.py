"""Issue 40, item 18, in headless Chromium: after a puzzle whose player sits at another
seat, the new-game form kept the puzzle's seats ("greedy,greedy,greedy,human") and Start
seated the person as green without saying so. Now a task's seats are not copied, and
the form says which colour the person plays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, sim_hub_at

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_the_new_game_form_seats_the_person_first_after_a_puzzle(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    kinds = ["human", "greedy", "greedy", "greedy"]
    srv = serve(sim_hub_at(tmp_path / "s.sqlite", 1, [["N"] * 4] * 4, kinds))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#puzzle-list li button")
    pid = page.evaluate(
        "async () => (await (await fetch('/api/puzzles')).json()).puzzles"
        ".find((p) => !/ 0 [a-z]+$/.test(p.position)).id"
    )
    page.click(f"#puzzle-list button[data-puzzle='{pid}']")
    page.wait_for_function("() => window.keezbord.state.puzzle !== null")
    kinds_now = page.evaluate("window.keezbord.state.players.map((p) => p.kind)")
    assert kinds_now[0] != "human"  # the puzzle seats the person where its player sits
    players = page.input_value("#newgame input[name=players]")
    assert players == "human,greedy,greedy,greedy"
    said = page.inner_text("#players-you")
    assert said.startswith("You play") and said.endswith("red")
    page.fill("#newgame input[name=players]", "greedy,human,greedy,greedy")
    page.dispatch_event("#newgame input[name=players]", "input")
    assert "blue" in page.inner_text("#players-you")
