"""The players' link cannot end a game in progress (issue 37): a set-up, a lesson, a
puzzle or a retry on the board begins a new game, so over a game in progress it needs
the referee's link where one is in use (a real board, a club evening) and, in the
simulator, a confirmation on the page naming what is lost."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import hello, play_opening, sim_app, until
from test_run_mode import FakeGpio, nests, run_app
from web_helpers import opening_seed, ws_path

from keezbord.host.puzzles import shipped
from keezbord.host.roles import NEW_GAME_ACTIONS, Ending, Role, may_end_game
from keezbord.host.web import ending

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ASKS: list[dict[str, Any]] = [
    {"type": "set_up", "position": "NNNT5/NNNS/NNNN/NNNN 0 standard"},
    {"type": "lesson", "lesson": "out", "step": 1},
    {"type": "puzzle", "puzzle": shipped()[0].id},
    {"type": "retry_board", "n": 1},
]


def _error(ws: Any) -> dict[str, Any]:
    """The answer to the request just sent (with an id): an error, never an ack."""
    for _ in range(400):
        m: dict[str, Any] = ws.receive_json()
        assert m.get("type") != "ack", "done: no refusal came"
        if m.get("type") == "error":
            return m
    raise AssertionError("no answer came")


def test_who_may_end_a_game_is_the_roles_tables() -> None:
    assert {a["type"] for a in ASKS} == NEW_GAME_ACTIONS
    for busy in (False, True):
        for referee_link in (False, True):
            assert may_end_game(Role.REFEREE, in_progress=busy, referee_link=referee_link) is (
                Ending.FREE
            )
            got = may_end_game(Role.PLAYER, in_progress=busy, referee_link=referee_link)
            want = Ending.FREE if not busy else Ending.REFEREE if referee_link else Ending.CONFIRM
            assert got is want
            for role in (Role.SPECTATOR, Role.REMOTE):
                assert may_end_game(role, in_progress=busy, referee_link=referee_link) is (
                    Ending.REFEREE
                )


def test_on_a_real_board_only_the_referee_ends_a_game_in_progress(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    with TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c:
        with c.websocket_connect(ws_path(Role.PLAYER)) as ws:
            hello(ws)
            gpio.set("N0.1", False)  # red brings a pawn out: game 1 is in progress
            gpio.set("T0", True)
            until(ws, lambda s: bool(s["history"]), 2000)
            for ask in ASKS:
                ws.send_json({**ask, "id": 1})
                err = _error(ws)
                assert "referee's link" in err["text"]["en"], (ask, err)
                assert "game 1" in err["text"]["en"] and "1 moves" in err["text"]["en"]
                assert "scheidsrechter" in err["text"]["nl"] and "confirm" not in err
                ws.send_json({**ask, "id": 2, "confirm": 1})  # no page can confirm it away
                assert "referee's link" in _error(ws)["text"]["en"]
            assert c.get("/api/state").json()["game"] == 1
        with c.websocket_connect(ws_path(Role.REFEREE)) as ws:
            hello(ws)
            ws.send_json({**ASKS[1], "id": 3})  # the referee's word: a lesson's step
            s = until(ws, lambda m: m["game"] == 2)
        with c.websocket_connect(ws_path(Role.PLAYER)) as ws:
            hello(ws)
            ws.send_json({**ASKS[0], "id": 4})  # a lesson is no game in progress
            until(ws, lambda m: m["game"] == 3)
    assert s["lesson"] is not None


def test_a_club_match_game_is_in_progress_before_its_first_move(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())

    class Match:  # what ending.py asks of a BoardClub (host/club/board_club.py)
        def view(self) -> dict[str, Any]:
            return {"playing": True}

    with TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert not ending.in_progress(hub)
        hub.club = Match()
        assert ending.in_progress(hub)
        with c.websocket_connect(ws_path(Role.PLAYER)) as ws:
            hello(ws)
            ws.send_json({**ASKS[0], "id": 1})
            assert "referee's link" in _error(ws)["text"]["en"]
        assert c.get("/api/state").json()["game"] == 1
        hub.club = None


def test_in_the_simulator_the_page_confirms_what_is_lost(tmp_path: Path) -> None:
    seed, card = opening_seed()
    with (
        TestClient(sim_app(tmp_path / "s.sqlite", ["human"] * 4, seed)) as c,
        c.websocket_connect(ws_path(Role.PLAYER)) as ws,
    ):
        hello(ws)
        play_opening(ws, card)  # red brings a pawn out: game 1 is in progress
        for ask in ASKS[:3]:
            ws.send_json({**ask, "id": 2})
            confirm = _error(ws)["confirm"]
            assert confirm["game"] == 1
            assert "game 1, still in progress (1 moves played)" in confirm["text"]["en"]
            assert "spel 1, nog bezig (1 zetten gespeeld)" in confirm["text"]["nl"]
            ws.send_json({**ask, "id": 3, "confirm": 7})  # another game's confirmation
            assert _error(ws)["confirm"]["game"] == 1
        assert c.get("/api/state").json()["game"] == 1
        ws.send_json({**ASKS[2], "id": 4, "confirm": 1})  # confirmed: the puzzle begins
        s = until(ws, lambda m: m["game"] == 2)
        assert s["puzzle"] is not None
        ws.send_json({**ASKS[0], "id": 5})  # a puzzle is no game in progress
        until(ws, lambda m: m["game"] == 3)
