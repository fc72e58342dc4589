"""Issue 13, roles on the page in real headless Chromium: the spectators' link only
watches (no hand, no moves, no controls), the players' link plays but cannot undo, the
referee's link does everything; the role shows as a badge with what it may not do."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, opening_seed, sim_hub

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_spectator_player_and_referee_pages(serve: Serve, browser: Any, tmp_path: Path) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed))
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        watch = ctx.new_page()
        watch.goto(link(srv, "spectator", lang="en"))
        watch.wait_for_selector("#role:has-text('Spectator')")
        state = watch.evaluate("() => window.keezbord.state")
        assert state["role"] == "spectator" and state["hand"] is None
        assert not watch.is_visible("#tray") and watch.is_visible("#watch-note")
        assert watch.is_disabled("#undo") and watch.is_disabled("#newgame button[type=submit]")
        assert "players' link" in watch.inner_text("#token-note")
        # A click on a pawn is not sent: the page says why, the board does not change.
        watch.click(".hole[data-hole='N0.1']")
        watch.wait_for_selector("#log li.err:has-text('Watching only')")
        assert srv.hub.pawns.held == []
        # The state endpoint without a token leaves the hand out too.
        with urllib.request.urlopen(srv.url + "/api/state") as r:
            assert json.load(r)["hand"] is None

        play = ctx.new_page()
        play.goto(link(srv, "player", lang="en"))
        play.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
        play.wait_for_selector("#role:has-text('Player')")
        assert play.is_disabled("#undo") and play.is_disabled("#overrule")
        assert "referee's link" in play.inner_text("#token-note")
        play.click(f".card[data-card='{card}']")
        play.wait_for_selector("#played:not(:empty)")
        play.click(".hole[data-hole='N0.1']")
        play.wait_for_selector("#inhand button.held")
        play.click(".hole[data-hole='T0']")
        play.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")
        # The spectator sees the move (not the hand).
        watch.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")

        ref = ctx.new_page()
        ref.goto(link(srv, "referee", lang="en"))
        ref.wait_for_selector("#role:has-text('Referee')")
        assert not ref.is_disabled("#undo") and not ref.is_visible("#token-note")
        ref.click("#undo")
        ref.click("#takeback-yes")
        watch.wait_for_function("() => window.keezbord.state.history.length === 0")
    finally:
        ctx.close()
