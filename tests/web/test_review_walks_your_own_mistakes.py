"""The review's "next mistake" walks the reviewer's own mistakes (issue 40's leftover):
in real headless Chromium on a finished simulator game whose analysis the journal
holds, a player's page (its hand's seat: ``mySeat``) starts at its own seat's labelled
moves; a choice beside the button gives a seat, a team, or everyone (the walk as it
was), in Dutch and English."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from test_game_review_explains import analysed as analysed  # (the module's fixture)
from test_game_review_explains import labelled
from web_helpers import link, options

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def walk(page: Any, rows: list[dict[str, Any]]) -> None:
    """From no review: "next mistake", then the review's own button, through ``rows``."""
    page.click("#analysis-next-mistake")
    for k, row in enumerate(rows):
        if k:
            page.click("#review-next-mistake")
        page.wait_for_selector(
            f"#moves li.reviewed[data-n='{row['n']}'][data-move='{row['move']}']"
        )
        facts = page.inner_text("#review-facts")
        assert "Verdict: " in facts


def test_next_mistake_walks_the_reviewers_own_moves_or_whose_they_choose(
    serve: Serve, page: Any, analysed: Path, tmp_path: Path
) -> None:
    db = tmp_path / "g.sqlite"
    shutil.copy(analysed, db)
    srv = serve(lambda: Hub.open_sim(options(db, analysis_playouts=2)))
    page.goto(link(srv, "player", lang="en"))
    page.wait_for_selector("#analysis-summary li.player")
    data: Any = page.evaluate("analysisView.data")
    me = page.evaluate("mySeat(app.state)")
    assert me in data["people"]
    rows = labelled(data)
    mine = [r for r in rows if r["seat"] == me]
    # The game has mistakes of the others between this seat's: the walks differ.
    assert mine and len(mine) < len(rows) and mine != rows[: len(mine)]

    # By default this page's own seat's, said beside the button.
    walk(page, mine)
    assert page.input_value("#mistake-whose") == f"seat:{me}"
    assert page.inner_text("#mistake-whose-label") == "Mistakes of"
    assert "(you)" in page.locator("#mistake-whose option:checked").inner_text()

    # Everyone's, as the walk was: every labelled move in turn.
    page.click("#review-live")
    page.select_option("#mistake-whose", "all")
    walk(page, rows)

    # The team's: this seat's and its partner's.
    team = next(i for i, tm in enumerate(data["teams"]) if me in tm)
    page.click("#review-live")
    page.select_option("#mistake-whose", f"team:{team}")
    walk(page, [r for r in rows if r["seat"] in data["teams"][team]])

    # In Dutch.
    page.click("#lang")
    page.wait_for_function(
        "() => document.querySelector('#mistake-whose-label').textContent === 'Fouten van'"
    )
    names = [o.inner_text() for o in page.locator("#mistake-whose option").all()]
    assert names[-1] == "iedereen" and any(n.startswith("team ") for n in names)
    assert page.input_value("#mistake-whose") == f"team:{team}"  # the choice stays
