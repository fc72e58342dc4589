"""A hostile page's messages (issue 37): every bad message gets a one-line refusal in
both languages, the socket stays up (but for a message over its role's size), and the
server logs no traceback; the club's control endpoint likewise."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from test_protocol import hello, sim_app
from web_helpers import opening_seed, ws_path

from keezbord.host.roles import Role
from keezbord.host.web.inbox import MAX_MESSAGE, BugLog, Refused, message_of

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BAD = [
    '{"type": ["x"]}',
    '{"type": {"a": 1}}',
    '{"type": 5}',
    '{"type": null}',
    "{}",
    '{"type": "\\ud800"}',
    '{"type": "lift", "hole": "\\udfff"}',
    '{"type": "x", "\\ud800": 1}',
    "[1, 2]",
    "null",
    "not json",
    "[" * 200 + "]" * 200,
    '{"type": "lift", "hole": ["T0"]}',
    '{"type": "card", "card": {"K": 1}}',
    '{"type": "undo", "n": "3"}',
]


def _next_error(ws: Any) -> dict[str, Any]:
    for _ in range(50):
        m: dict[str, Any] = ws.receive_json()
        if m.get("type") == "error":
            return m
    raise AssertionError("no error came")


@pytest.mark.parametrize("role", [Role.SPECTATOR, Role.PLAYER, Role.REFEREE])
def test_every_bad_message_is_refused_in_one_line_without_a_traceback(
    tmp_path: Path, role: Role, capfd: pytest.CaptureFixture[str]
) -> None:
    seed, _ = opening_seed()
    with (
        TestClient(sim_app(tmp_path / "b.sqlite", ["human"] * 4, seed)) as c,
        c.websocket_connect(ws_path(role)) as ws,
    ):
        hello(ws)
        for i, text in enumerate(BAD):
            ws.send_text(text)
            err = _next_error(ws)
            assert set(err["text"]) == {"nl", "en"}, (text, err)
            assert err["text"]["nl"] != err["text"]["en"]
            assert "internal" not in err["text"]["en"], (text, err)
            assert "\n" not in err["text"]["en"]
            ws.send_json({"type": "nothing-known", "id": i})  # still connected
            assert _next_error(ws)["id"] == i
        ws.send_bytes(b'{"type": "lift"}')
        assert _next_error(ws)["text"]["en"] == "unreadable message"
    out = capfd.readouterr()
    assert "Traceback" not in out.out + out.err
    assert "Exception" not in out.out + out.err


def test_a_message_over_the_roles_size_closes_the_socket(tmp_path: Path) -> None:
    seed, _ = opening_seed()
    with TestClient(sim_app(tmp_path / "b.sqlite", ["human"] * 4, seed)) as c:
        with c.websocket_connect(ws_path(Role.SPECTATOR)) as ws:
            hello(ws)
            ws.send_text('{"type": "x", "pad": "' + "a" * MAX_MESSAGE[Role.SPECTATOR] + '"}')
            assert _next_error(ws)["text"]["en"] == "message too big"
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()
            assert closed.value.code == 1009
        # The referee's link may send more (a position, an overrule's reason).
        with c.websocket_connect(ws_path(Role.REFEREE)) as ws:
            hello(ws)
            ws.send_json({"type": "nothing-known", "pad": "a" * 2000, "id": 1})
            assert "unknown" in _next_error(ws)["text"]["en"]


def test_the_checks_themselves() -> None:
    assert message_of('{"type": "lift", "hole": "T0"}', Role.PLAYER)["hole"] == "T0"
    for text in BAD[:11]:
        with pytest.raises(Refused):
            message_of(text, Role.REFEREE)
    lines: list[str] = []
    now = [0.0]
    log = BugLog(every_s=60, clock=lambda: now[0], out=lines.append)
    for _ in range(5):
        try:
            raise TypeError("boom")
        except TypeError as e:
            log("lift", e)
    now[0] = 61
    try:
        raise TypeError("boom")
    except TypeError as e:
        log("lift", e)
    assert len(lines) == 2 and "\n" not in lines[0] and "test_bad_messages.py" in lines[0]
    assert "(4 more since)" in lines[1]


def test_the_server_refuses_a_big_frame_before_reading_it(tmp_path: Path) -> None:
    # uvicorn's default took messages up to 16 MiB from anyone: 20 of 15 MB from a
    # spectator took the board's memory from 95 to 650 MB. The server's frame limit
    # (web/serving.py) closes the socket on the frame's header.
    from conftest import start_server
    from web_helpers import options
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from keezbord.host.web.hub import Hub
    from keezbord.host.web.inbox import SOCKET_MAX

    opts = options(tmp_path / "w.sqlite")
    srv = start_server(lambda: Hub.open_sim(opts, kinds=["human"] * 4))
    try:
        with connect(srv.url.replace("http", "ws") + "/ws", max_size=None) as ws:
            assert '"hello"' in str(ws.recv(timeout=10))
            ws.send("x" * (SOCKET_MAX + 1))
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(50):
                    ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert "exceeds limit" in closed.value.rcvd.reason
    finally:
        srv.stop()
