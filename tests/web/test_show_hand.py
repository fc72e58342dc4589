"""Issue 25 item 6 in real headless Chromium: "Show hand (no card playable)" is disabled,
with the reason under it, while a card can be played (it was enabled and refused only
after the press), and works when none can."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, opening_seed, options

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def sim(db: Path, seed: int) -> Callable[[], Hub]:
    opts = options(db, seed=seed, bot_speed=0.15, think_ms=300)
    return lambda: Hub.open_sim(opts, kinds=["human"] * 4)


def test_show_hand_is_disabled_with_its_reason_while_a_card_can_be_played(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()  # red holds an A or a K: a pawn can come out
    srv = serve(sim(tmp_path / "g.sqlite", seed))
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
    srv = serve(sim(tmp_path / "g.sqlite", 9))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".card[data-card='Q']:not([disabled])")
    page.wait_for_selector("#instruction:has-text('No card can be played: show your hand')")
    assert page.is_enabled("#discard") and page.is_hidden("#discard-why")
    page.click("#discard")
    page.wait_for_selector("#moves li[data-kind='discard']", timeout=10000)
    assert page.evaluate("window.keezbord.state.turn") == 1
