"""Forwarding headers against a guest (issue 37), on a real server on loopback with the
commands' own settings (web/serving.py): ``X-Forwarded-For`` is trusted only from a
proxy named in ``[remote] trusted_proxies``, so a rotating header no longer escapes the
token rate limit; the players' QR code and ``/api/health`` go only to the Pi itself,
never to a request that names another client (every client of a proxy on the Pi comes
from 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import LiveServer, start_server
from web_helpers import TOKENS, options

from keezbord.host.web.hub import Hub


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    servers: list[LiveServer] = []

    def go(**settings: Any) -> LiveServer:
        opts = options(tmp_path / f"f{len(servers)}.sqlite", bot_speed=0.05)
        s = start_server(lambda: Hub.open_sim(opts, kinds=["human"] * 4), **settings)
        servers.append(s)
        return s

    yield go
    for s in servers:
        s.stop()


def test_a_rotating_forwarded_for_header_does_not_escape_the_limit(
    live: Callable[..., LiveServer],
) -> None:
    srv = live()
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        codes = [
            c.get(
                f"/api/state?token=guess{i}", headers={"X-Forwarded-For": f"198.51.100.{i}"}
            ).status_code
            for i in range(50)
        ]
        assert codes[:10] == [200] * 10  # ten wrong tokens: watching
        assert codes[10:].count(429) >= 35, codes  # then refused (one try per 2 s)


def test_a_trusted_proxy_names_the_client(live: Callable[..., LiveServer]) -> None:
    srv = live(trusted_proxies=["127.0.0.1"])
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        guesser = {"X-Forwarded-For": "198.51.100.7"}
        for i in range(10):
            c.get(f"/api/state?token=guess{i}", headers=guesser)
        assert c.get("/api/state?token=guess10", headers=guesser).json()["role"] == "spectator"
        assert c.get(f"/api/state?token={TOKENS.player}", headers=guesser).status_code == 429
        # The proxy's other clients are not that guesser.
        other = {"X-Forwarded-For": "198.51.100.8"}
        r = c.get(f"/api/state?token={TOKENS.referee}", headers=other)
        assert r.json()["role"] == "referee"


@pytest.mark.parametrize("trusted", [[], ["127.0.0.1"]])
def test_the_players_qr_code_and_health_only_for_the_pi_itself(
    live: Callable[..., LiveServer], trusted: list[str]
) -> None:
    srv = live(trusted_proxies=trusted)
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        kiosk = c.get("/api/qr.svg?role=player")  # the kiosk: loopback, no proxy
        assert kiosk.status_code == 200 and TOKENS.player in kiosk.text
        assert c.get("/api/health").status_code == 200
        for header in (
            {"X-Forwarded-For": "198.51.100.9"},
            {"X-Forwarded-For": "127.0.0.1"},
            {"Forwarded": "for=198.51.100.9"},
            {"X-Real-IP": "198.51.100.9"},
            {"Via": "1.1 caddy"},
        ):
            r = c.get("/api/qr.svg?role=player", headers=header)
            assert r.status_code == 403 and TOKENS.player not in r.text, header
            assert c.get("/api/health", headers=header).status_code == 403, header
        assert c.get("/api/qr.svg?role=spectator", headers={"Via": "x"}).status_code == 200
