"""The page in real headless Chromium: a scripted game by mouse and keyboard, an illegal
placement flagged and put right, bots, a restart, the language switch. Screenshots go
to test-artifacts/web/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from web_helpers import link, opening_seed, sim_hub

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def centre(page: Any, hole: str) -> tuple[float, float]:
    box = page.locator(f".hole[data-hole='{hole}'] .pit").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_game_by_mouse_with_bots(serve: Serve, page: Any, tmp_path: Path) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human", "greedy", "greedy", "greedy"]))
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    assert "rood (jij)" in page.inner_text("#status")
    page.click(f".card[data-card='{card}']")
    page.wait_for_selector("#played:has-text('Gespeeld')")
    # Drag the pawn from its nest to the start hole: the target lights while it is held.
    x0, y0 = centre(page, "N0.1")
    x1, y1 = centre(page, "T0")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 20, y0 - 20, steps=4)
    page.wait_for_selector(".hole[data-hole='T0'][data-led='target']")
    page.mouse.move(x1, y1, steps=8)
    shot(page, "1-dragging")
    page.mouse.up()
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")
    text = page.inner_text("#moves")
    assert "rood zet een pion op" in text
    assert page.locator(".hole[data-hole='T0'] .pawn").get_attribute("visibility") == "visible"
    shot(page, "2-moved")
    # The bots play their turns visibly, through the referee, until it is red's turn again.
    # (A bot with no A or K shows its hand: a discard, not a move.)
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s && s.turn === 0 && s.hand.active && [1, 2, 3].every((b) => s.decisions.some(
            (d) => d.seat === b && (d.type === "move" || (d.type === "discard" && d.ok)))); }""",
        timeout=30000,
    )
    page.wait_for_selector(".card:not([disabled])")
    assert "rood (jij)" in page.inner_text("#status")
    bot_lines = page.inner_text("#moves") + page.inner_text("#log")
    assert "blauw" in bot_lines and "groen" in bot_lines
    shot(page, "3-after-bots")


def test_illegal_placement_by_keyboard_and_language(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human"] * 4))
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    # Keyboard only: focus a card and press Enter, then holes with Space and Enter.
    page.focus(f".card[data-card='{card}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#played:has-text('Gespeeld')")
    page.focus(".hole[data-hole='N0.1']")
    page.keyboard.press("Space")
    page.wait_for_selector(".hole[data-hole='T0'][data-led='target']")
    page.focus(".hole[data-hole='T5']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#flag:not([hidden])")
    assert page.get_attribute(".hole[data-hole='T5']", "data-led") == "error"
    assert page.get_attribute(".hole[data-hole='N0.1']", "data-led") == "restore"
    reason_nl = page.inner_text("#flag-reason")
    assert reason_nl and "T5" in page.inner_text("#flag-guidance")
    assert "terug" in page.inner_text("#flag-guidance")
    shot(page, "4-flagged-nl")
    page.click("#lang")
    page.wait_for_selector("html[lang='en']")
    reason_en = page.inner_text("#flag-reason")
    assert reason_en != reason_nl
    assert "put red's pawn from T5 back in its nest" in page.inner_text("#flag-guidance")
    assert page.inner_text("#status").startswith("To play: ● red")
    assert "Hand of" in page.inner_text("#tray-title")
    shot(page, "5-flagged-en")
    page.focus(".hole[data-hole='T5']")
    page.keyboard.press("Enter")
    # The page places only a pawn it knows is in hand: wait for the lift to come back.
    page.wait_for_selector("#inhand button.held")
    page.focus(".hole[data-hole='N0.1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#flag", state="hidden")
    assert page.get_attribute(".hole[data-hole='T5']", "data-led") is None
    # The focused hole shows a visible focus ring (keyboard users see where they are).
    stroke = page.eval_on_selector(
        ".hole[data-hole='N0.1'] .pit", "e => getComputedStyle(e).strokeWidth"
    )
    assert stroke == "3.5px"


def test_a_restart_resumes_the_game_on_the_page(serve: Serve, page: Any, tmp_path: Path) -> None:
    seed, card = opening_seed()
    db = tmp_path / "g.sqlite"
    srv = serve(sim_hub(db, seed, ["human"] * 4))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    page.click(f".card[data-card='{card}']")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")
    hand = page.inner_text("#cards")
    srv.stop()
    page.wait_for_selector("#conn:has-text('connection lost')")
    srv2 = serve(sim_hub(db, seed + 99, ["human"] * 4))
    page.goto(link(srv2, lang="en"))
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")
    assert "red brings a pawn out" in page.inner_text("#moves")
    assert page.inner_text("#cards") == hand  # seat 1's hand, dealt from the same seed
    assert page.locator(".hole[data-hole='T0'] .pawn").get_attribute("visibility") == "visible"
    shot(page, "6-resumed")
