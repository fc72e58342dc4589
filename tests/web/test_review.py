"""Issue 13, review (what a referee needs) in real headless Chromium: click a move in the
list to see the position before and after it, the card and who played it; a flagged
move shows the rule broken in words, as `keezbord check` says it; arrow keys step;
Escape goes back to live."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from web_helpers import link, opening_seed, options

from keezbord.engine.explain import explain
from keezbord.engine.game import Game
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def led(page: Any, hole: str) -> str | None:
    value: str | None = page.get_attribute(f".hole[data-hole='{hole}']", "data-led")
    return value


def pawn_shown(page: Any, hole: str) -> bool:
    shown: str = page.locator(f".hole[data-hole='{hole}'] .pawn").get_attribute("visibility")
    return shown == "visible"


def test_review_a_move_and_a_flagged_move(serve: Serve, page: Any, tmp_path: Path) -> None:
    seed, card = opening_seed()
    opts = options(tmp_path / "g.sqlite", seed=seed, bot_speed=0.15, think_ms=300)
    srv = serve(lambda: Hub.open_sim(opts, kinds=["human"] * 4))
    page.goto(link(srv, "referee", lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    page.click(f".card[data-card='{card}']")
    # A flagged move first: the pawn brought out onto T5 instead of its start hole.
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T5']")
    page.wait_for_selector("#flag:not([hidden])")
    page.click("#fix")
    page.wait_for_selector("#flag", state="hidden")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")
    assert pawn_shown(page, "T0") and not pawn_shown(page, "N0.1")

    # Click the move: the position after it, where it came from and went, card and player.
    page.click(f"#moves li[data-move='{card} 0:N-S']")
    page.wait_for_selector("#review:not([hidden])")
    facts = page.inner_text("#review-facts")
    assert "red plays the" in facts and f"Card: {card}" in facts and "Played by: ● red" in facts
    # (a nest's pawns are drawn in its lowest holes: the one that left is the last, N0.4)
    assert led(page, "T0") == "target" and led(page, "N0.4") == "source"
    assert pawn_shown(page, "T0")
    shot(page, "review-after")
    # Up: the position before it (the pawn still in its nest).
    page.keyboard.press("ArrowUp")
    page.wait_for_function(
        "() => document.querySelector(\".hole[data-hole='T0'] .pawn\")"
        ".getAttribute('visibility') === 'hidden'"
    )
    assert pawn_shown(page, "N0.4")
    # Left: the flagged move before it, with the rule broken in words as `check` says it.
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#review-facts li[data-fact='rule']")
    g = Game(4, "standard", seed)
    pos = g.position
    after = pos.replace(pawns=((5, *pos.pawns[0][1:]), *pos.pawns[1:]))
    why = explain(pos, card, after)
    assert why is not None and why.code != "not_your_pawn"
    assert f"Rule broken: {why.text.en}" in page.inner_text("#review-facts")
    assert pawn_shown(page, "T5") and led(page, "T5") == "error"
    assert page.inner_text("#review-title").startswith("Review: Flagged move")
    shot(page, "review-flagged")
    # Escape: back to live.
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    assert pawn_shown(page, "T0") and not pawn_shown(page, "T5")
    assert led(page, "T5") is None
