"""Many spectators (issue 37): a state is encoded once per change for all the sockets of
an audience (500 spectators each had it filtered and encoded: the referee's
acknowledgement went from a few ms to most of a second; the figures are
bench/bench_guests.py's), and spectators are capped with a clear "full" answer while the
referee and the players still get in."""

from __future__ import annotations

import contextlib
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from test_protocol import hello, play_opening, until
from web_helpers import opening_seed, options, ws_path

from keezbord.host.roles import Role
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _app(db: Path, seed: int, **kw: Any) -> Any:
    opts = options(db, seed=seed)
    return create_app(lambda: Hub.open_sim(opts, kinds=["human"] * 4), **kw)


def test_a_change_is_encoded_once_for_all_spectators(tmp_path: Path) -> None:
    seed, card = opening_seed()
    with TestClient(_app(tmp_path / "m.sqlite", seed)) as c, contextlib.ExitStack() as stack:
        watchers = [
            stack.enter_context(c.websocket_connect("/ws?history=delta")) for _ in range(12)
        ]
        for ws in watchers:
            hello(ws)
        shared = c.app.state.broadcast  # type: ignore[attr-defined]
        ref = stack.enter_context(c.websocket_connect(ws_path(Role.REFEREE) + "&history=delta"))
        hello(ref)
        before = shared.encoded
        s = play_opening(ref, card)  # a handful of changes
        changes = s["version"]
        for ws in watchers:  # every spectator sees the move, without a hand
            got = until(ws, lambda m: bool(m["history"]) or m.get("history_from", 0) > 0)
            assert got["role"] == "spectator" and got["hand"] is None
        made = shared.encoded - before
        # One text per change for the referee and at most one for the spectators (12
        # sockets): never one per socket.
        assert made <= 2 * changes + 2, (made, changes)
        assert made < 12 * changes / 2


def test_spectators_are_capped_with_a_clear_answer(tmp_path: Path) -> None:
    seed, _ = opening_seed()
    with TestClient(_app(tmp_path / "c.sqlite", seed, max_spectators=3)) as c:
        with contextlib.ExitStack() as stack:
            inside = [stack.enter_context(c.websocket_connect("/ws")) for _ in range(3)]
            for ws in inside:
                hello(ws)
            with c.websocket_connect("/ws") as ws:
                full = ws.receive_json()
                assert full["type"] == "full"
                assert "spectators" in full["text"]["en"] and "kijkers" in full["text"]["nl"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 1013
            for role in (Role.REFEREE, Role.PLAYER):  # the table is never shut out
                with c.websocket_connect(ws_path(role)) as ws:
                    h, _ = hello(ws)
                    assert h["role"] == role.value
            inside[0].close()
        with c.websocket_connect("/ws") as ws:  # one left: there is room again
            h, _ = hello(ws)
            assert h["role"] == "spectator"
