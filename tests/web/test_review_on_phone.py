"""Issue 40, item 15, on a phone (390x844, touch) in headless Chromium: the zoomed view
keeps both pawns of a jack's swap in view; after the game, a tap on the win-chance chart
opens the move tapped (the dots are 11 px and overlap), the review opens where the person
looks (not above the view, nor under the sticky board), says "Back to live" (no Esc key
on a touch screen), and the sticky board covers neither the chart's top nor the hand's
heading."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from finished import finished_sim_game
from test_phone_zoom import phone, shown
from web_helpers import link, options, sim_hub_at

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
N = ["N", "N", "N", "N"]
JACK_SEED = 1  # red holds a jack


def test_a_jacks_own_pawn_stays_in_the_zoomed_view(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # Red's pawn on T5 swaps with blue's on T33 or yellow's on T50, across the board:
    # once red's pawn is lifted the two targets were shown and T5 left off the view.
    pawns = [["T5", "N", "N", "N"], ["T33", "N", "N", "N"], ["T50", "N", "N", "N"], N]
    srv = serve(sim_hub_at(tmp_path / "j.sqlite", JACK_SEED, pawns))
    page = phone(browser)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#board.zoomed")
    page.click(".card[data-card='J']")
    page.wait_for_selector("#played:not(:empty)")
    page.click(".hole[data-hole='T5']")
    page.wait_for_function("() => window.keezbord.state.held.length === 1")
    page.wait_for_function("() => window.keezbord.state.leds['T33'] === 'target'")
    page.wait_for_function("() => (window.keezbord.zoomKey || '').includes('T33')")
    shot(page, "phone-jack-own-pawn")
    assert shown(page, "T5")  # where red's pawn stood: the jack's other half goes there
    assert shown(page, "T33") or shown(page, "T50")


BELOW_BOARD = """(sel) => {
  // The element's top is in view below the sticky board (and above the screen's bottom).
  const b = document.getElementById("boardwrap").getBoundingClientRect();
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= b.bottom - 1 && r.top < innerHeight - 40;
}"""


def test_the_hands_heading_is_not_under_the_sticky_board(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # A new turn focuses the hand's first card (panel.js); scrolled down to the log, the
    # card came up under the sticky board, the hand's heading with it.
    srv = serve(sim_hub_at(tmp_path / "h.sqlite", JACK_SEED, [N, N, N, N]))
    page = phone(browser)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".card[data-card='J']")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert not page.evaluate(BELOW_BOARD, "#tray-title")  # scrolled away
    page.evaluate("document.querySelector('#tray .card').focus()")
    assert page.evaluate(BELOW_BOARD, "#tray-title")


COVERED = """() => {
  // A labelled dot whose centre another dot, drawn on top, covers: a finger on it
  // opened the other move. (Else the dot nearest to another.) Its move number, and
  // where its centre is on the screen.
  const dots = [...document.querySelectorAll("#analysis-chart .dot")];
  const at = (d) => { const r = d.getBoundingClientRect();
                      return [r.left + r.width / 2, r.top + r.height / 2]; };
  let best = null, gap = Infinity;
  for (const dot of dots) {
    const [x, y] = at(dot);
    const hit = document.elementFromPoint(x, y);
    if (hit && hit !== dot && hit.classList.contains("dot"))
      return { n: Number(dot.dataset.n), move: dot.dataset.move, x, y };
    for (const o of dots) {
      const [ox, oy] = at(o);
      const g = Math.hypot(ox - x, oy - y);
      if (o !== dot && g < gap) {
        gap = g;
        best = { n: Number(dot.dataset.n), move: dot.dataset.move, x, y };
      }
    }
  }
  return best;
}"""


def test_the_review_on_a_phone(serve: Serve, browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    finished_sim_game(db)
    srv = serve(lambda: Hub.open_sim(options(db, analysis_playouts=2)))
    page = phone(browser)
    page.goto(link(srv, "player", lang="en"))
    page.wait_for_selector("#analysis-summary li.player", timeout=600_000)
    # The chart scrolled to as a person would: its top below the sticky board.
    page.evaluate("document.getElementById('analysis').scrollIntoView()")
    assert page.evaluate(BELOW_BOARD, "#analysis-chart")
    shot(page, "phone-chart")
    dot = page.evaluate(COVERED)
    assert dot is not None  # (this game's dots overlap: the case the person met)
    assert page.evaluate("(n) => analysisView.data.rows.some((r) => r.n === n)", dot["n"])
    page.touchscreen.tap(dot["x"], dot["y"])
    if page.is_visible("#chart-pick"):  # dots too close for a finger: which one?
        shot(page, "phone-chart-which")
        page.locator(f"#chart-pick button[data-n='{dot['n']}']").first.tap()
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function("() => window.keezbord.reviewing")
    assert page.evaluate("window.keezbord.reviewing.data.n") == dot["n"]
    # The review where the person looks, not above the view nor under the board.
    page.wait_for_function(BELOW_BOARD, arg="#review")
    shot(page, "phone-review")
    # A touch screen has no Esc key: the button is named, the keys' line not shown.
    assert page.inner_text("#review-live") == "Back to live"
    assert page.is_hidden("#review-keys")
    assert "Esc" not in page.inner_text("#review")
    hole = next(f"T{i}" for i in range(64) if shown(page, f"T{i}"))
    page.tap(f".hole[data-hole='{hole}']")  # the board is paused: the line says how out
    page.wait_for_function(
        "() => document.querySelector('#instruction').innerText.includes('Back to live')"
    )
    assert "Esc" not in page.inner_text("#instruction")
    # Back to live: back at the chart, its top below the board.
    page.tap("#review-live")
    page.wait_for_selector("#review", state="hidden")
    page.wait_for_function(BELOW_BOARD, arg="#analysis")
