"""The hub's policy for seats played away (web/away.py, issue 28): the referee held while
a remote seat has not chosen or a linked board is out of step, and let go after.

The linked board here is a stand-in for club/linked_board.py that answers only whether
it is in step (the real one, over a real Mosquitto: tests/club/test_linked_e2e.py)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from stand_in_peer import StandInPeer as Peer
from test_remote_roles import seed_where
from web_helpers import remote_hub

from keezbord.host.events import HoleEvent, Tick
from keezbord.host.roles import Role
from keezbord.host.web.away import WAIT_OTHER_BOARD
from keezbord.host.web.hub import Hub
from keezbord.host.web.hub_error import HubError


def _decisions(hub: Hub, kind: str) -> list[dict[str, Any]]:
    return [d for d in hub.session.recent if d["type"] == kind]


def test_a_board_out_of_step_refuses_its_tables_moves_until_in_step(tmp_path: Path) -> None:
    hub = remote_hub(tmp_path / "j.sqlite", seed_where(0), remote=(1, 3))()
    peer = Peer()
    hub.away.peer = peer
    hub.away.replan()
    st = hub.session.state
    assert st.seat == 0 and st.hold == WAIT_OTHER_BOARD
    assert hub.away.view()["hold"] == WAIT_OTHER_BOARD.as_dict()  # type: ignore[index]
    # The instruction line says why the table waits (not "tap a card" for seat 0).
    line = hub.page_state()["instruction"]
    assert line["source"] == "remote" and line["tone"] == "wait"
    assert line["text"]["en"] == "Waiting for the other board: move nothing until it is in step"
    with pytest.raises(HubError):
        hub.request({"type": "discard"}, Role.PLAYER)
    assert hub.sim is not None
    hub.request({"type": "card", "card": hub.sim.hand(0)[0]}, Role.PLAYER)
    refused = _decisions(hub, "card_rejected")
    assert refused and refused[-1]["reason"] == WAIT_OTHER_BOARD.as_dict()
    # A pawn moved at the table meanwhile: flagged with the reason, guided back.
    t = hub.now()
    hub.feed(HoleEvent(t + 1, "lift", "N0.1"))
    hub.feed(HoleEvent(t + 400, "place", "T0"))
    hub.feed(Tick(t + 5000))
    flagged = _decisions(hub, "illegal")
    assert flagged and flagged[-1]["reason"] == WAIT_OTHER_BOARD.as_dict()
    assert {"error", "restore"} <= set(hub.session.state.leds.values())
    hub.feed(HoleEvent(t + 5400, "lift", "T0"))
    hub.feed(HoleEvent(t + 5800, "place", "N0.1"))
    hub.feed(Tick(t + 9000))
    assert _decisions(hub, "resolved")
    # In step again: the table plays.
    peer.ok = True
    hub.away.replan()
    assert hub.session.state.hold is None
    assert [d["on"] for d in _decisions(hub, "hold")] == [True, False]
    hub.request({"type": "card", "card": hub.sim.hand(0)[0]}, Role.PLAYER)
    assert hub.session.state.card is not None


def test_a_remote_seat_to_play_holds_the_table_until_its_move_is_lit(tmp_path: Path) -> None:
    from starlette.testclient import TestClient
    from test_protocol import hello
    from web_helpers import REMOTE_TOKENS, ws_path

    from keezbord.host.web.app import create_app

    with TestClient(create_app(remote_hub(tmp_path / "j.sqlite", seed_where(1)))) as client:
        st = client.get("/api/state").json()  # the hold is fed as the hub's loop starts
        assert st["turn"] == 1 and "remotely" in st["remote"]["hold"]["en"]
        assert st["instruction"]["source"] == "remote" and st["instruction"]["tone"] == "wait"
        assert st["instruction"]["text"]["en"].startswith("Blue plays remotely")
        with client.websocket_connect(ws_path(Role.REMOTE, REMOTE_TOKENS, 1)) as ws:
            _, mine = hello(ws)
            card = mine["hand"]["playable"][0]
            ws.send_json({"type": "moves", "card": card, "id": 1})
            reply = ws.receive_json()
            while reply["type"] != "moves":
                reply = ws.receive_json()
            move = reply["moves"][0]["move"]
            ws.send_json({"type": "play", "move": move, "id": 2})
            end = time.monotonic() + 20  # the hub lights it on its own loop
            while time.monotonic() < end:
                st = client.get("/api/state").json()
                if st["remote"]["lit"] is not None:
                    break
                time.sleep(0.02)
        assert st["remote"]["lit"]["move"] == move and st["remote"]["hold"] is None
        assert st["instruction"]["source"] != "remote"  # the table plays the lit move
        assert {"source", "target"} <= set(st["leds"].values())
