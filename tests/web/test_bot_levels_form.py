"""The bots' level in the new-game form (issue 38, section 5), in headless Chromium: the
form offers every level of engine/levels.py, says which one the bots of the game share and
why the default suits a first game, and a level chosen is played by every bot seat."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, sim_hub_at

from keezbord.engine.levels import DEFAULT_LEVEL, LEVEL_NAMES
from keezbord.engine.levels import level as level_of
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_the_form_offers_the_levels_and_a_chosen_level_plays_every_bot_seat(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    kinds = ["human", "greedy", "greedy", "greedy"]
    srv = serve(sim_hub_at(tmp_path / "s.sqlite", 1, [["N"] * 4] * 4, kinds))
    page.goto(link(srv, lang="en"))
    page.wait_for_function("() => window.keezbord.state !== null")
    level = "#newgame select[name=level]"
    offered = page.eval_on_selector_all(f"{level} option", "os => os.map((o) => o.value)")
    assert [v for v in offered if v] == list(LEVEL_NAMES)
    # The game's greedy bots are the casual level, the default for a first game.
    assert page.input_value(level) == DEFAULT_LEVEL == "casual"
    assert "no mistakes on purpose" in page.inner_text("#level-about")
    assert page.inner_text("#level-first").startswith("First game? Play at Casual")
    page.select_option(level, "beginner")
    assert page.input_value("#newgame input[name=players]") == "human,beginner,beginner,beginner"
    assert "captures its partner's pawn" in page.inner_text("#level-about")
    # Each level with its Elo on the ladder, as levels.py has it.
    assert (
        page.inner_text("#level-elo")
        == f"Elo on the ladder: {level_of('beginner').elo} (Casual = 0)"
    )
    page.select_option(level, "strong")
    assert (
        page.inner_text("#level-elo")
        == f"Elo on the ladder: +{level_of('strong').elo} (Casual = 0)"
    )
    page.select_option(level, "beginner")
    # Mixed seats: no one level.
    page.fill("#newgame input[name=players]", "human,beginner,strong,beginner")
    page.dispatch_event("#newgame input[name=players]", "input")
    assert page.input_value(level) == "" and page.inner_text("#level-elo") == ""
    page.select_option(level, "club")
    page.click("#newgame button[type=submit]")
    page.wait_for_selector("#confirm[open]")
    page.click("#confirm-yes")
    page.wait_for_function(
        "() => window.keezbord.state.players.map((p) => p.kind).join() === 'human,club,club,club'"
    )
    assert "bot (club)" in page.inner_text("#players li[data-seat='1']")
    page.click("#lang")  # the words follow the language
    page.wait_for_function("() => document.documentElement.lang === 'nl'")
    assert page.inner_text("#level-first").startswith("Eerste spel?")
    assert "spelletjes per zet" in page.inner_text("#level-about")
    assert (
        page.inner_text("#level-elo")
        == f"Elo op de ladder: +{level_of('club').elo} (Huiskamer = 0)"
    )
