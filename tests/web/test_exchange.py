"""Partner exchange by human seats (profile reiseditie) through the websocket."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import answer, hello, until
from web_helpers import TOKENS, options, ws_path

from keezbord.engine.game import Game
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def app(db: Path, seed: int, kinds: list[str]) -> Any:
    opts = options(db, seed=seed, bot_speed=0.05, think_ms=100)
    return create_app(lambda: Hub.open_sim(opts, kinds=kinds, profile="reiseditie", teams="pairs"))


def test_human_seat_chooses_the_card_for_its_partner(tmp_path: Path) -> None:
    seed = 7
    dealt = Game(4, "reiseditie", seed, teams="pairs").hand(0)  # before the exchange
    db = tmp_path / "g.sqlite"
    with (
        TestClient(app(db, seed, ["human", "greedy", "greedy", "greedy"])) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        _, s = hello(ws)
        ex = s["exchange"]
        assert ex == {"seat": 0, "partner": 2, "cards": dealt, "waiting": [0]}
        assert s["players"][2]["cards"] == 5 and s["bot_busy"] is None
        ws.send_json({"type": "card", "card": dealt[0], "id": 1})
        assert answer(ws)["text"]["en"] == "pass a card to your partner first"
        missing = next(x for x in "A23456789JQK" if x not in dealt)
        ws.send_json({"type": "give", "card": missing, "id": 2})
        assert answer(ws)["text"]["en"].startswith("that card cannot be passed")
        give = dealt[-1]
        ws.send_json({"type": "give", "card": give})
        s = until(ws, lambda s: s["exchange"] is None)
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        assert hub.sim is not None
        assert give in hub.sim.hand(2)  # the partner received it
        assert len(hub.sim.hand(0)) == 5 and hub.sim.info.exchanges["0.0"][0] == give
    # A restart remembers the choice: the hands are the same, nothing is asked again.
    with (
        TestClient(app(db, seed + 1, ["human", "greedy", "greedy", "greedy"])) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        _, s = hello(ws)
        assert s["exchange"] is None
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert hub.sim is not None and give in hub.sim.hand(2)


def test_two_human_seats_each_choose(tmp_path: Path) -> None:
    with (
        TestClient(app(tmp_path / "g.sqlite", 3, ["human", "human", "greedy", "greedy"])) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        _, s = hello(ws)
        assert s["exchange"]["waiting"] == [0, 1] and s["exchange"]["seat"] == 0
        ws.send_json({"type": "give", "card": s["exchange"]["cards"][0]})
        s = until(ws, lambda s: s["exchange"] is not None and s["exchange"]["seat"] == 1)
        assert s["hand"]["seat"] == 1 and not s["hand"]["active"]
        ws.send_json({"type": "give", "card": s["exchange"]["cards"][0]})
        s = until(ws, lambda s: s["exchange"] is None)
        assert s["hand"] is not None and len(s["hand"]["cards"]) == 5


def test_the_exported_move_list_hides_exchanged_cards_from_spectators(tmp_path: Path) -> None:
    """The page hides the card a player passed to its partner from spectators; the
    "Export moves" file (no token needed) said it to them all the same."""
    seed = 7
    dealt = Game(4, "reiseditie", seed, teams="pairs").hand(0)
    with (
        TestClient(app(tmp_path / "g.sqlite", seed, ["human", "greedy", "greedy", "greedy"])) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        hello(ws)
        ws.send_json({"type": "give", "card": dealt[-1]})
        until(
            ws, lambda s: s["exchange"] is None and any(e["kind"] == "exchange" for e in s["log"])
        )
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        said = hub.log.cards[next(e["i"] for e in hub.log.entries if e["kind"] == "exchange")]
        told = said["text"]["en"]  # e.g. "red gives yellow a king"
        assert told not in c.get("/api/export/moves").text
        assert "gives yellow a card" in c.get("/api/export/moves").text
        assert told in c.get(f"/api/export/moves?token={TOKENS.player}").text
        assert told in c.get(f"/api/export/moves?token={TOKENS.referee}").text
