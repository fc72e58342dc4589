"""The scoreboard in headless Chromium: a board's result, reported over MQTT, shows up
on the projector page (no timing asserted: the delay is in bench/bench_club.py). The
control page needs the control token."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import uvicorn
from club_helpers import Club, free_port, wait_for

from keezbord.host.club.scoreboard import create_app
from keezbord.host.roles import Tokens

pytestmark = pytest.mark.browser


def serve(c: Club, tokens: Tokens) -> tuple[str, uvicorn.Server, threading.Thread]:
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(c.tournament, tokens), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, 10, "the scoreboard server")
    return f"http://127.0.0.1:{port}", server, thread


def test_scoreboard_shows_a_reported_result(club: Callable[[int, int], Club], page: Any) -> None:
    c = club(2, 1)
    tokens = Tokens.new()
    url, server, thread = serve(c, tokens)
    try:
        t = c.tournament
        no = t.pair_next(5)
        page.goto(url + "/?lang=en")
        page.wait_for_selector("#tables tbody tr")
        assert page.text_content("#tables tbody tr .result") == "waiting"
        assert page.text_content("#clock") == "not started"
        page.click("#lang")
        assert page.text_content("#standings-section h2") == "Stand"
        sim = c.sim("tafel-1", seats=2)
        t.start_clock()
        row = page.wait_for_selector("#tables tbody tr.done", timeout=30_000)
        result = c.store.results()[c.store.matches(no)[0].id]
        assert (
            row.query_selector(".result")
            .text_content()
            .startswith(f"{result.home_points} – {result.away_points}")
        )
        top = page.text_content("#standings tbody tr:first-child")
        assert str(max(result.home_points, result.away_points)) in top
        assert sim.played  # the result came from the simulated board's game
        # The control page and its actions need the control token.
        assert httpx.get(url + "/control").status_code == 403
        assert httpx.get(url + f"/control?token={tokens.player}").status_code == 403
        assert httpx.get(url + f"/control?token={tokens.referee}").status_code == 200
        act = {"action": "add_team", "name": "Laat"}
        assert httpx.post(url + "/api/control", json=act).status_code == 403
        auth = {"Authorization": f"Bearer {tokens.referee}"}  # (a header, not the body)
        r = httpx.post(url + "/api/control", json=act, headers=auth)
        assert r.status_code == 200 and "Laat" in [n for n, _ in c.store.teams().values()]
        page.wait_for_function("document.body.textContent.includes('Laat')", timeout=10_000)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
