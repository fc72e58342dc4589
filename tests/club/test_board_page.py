"""A board's own page at a club evening (``keezbord sim --club``): the hub joins the
tournament through the real broker, starts the round's game when the clock starts,
stops it at the time limit, reports the result, and its page shows the table's pairing
and the time left (static/club.js); without a club, page_state's ``club`` is None."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from club_helpers import Club, free_port, wait_for

from keezbord.host.club.reporter import outcome
from keezbord.host.commands.web import _join_club
from keezbord.host.session import GameSession
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub, HubOptions

pytestmark = pytest.mark.browser


def sim_hub(db: Path) -> Hub:
    opts = HubOptions(mode="sim", db=db, bot_speed=0.02, seed=3)
    return Hub.open_sim(opts, seats=2, profile="nk", kinds=["greedy", "greedy"], resume=False)


def test_page_state_has_no_club_by_default(tmp_path: Path) -> None:
    hub = sim_hub(tmp_path / "b.sqlite")
    try:
        assert hub.page_state()["club"] is None
    finally:
        hub.session.close()


def test_board_page_at_a_club_evening(
    club: Callable[[int, int], Club], page: Any, tmp_path: Path
) -> None:
    c = club(2, 1)
    t = c.tournament
    no = t.pair_next(0.04)  # 2.4 s: the clock stops the bots' game
    db = tmp_path / "board.sqlite"
    made: list[Hub] = []

    def make() -> Hub:
        hub = _join_club(sim_hub(db), c.settings("tafel-1"), db)
        made.append(hub)
        return hub

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(make), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, 10, "the board's server")
        hub = made[0]
        first_game = hub.session.game
        page.goto(f"http://127.0.0.1:{port}/?lang=en")
        page.wait_for_function(
            "document.querySelector('#club .club-teams')?.textContent.includes('Team A')",
            timeout=15_000,
        )
        assert "Table tafel-1" in page.text_content("#club .club-table")
        match = c.store.matches(no)[0].id
        t.start_clock()
        wait_for(lambda: hub.club.reporter.game is not None, 10, "the round's game")
        round_game = hub.club.reporter.game
        assert round_game != first_game  # a new game for the round
        # The referee starts the round's game again: the new one is the table's game.
        hub.call_soon(lambda: hub.new_game({}))
        wait_for(lambda: match in c.store.results(), 60, "the board's result")
        result = c.store.results()[match]
        game = hub.club.outbox.game_of(match)
        assert game == result.game == hub.session.game and game != round_game
        session = GameSession.resume(db, game)
        want = outcome(session.state)
        session.close()
        assert [result.home_points, result.away_points] == want["points"]
        assert (result.moves, result.timed_out) == (want["moves"], want["timed_out"])
        page.wait_for_function(
            "/left|time is up/.test(document.querySelector('#club .club-time')?.textContent)",
            timeout=15_000,
        )
        assert hub.page_state()["club"]["away"]["name"] == "Team B"
    finally:
        if made:
            made[0].club.stop()
        server.should_exit = True
        thread.join(timeout=10)
