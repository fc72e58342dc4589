"""Issue 26 part 1 from the page: a player (or the referee) asks for a position to be
set up on a real board (a fake GPIO chain behind mock pins, fake pixels); the page shows
one instruction at a time, the strip lights its holes, the game begins from the target.
A player only while no game is in progress (tests/web/test_game_in_progress.py)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import hello, until
from test_run_mode import FakeGpio, nests, run_app, wait_for
from web_helpers import sim_hub_at, ws_path

from keezbord.host.drivers.leds import DEFAULT_STYLES
from keezbord.host.roles import Role
from keezbord.host.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TARGET = "NNNT5/NNNS/NNNN/NNNN 0 standard"


@pytest.mark.parametrize("role", [Role.PLAYER, Role.REFEREE])
def test_a_position_asked_on_the_page_is_set_up_on_the_board_then_played(
    tmp_path: Path, role: Role
) -> None:
    gpio = FakeGpio(nests())
    with (
        TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path(role)) as ws,
    ):
        _, s = hello(ws)
        assert s["setup"] is None
        ws.send_json({"type": "set_up", "position": TARGET})
        s = until(ws, lambda s: s["setup"] is not None)
        su = s["setup"]
        assert su["kind"] == "move" and su["target"] == TARGET and su["left"] == 2
        assert su["text"]["en"] == "Put a red pawn from red's nest on T5"
        assert su["text"]["nl"] == "Zet een rode pion uit het nest van rood op T5"
        assert s["leds"]["T5"] == "target" and s["leds"]["N0.1"] == "source"
        # The instruction line says it (not the game's "move a pawn": it begins later).
        ins = s["instruction"]
        assert ins["source"] == "setup" and ins["text"] == su["text"] and ins["tone"] == "do"
        assert ins["seat"] == 0 and ins["holes"] == su["holes"] and "T5" in ins["holes"]
        tr, tg, tb = DEFAULT_STYLES["target"].colour
        wait_for(lambda: gpio.pixel("T5") == (tr // 2, tg // 2, tb // 2))  # on the strip
        gpio.set("N0.1", False)
        gpio.set("T5", True)
        s = until(ws, lambda s: s["setup"] is not None and s["setup"]["seat"] == 1)
        assert s["setup"]["text"]["en"] == "Put a blue pawn from blue's nest on T16"
        assert "T5" not in s["leds"] and s["leds"]["T16"] == "target"  # one at a time
        assert s["instruction"]["text"] == s["setup"]["text"]
        gpio.set("N1.1", False)
        gpio.set("T16", True)
        s = until(ws, lambda s: s["setup"] is None)
        assert s["position"]["pawns"][0] == ["N", "N", "N", "T5"] and s["turn"] == 0
        assert {"hole": "T5", "seat": 0} in s["pawns"]
        assert s["instruction"]["source"] == "game" and s["instruction"]["seat"] == 0
        lines = c.get("/api/export/trace").text.splitlines()
        assert '"arrange": "NNNN/NNNN/NNNN/NNNN 0 standard"' in lines[0]  # believed: known


def test_spectators_and_bad_positions_are_refused(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    with TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c:
        with c.websocket_connect(ws_path(Role.SPECTATOR)) as ws:
            hello(ws)
            ws.send_json({"type": "set_up", "position": TARGET, "id": 1})
            reply = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
            assert "link" in reply["text"]["en"]
        with c.websocket_connect(ws_path(Role.PLAYER)) as ws:
            hello(ws)
            for bad, words in [
                ("NNNN 0 standard", "position"),
                ("NNNN/NNNN 0 standard", "another board"),
                (None, "position"),
            ]:
                ws.send_json({"type": "set_up", "position": bad, "id": 2})
                reply = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
                assert words in reply["text"]["en"], reply
                assert reply["text"]["nl"] != reply["text"]["en"]
            s = c.get("/api/state").json()
            assert s["setup"] is None and s["game"] == 1  # nothing started


@pytest.mark.parametrize("role", [Role.PLAYER, Role.REFEREE])
def test_the_simulator_shows_a_position_set_up_at_once_and_deals_from_it(
    tmp_path: Path, role: Role
) -> None:
    # The page is the board: the simulated board shows the position at once (no set-up
    # mode), the instruction line says so, the table deals the hands, and the game plays
    # on from the position.
    kinds = ["human", "greedy", "greedy", "greedy"]
    make = sim_hub_at(tmp_path / "s.sqlite", 1, [["N"] * 4] * 4, kinds)
    target = "NNNT5/NNNS/NNNN/NNNN 1 standard"  # blue to play: a bot
    with TestClient(create_app(make)) as c, c.websocket_connect(ws_path(role)) as ws:
        hello(ws)
        ws.send_json({"type": "set_up", "position": target, "id": 3})
        s = until(ws, lambda m: m["game"] == 2)
        assert s["setup"] is None and s["turn"] == 1
        at = {p["hole"]: p["seat"] for p in s["pawns"] if not p["hole"].startswith("N")}
        assert at == {"T5": 0, "T16": 1}
        assert s["instruction"]["source"] == "setup"
        assert "at once" in s["instruction"]["text"]["en"]
        assert "meteen" in s["instruction"]["text"]["nl"]
        assert len(s["hand"]["cards"]) == 5  # red's hand, dealt from the new seed
        # The bot on turn plays from the position; the note gives way to the game.
        s = until(ws, lambda m: any(d["type"] == "move" for d in m["decisions"]), 400)
        assert s["decisions"][0]["type"] == "turn"
        setup = c.get("/api/export/trace").text.splitlines()[0]
        assert '"position": "NNNT5/NNNS/NNNN/NNNN 1 standard"' in setup
        s = until(ws, lambda m: m["instruction"]["source"] != "setup", 400)
        # Another board's shape is fine in the simulator: it becomes that board.
        three = {"type": "set_up", "position": "NNNS/NNNN/NNNN 0 standard", "id": 4}
        if role is Role.PLAYER:  # a bot has moved: game 2 is in progress, the page confirms
            ws.send_json(three)
            reply = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
            assert reply["confirm"]["game"] == 2 and "game 2" in reply["confirm"]["text"]["en"]
            three["confirm"] = 2
        ws.send_json(three)
        s = until(ws, lambda m: m["game"] == 3)
        assert len(s["players"]) == 3 and s["turn"] == 0
        ws.send_json({"type": "set_up", "position": "NNNX/NNNN/NNNN 0 standard", "id": 5})
        reply = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
        assert "not a valid position" in reply["text"]["en"]


def test_a_set_up_is_refused_with_remote_seats(tmp_path: Path) -> None:
    # A remote seat's game is a virtual deal from the start: no position set up in it.
    gpio = FakeGpio(nests())
    with (
        TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path(Role.REFEREE)) as ws,
    ):
        hello(ws)
        ws.send_json({"type": "new_game", "remote": [1], "id": 1})
        until(ws, lambda m: m["game"] == 2)
        ws.send_json({"type": "set_up", "position": TARGET, "id": 2})
        reply = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
        assert "remote seats" in reply["text"]["en"], reply
        assert "op afstand" in reply["text"]["nl"]
        s = c.get("/api/state").json()
        assert s["setup"] is None and s["game"] == 2
