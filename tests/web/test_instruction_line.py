"""The instruction line (issue 25 item 5) in real headless Chromium: one line at the top,
in view at 1366x768 and on a phone however far the page is scrolled, with the 7's steps
left, the pawns in hand, the second pawn of a jack, the offline note, and a touch screen
told to tap (item 12) where a mouse is told to click."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from web_helpers import link, sim_hub_at, sized_page

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
EMPTY = ["N", "N", "N", "N"]
SCREENS = {"desktop": (1366, 768, False), "phone": (390, 844, True)}


def in_view(page: Any, selector: str) -> bool:
    """The element is drawn within the viewport (not scrolled away, not covered)."""
    return bool(
        page.evaluate(
            """(sel) => { const e = document.querySelector(sel);
            if (!e) return false;
            const r = e.getBoundingClientRect();
            if (r.height === 0 || r.top < 0 || r.bottom > innerHeight) return false;
            const x = r.left + Math.min(8, r.width / 2), y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return !!hit && (e === hit || e.contains(hit)); }""",
            selector,
        )
    )


def to_bottom(page: Any) -> None:
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    assert page.evaluate("window.scrollY") > 0  # the page is longer than the screen


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_seven_split_and_the_pawn_in_hand_stay_in_view(
    serve: Serve, browser: Any, tmp_path: Path, screen: str
) -> None:
    # Seed 38: red to play with a 7; red on T2 and T20.
    pawns = [["T2", "T20", "N", "N"], EMPTY, EMPTY, EMPTY]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 38, pawns))
    page = sized_page(browser, *SCREENS[screen])
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#instruction:has-text('a card')")
    verb = "Tap" if screen == "phone" else "Click"
    assert page.inner_text("#instruction-text") == f"{verb} a card"
    page.click("#lang")  # Dutch: a touch screen is told "tik", never "klik" (item 12)
    dutch = "Tik" if screen == "phone" else "Klik"
    page.wait_for_selector(f"#instruction-text:text-is('{dutch} op een kaart')")
    page.click("#lang")
    page.click(".card[data-card='7']")
    page.wait_for_selector(f"#instruction:has-text('Played 7: {verb.lower()} a lit pawn')")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#inhand button.held")
    to_bottom(page)
    assert in_view(page, "#instruction-text") and in_view(page, "#inhand button.held")
    assert "lit hole" in page.inner_text("#instruction-text")
    page.click(".hole[data-hole='T5']")  # 3 of the 7 steps
    page.wait_for_selector("#instruction:has-text('4 steps left')", timeout=10000)
    to_bottom(page)
    assert in_view(page, "#instruction-text")
    said = page.inner_text("#instruction-text")
    assert said == f"Played 7: 4 steps left, {verb.lower()} a lit pawn"
    # The pawn that can take the rest: a full, thick ring (it was thin and pale).
    ring = page.eval_on_selector(
        ".hole[data-hole='T20'].split-source .led",
        "e => [getComputedStyle(e).opacity, getComputedStyle(e).strokeWidth]",
    )
    assert float(ring[0]) == 1 and float(ring[1].removesuffix("px")) >= 5
    shot(page, f"instruction-{screen}-seven")
    page.context.close()


def test_the_jack_says_where_the_second_pawn_goes(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # Seed 17: red to play holding a jack; red on T2, yellow on T10.
    pawns = [["T2", "N", "N", "N"], EMPTY, ["T10", "N", "N", "N"], EMPTY]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 17, pawns))
    page = sized_page(browser, *SCREENS["desktop"])
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector("#instruction:has-text('een kaart')")
    page.click(".card[data-card='J']")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T10']")  # the lit partner: red's pawn goes down there
    page.wait_for_selector("#instruction:has-text('tweede pion')", timeout=10000)
    assert page.inner_text("#instruction-text") == "B: zet de tweede pion op T2"
    page.click("#lang")
    page.wait_for_selector("#instruction:has-text('Jack: put the second pawn on T2')")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#moves li[data-move^='J ']", timeout=10000)
    page.context.close()


def test_a_spectators_click_is_answered_in_the_line(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    pawns = [["T2", "N", "N", "N"], EMPTY, EMPTY, EMPTY]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 0, pawns))
    page = sized_page(browser, *SCREENS["desktop"])
    page.goto(link(srv, "spectator", lang="en"))
    page.wait_for_selector(".hole[data-hole='T2'] .pawn[visibility='visible']")
    # A spectator sees whose step it is, named.
    page.wait_for_selector("#instruction-who:has-text('red')")
    to_bottom(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#instruction:has-text('Watching only')")
    assert in_view(page, "#instruction-text")
    assert page.evaluate("window.keezbord.state.held.length") == 0
    page.context.close()
