"""Issue 26 part 1 in the simulator's page (real headless Chromium): the "Set up a
position" form, shown in ``keezbord sim`` too, starts a new game at the position; the
simulated board draws it at once and the instruction line says so until the game's first
decision."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from web_helpers import link, sim_hub_at

from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser


def test_the_set_up_form_in_the_simulator_draws_the_position_at_once(
    serve: Callable[[Callable[[], Hub]], LiveServer], page: Any, tmp_path: Path
) -> None:
    make = sim_hub_at(tmp_path / "s.sqlite", 2, [["N"] * 4] * 4, ["human", *["greedy"] * 3])
    srv = serve(make)
    page.goto(link(srv, Role.PLAYER, lang="en"))
    page.wait_for_selector("#setupform:not([hidden])")
    page.fill("#setupform input[name=position]", "NNST20/NNNT33/NNNN/NNNN 0 standard")
    page.click("#setupform button[type=submit]")
    page.wait_for_function("() => window.keezbord.state.game === 2")
    page.wait_for_selector("#instruction[data-source='setup']")
    assert "at once" in page.inner_text("#instruction-text")
    st = page.evaluate("window.keezbord.state")
    assert st["setup"] is None and st["turn"] == 0 and len(st["hand"]["cards"]) == 5
    on = {p["hole"]: p["seat"] for p in st["pawns"] if p["hole"][0] in "ST"}
    assert on == {"T0": 0, "T20": 0, "T33": 1}
    for hole in ("T0", "T20", "T33"):  # drawn on the board
        page.wait_for_selector(f".hole[data-hole='{hole}'] .pawn[visibility='visible']")
    shot(page, "setup-sim-at-once")


def test_a_players_set_up_over_a_game_in_progress_asks_first(
    serve: Callable[[Callable[[], Hub]], LiveServer], page: Any, tmp_path: Path
) -> None:
    # Issue 37: the players' link ended a game in progress unasked. In the simulator the
    # page now asks, naming the game and its moves; dismissed, nothing happens.
    make = sim_hub_at(tmp_path / "s.sqlite", 2, [["N"] * 4] * 4, ["human", *["greedy"] * 3])
    srv = serve(make)
    page.goto(link(srv, Role.PLAYER, lang="en"))
    page.wait_for_selector("#setupform:not([hidden])")
    page.fill("#setupform input[name=position]", "NNST20/NNNT33/NNNN/NNNN 1 standard")
    page.click("#setupform button[type=submit]")  # game 1 had no move: at once
    page.wait_for_function("() => window.keezbord.state.game === 2")
    page.wait_for_function("() => window.keezbord.state.history.length > 0", timeout=30_000)
    said: list[str] = []
    answers = iter([False, True])

    def on_dialog(d: Any) -> None:
        said.append(d.message)
        if next(answers):
            d.accept()
        else:
            d.dismiss()

    page.on("dialog", on_dialog)
    page.fill("#setupform input[name=position]", "NNST20/NNNN/NNNN/NNNN 0 standard")
    page.click("#setupform button[type=submit]")
    page.wait_for_function("() => window.keezbord.asked.size === 0", timeout=10_000)
    assert len(said) == 1 and "This ends game 2, still in progress" in said[0]
    assert page.evaluate("window.keezbord.state.game") == 2
    page.click("#setupform button[type=submit]")
    page.wait_for_function("() => window.keezbord.state.game === 3", timeout=10_000)
    assert len(said) == 2
