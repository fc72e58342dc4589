"""Issue 27 in real headless Chromium: a finished simulator game shows its win-chance chart
with the labelled decisions as dots, the move list marked and the luck and skill summary;
a dot opens that move's review with the better move lit and its reason; a person's
mistake is tried again there (the same hand, the new move judged)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from finished import finished_sim_game
from web_helpers import link, options

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_the_chart_labels_and_trying_a_mistake_again(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "g.sqlite"
    finished_sim_game(db)
    srv = serve(lambda: Hub.open_sim(options(db, analysis_playouts=5)))
    page.goto(link(srv, "player", lang="en"))
    page.wait_for_selector("#analysis:not([hidden])")
    # It fills in while the host analyses; then the progress goes and the summary comes.
    page.wait_for_selector("#analysis-summary li.player", timeout=600_000)
    assert page.is_hidden("#analysis-progress")
    data = page.evaluate("analysisView.data")
    decisions = [r for r in data["rows"] if r["type"] == "decision"]
    labelled = [r for r in decisions if r["label"]]
    assert page.locator("#analysis-chart polyline.team").count() == 2
    assert page.locator("#analysis-chart .dot").count() == len(labelled) > 0
    for label in {r["label"] for r in labelled}:
        assert page.locator(f"#analysis-chart .dot.{label}").count() == sum(
            1 for r in labelled if r["label"] == label
        )
    # The move list carries the marks: ?! ? ??.
    marks = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    first = labelled[0]
    li = page.locator(f"#moves li.move[data-n='{first['n']}'][data-move='{first['move']}']")
    assert li.get_attribute("data-label") == first["label"]
    assert li.locator(".mark").inner_text().strip() == marks[first["label"]]
    summary = page.inner_text("#analysis-summary")
    assert "accuracy" in summary and "Its own moves" in summary and "The cards" in summary
    shot(page, "analysis-chart")

    # A person's worst decision: its dot opens the review before the move, the better
    # move lit ("hint") with the reason in words.
    row = max((r for r in labelled if r["seat"] in (0, 2)), key=lambda r: r["loss"])
    # (Keyboard: a long game's dots overlap; every dot is a tab stop, Enter opens it.)
    page.focus(f"#analysis-chart .dot[data-n='{row['n']}'][data-move='{row['move']}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden]) #review-facts li[data-fact='label']")
    facts = page.inner_text("#review-facts")
    assert f"Better move: {row['best']['words']['en']}" in facts
    assert f"Why: {row['why']['en']}" in facts
    for hole in row["best_holes"]:
        assert page.get_attribute(f".hole[data-hole='{hole}']", "data-led") in ("hint", "source")
    assert any(
        page.get_attribute(f".hole[data-hole='{h}']", "data-led") == "hint"
        for h in row["best_holes"]
    )
    shot(page, "analysis-review")

    # Try again: the hand, a card, its moves in words; the better move is the best.
    page.click("#retry-start")
    page.wait_for_selector("#retry:not([hidden]) .retry-cards")
    shown = [b.get_attribute("data-card") for b in page.locator("#retry .card").all()]
    assert shown == row["hand"]
    card = row["best"]["move"].split()[0]
    page.click(f"#retry .card[data-card='{card}']")
    _retry_move(page, row["best"]["move"])
    page.wait_for_selector("#retry-verdict[data-outcome='best']", timeout=60_000)
    assert page.inner_text("#retry-verdict").startswith("The best move")
    shot(page, "analysis-retry-best")
    # The move played again: still a mistake (or, judged anew, good enough).
    page.click(f"#retry .card[data-card='{row['card']}']")
    _retry_move(page, row["move"])
    page.wait_for_selector("#retry-verdict", timeout=60_000)
    outcome = page.get_attribute("#retry-verdict", "data-outcome")
    assert outcome in ("mistake", "good")
    if outcome == "mistake":
        assert "Still a mistake" in page.inner_text("#retry-verdict")
    page.click("#retry-back")
    page.wait_for_selector("#retry", state="hidden")
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")


def _retry_move(page: Any, move: str) -> None:
    """Click the retry's button for ``move``: the list has one button per resulting
    board, so a 7's parts may come in another order than the analysis wrote them."""
    page.wait_for_selector("#retry .retry-moves button")
    want = sorted(move.split())
    for b in page.locator("#retry .retry-moves button").all():
        if sorted((b.get_attribute("data-move") or "").split()) == want:
            b.click()
            return
    raise AssertionError(f"no button of the retry for {move}")


def test_a_spectator_sees_the_chart_but_cannot_try_again(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "g.sqlite"
    finished_sim_game(db, seed=6)
    srv = serve(lambda: Hub.open_sim(options(db, analysis_playouts=3)))
    page.goto(link(srv, "spectator", lang="nl"))
    page.wait_for_selector("#analysis-summary li.player", timeout=600_000)
    summary = page.inner_text("#analysis-summary")
    assert "nauwkeurigheid" in summary
    assert not re.search(r"nauwkeurigheid \d+\.\d", summary), summary  # 87,1%, not 87.1%
    page.click("#lang")  # to English, and the panel with it
    page.wait_for_function(
        "() => document.querySelector('#analysis-summary').innerText.includes('accuracy')"
    )
    assert not re.search(r"accuracy \d+,\d", page.inner_text("#analysis-summary"))
    page.locator("#analysis-chart .dot.blunder, #analysis-chart .dot").last.click()
    page.wait_for_selector("#review:not([hidden]) #review-facts li[data-fact='label']")
    assert page.locator("#retry-start").count() == 0
