"""Issue 40, item 19: a player who has just played the last card of the deal was tagged
"sits out this round" in the player panels; it is simply out of cards until the next
deal: "no cards left this round" ("geen kaarten meer deze ronde"). Bots play a whole
deal in headless Chromium until a seat has no cards."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, sim_hub_at

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
N = ["N", "N", "N", "N"]


@pytest.mark.parametrize(
    ("lang", "words", "old"),
    [("nl", "geen kaarten meer deze ronde", "past"), ("en", "no cards left this round", "sits")],
)
def test_a_seat_out_of_cards_is_said_to_have_none_left(
    serve: Serve, page: Any, tmp_path: Path, lang: str, words: str, old: str
) -> None:
    srv = serve(sim_hub_at(tmp_path / "o.sqlite", 1, [N] * 4, ["greedy"] * 4))
    page.goto(link(srv, "spectator", lang=lang))
    page.wait_for_function(
        "() => (window.keezbord.state?.table?.sitting_out || []).length > 0", timeout=120_000
    )
    seat = page.evaluate("window.keezbord.state.table.sitting_out[0]")
    tag = page.locator(f"#players li[data-seat='{seat}'] .tag.out")
    tag.wait_for()
    assert tag.inner_text() == words
    assert old not in page.inner_text("#players").lower()  # ("past deze ronde", "sits out")
