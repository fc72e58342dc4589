"""NK actions through the websocket: the table penalty and the time limit."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import answer, hello, play_opening, sim_app, until
from web_helpers import opening_seed, options, ws_path

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def nk_app(db: Path, seed: int) -> Any:
    opts = options(db, seed=seed, bot_speed=0.05, think_ms=100)
    return create_app(lambda: Hub.open_sim(opts, kinds=["human"] * 4, profile="nk"))


def test_penalty_from_the_page_sends_the_pawn_back_and_the_board_follows(tmp_path: Path) -> None:
    seed, card = opening_seed()
    with TestClient(nk_app(tmp_path / "g.sqlite", seed)) as c, c.websocket_connect(ws_path()) as ws:
        _, s = hello(ws)
        assert s["profile"] == "nk" and card in s["hand"]["cards"]
        assert s["clock"]["limit_ms"] == 50 * 60_000 and s["clock"]["running"]
        s = play_opening(ws, card)
        assert {"hole": "T0", "seat": 0} in s["pawns"]
        ws.send_json({"type": "penalty", "seat": 0, "id": 1})
        s = until(ws, lambda s: s["flag"] is not None)
        pen = [d for d in s["decisions"] if d["type"] == "penalty"][-1]
        assert pen["ok"] and pen["pawn"] == "T0" and pen["owner"] == 0
        assert pen["reason"]["nl"].startswith("strafzet")
        assert s["position"]["pawns"][0] == ["N", "N", "N", "N"]
        assert s["leds"]["T0"] == "error"
        assert s["flag"]["guidance"][0]["en"] == "put red's pawn from T0 back in its nest"
        ws.send_json({"type": "fix"})
        s = until(ws, lambda s: s["flag"] is None and "T0" not in {p["hole"] for p in s["pawns"]})
        assert any(d["type"] == "resolved" for d in s["decisions"])
        assert len(s["history"]) == 1 and s["turn"] == 1
        # the simulator's hands follow the referee: seat 1 can still play its hand
        assert s["hand"]["seat"] == 1 and s["hand"]["active"]
        ws.send_json({"type": "time_limit"})
        s = until(ws, lambda s: s["stopped"])
        assert s["turn"] is None and not s["clock"]["running"]
        assert all(x["points"] == 0 for x in s["score"])
        ws.send_json({"type": "penalty", "seat": 1, "id": 2})
        s = until(ws, lambda s: s["decisions"][-1]["type"] == "penalty")
        assert s["decisions"][-1]["ok"] is False


def test_penalty_needs_nk_and_the_token(tmp_path: Path) -> None:
    seed, _ = opening_seed()
    with (
        TestClient(sim_app(tmp_path / "g.sqlite", ["human"] * 4, seed)) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        _, s = hello(ws)
        assert s["clock"]["limit_ms"] is None
        for msg in ({"type": "penalty", "seat": 0}, {"type": "time_limit"}):
            ws.send_json(msg)
            assert answer(ws)["text"]["en"] == "only with the nk profile"
    board = FakeBoard()
    opts = options(tmp_path / "r.sqlite", mode="run")
    setup = {"type": "setup", "seats": 4, "dealer": 3, "profile": "nk"}
    with TestClient(create_app(lambda: Hub.open_run(opts, setup, board))) as c:
        with c.websocket_connect("/ws") as ws:
            hello(ws)
            ws.send_json({"type": "penalty", "seat": 0})
            assert answer(ws)["text"]["en"] == "this needs the referee's link"
        with c.websocket_connect(ws_path()) as ws:
            hello(ws)
            ws.send_json({"type": "penalty", "seat": 9, "id": 3})
            assert answer(ws)["text"]["en"] == "choose a seat"
            ws.send_json({"type": "penalty", "seat": 2})
            s = until(
                ws, lambda s: bool(s["decisions"]) and s["decisions"][-1]["type"] == "penalty"
            )
            assert s["decisions"][-1]["ok"] is False  # nobody has a pawn out yet
