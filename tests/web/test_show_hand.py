"""Issue 25 item 6 in real headless Chromium: "Show hand (no card playable)" is disabled,
with the reason under it, while a card can be played (it was enabled and refused only
after the press), and works when none can."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, opening_seed, options, sim_hub

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_show_hand_is_disabled_with_its_reason_while_a_card_can_be_played(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()  # red holds an A or a K: a pawn can come out
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    assert page.is_disabled("#discard")
    assert page.is_visible("#discard-why")
    assert page.inner_text("#discard-why") == (
        "A card can be played: you may show your hand only when none can."
    )
    assert page.get_attribute("#discard", "aria-describedby") == "discard-why"
    page.click("#lang")
    page.wait_for_selector("#discard-why:has-text('Je kunt een kaart spelen')")


def test_show_hand_works_when_no_card_can_be_played(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Seed 9: red to play with 10, 3, 9, Q, 3 and every pawn in the nest: nothing moves.
    srv = serve(sim_hub(tmp_path / "g.sqlite", 9))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".card[data-card='Q']:not([disabled])")
    page.wait_for_selector("#instruction:has-text('No card can be played: show your hand')")
    assert page.is_enabled("#discard") and page.is_hidden("#discard-why")
    page.click("#discard")
    page.wait_for_selector("#moves li[data-kind='discard']", timeout=10000)
    assert page.evaluate("window.keezbord.state.turn") == 1


@pytest.mark.parametrize("hints", ["targets", "coach"])
def test_a_tapped_card_lights_the_pawns_it_can_move_at_hint_level(
    serve: Serve, page: Any, tmp_path: Path, hints: str
) -> None:
    # Item 6's second half: once a card is tapped, the pawns that can move with it are lit
    # ("source") at `targets` and `coach` too (it was `full` only), and go dark once one is
    # lifted (its targets lit instead).
    seed, card = opening_seed()
    opts = options(tmp_path / "g.sqlite", seed=seed, bot_speed=0.15, think_ms=300)
    srv = serve(lambda: Hub.open_sim(opts, kinds=["human"] * 4, hints=hints))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    assert page.locator(".hole.led-source").count() == 0  # no card tapped: nothing to light
    page.click(f".card[data-card='{card}']")
    page.wait_for_selector(".hole.led-source")
    lit = page.locator(".hole.led-source").evaluate_all("els => els.map((e) => e.dataset.hole)")
    assert sorted(lit) == ["N0.1", "N0.2", "N0.3", "N0.4"]
    assert "(can move)" in page.get_attribute(".hole[data-hole='N0.1']", "aria-label")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector(".hole[data-hole='T0'].led-target")
    assert page.locator(".hole.led-source").count() == 0
