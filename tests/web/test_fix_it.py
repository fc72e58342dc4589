"""Issue 25 item 8, fix-it guidance, in real headless Chromium: the labels of the holes a
flag names are drawn above every hole (they were half under the neighbouring holes),
moving an opponent's pawn gets one way out, not the same words twice, and a pawn picked
up again keeps "finish the move" (it disappeared), which then works."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from web_helpers import link, sim_hub_at

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
N = ["N", "N", "N", "N"]

OVERLAPS = """() => {
  // Pairs of drawn labels whose boxes overlap.
  const ls = [...document.querySelectorAll('#board .holelabel')].filter((l) => l.textContent);
  const out = [];
  ls.forEach((l, i) => ls.slice(i + 1).forEach((m) => {
    const a = l.getBoundingClientRect(), b = m.getBoundingClientRect();
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
      out.push(l.textContent + '/' + m.textContent);
  }));
  return out; }"""

COVERED = """() => {
  // Labels with text that a hole drawn after them (in document order) overlaps.
  const holes = [...document.querySelectorAll('#board .hole')];
  const out = [];
  for (const label of document.querySelectorAll('#board .holelabel')) {
    if (!label.textContent) continue;
    const a = label.getBoundingClientRect();
    for (const g of holes) {
      if (!(label.compareDocumentPosition(g) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      const b = g.querySelector('.pit').getBoundingClientRect();
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        out.push(label.textContent + ' under ' + g.dataset.hole);
    }
  }
  return out; }"""


def flagged(page: Any) -> list[str]:
    page.wait_for_selector("#flag:not([hidden])", timeout=10000)
    return list(page.locator("#flag-guidance li").all_inner_texts())


def test_labels_lie_above_the_holes_and_picking_up_keeps_finish_the_move(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Seed 0: red to play with an 8, red's pawn on T2: put one hole too far, on T11.
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 0, [["T2", "N", "N", "N"], N, N, N]))
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='8']")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T11']")
    assert flagged(page) == [
        "put red's pawn from T11 back on T2",
        "or finish the move: put the pawn from T11 on T10",
    ]
    for hole in ("T2", "T10", "T11"):
        assert page.text_content(f".holelabel[data-for='{hole}']") == hole
    assert page.evaluate(COVERED) == []
    assert page.evaluate(OVERLAPS) == []  # T10 and T11 side by side read "T11T10"
    shot(page, "fix-it-labels")
    # Picked up again: both ways out stay, said for a pawn in hand.
    page.click(".hole[data-hole='T11']")
    page.wait_for_selector("#inhand button.held")
    page.wait_for_selector("#flag-guidance li:has-text('in your hand')")
    assert flagged(page) == [
        "put red's pawn (in your hand) back on T2",
        "or finish the move: put it on T10",
    ]
    assert "finish the move: put it on T10" in page.inner_text("#instruction-text")
    page.click(".hole[data-hole='T10']")  # the second way out
    page.wait_for_selector("#moves li[data-move='8 0:T2-T10']", timeout=10000)
    assert page.evaluate("window.keezbord.state.flag") is None


def test_moving_an_opponents_pawn_gets_one_way_out(serve: Serve, page: Any, tmp_path: Path) -> None:
    # Seed 17: red to play holding a jack; red on T2, yellow on T10. Red moves yellow's
    # pawn to T12: putting it back and "finishing" the swap said the same thing.
    pawns = [["T2", "N", "N", "N"], N, ["T10", "N", "N", "N"], N]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 17, pawns))
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='J']")
    page.click(".hole[data-hole='T10']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T12']")
    lines = flagged(page)
    assert lines == ["put yellow's pawn from T12 back on T10"], lines
    page.click("#lang")
    page.wait_for_selector(
        "#flag-guidance li:has-text('zet de pion van geel van T12 terug op T10')"
    )
    assert page.locator("#flag-guidance li").count() == 1
