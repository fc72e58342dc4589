"""The club's control endpoint against a hostile guest (issue 37): the token comes in a
header and is checked before a byte of the body is read (a 300 MB body without it is
refused at once, unread), a body is bounded, nested or broken JSON is a one-line 400,
never a 500 or a traceback. A real server on loopback, no broker."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from club_helpers import free_port, wait_for

from keezbord.host.club.scoreboard import MAX_BODY, create_app
from keezbord.host.club.service import Tournament
from keezbord.host.club.store import Store
from keezbord.host.roles import Tokens

TOKENS = Tokens("referee-token-0123456789ab", "player-token-0123456789abc")


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    store = Store(tmp_path / "club.sqlite")
    port = free_port()
    app = create_app(Tournament(store), TOKENS)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, 10, "the scoreboard server")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        store.close()


def _head_only(url: str, headers: str) -> str:
    """Send a POST's head announcing 300 MB and no body; the status line back."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(
            b"POST /api/control HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + headers.encode()
            + b"Content-Length: 300000000\r\n\r\n"
        )
        return s.recv(4096).decode("latin-1").split("\r\n", 1)[0]


def test_the_token_is_checked_before_the_body_is_read(url: str) -> None:
    # Without a token (or with the players'), the answer comes before any body is sent.
    assert " 403 " in _head_only(url, "")
    assert " 403 " in _head_only(url, f"Authorization: Bearer {TOKENS.player}\r\n")
    # With the token, a body announced over the bound is refused unread too.
    assert " 413 " in _head_only(url, f"Authorization: Bearer {TOKENS.referee}\r\n")


def test_the_token_in_the_body_no_longer_counts_and_the_header_does(url: str) -> None:
    act = {"action": "add_team", "name": "Laat", "players": ["a"]}
    r = httpx.post(url + "/api/control", json={**act, "token": TOKENS.referee})
    assert r.status_code == 403 and r.json()["error"]["en"] == "control token needed"
    auth = {"Authorization": f"Bearer {TOKENS.referee}"}
    r = httpx.post(url + "/api/control", json=act, headers=auth)
    assert r.status_code == 200 and r.json()["ok"] is True


def test_bad_bodies_are_one_line_refusals(url: str, capfd: pytest.CaptureFixture[str]) -> None:
    auth = {"Authorization": f"Bearer {TOKENS.referee}", "Content-Type": "application/json"}
    nested = "[" * 100_000 + "]" * 100_000
    # Without the token: 403 whatever the body (it was a 500 for nested JSON).
    assert httpx.post(url + "/api/control", content=nested).status_code == 403
    for body in (nested, '{"action": ' * 40 + "1" + "}" * 40, "not json", "[1]", "\xff"):
        r = httpx.post(url + "/api/control", content=body.encode("utf-8", "replace"), headers=auth)
        assert r.status_code in (400, 413), (body[:20], r.status_code)
    r = httpx.post(url + "/api/control", content=b"x" * (MAX_BODY + 1), headers=auth)
    assert r.status_code == 413
    r = httpx.post(
        url + "/api/control", json={"action": "add_team", "name": {"a": [1]}, "players": 5},
        headers=auth,
    )  # fmt: skip
    assert r.status_code == 400
    out = capfd.readouterr()
    assert "Traceback" not in out.out + out.err and "Exception" not in out.out + out.err
