"""The tournament's side of the link: what the scoreboard is given of a board's events,
and what the service says when the broker is away."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from keezbord.host.club.service import BrokerSettings, Tournament
from keezbord.host.club.store import Store


def test_a_boards_event_reaches_the_scoreboard_only_as_what_it_may_say(tmp_path: Path) -> None:
    """A board's login lets it write anything under its own topic; the scoreboard (drawn
    as HTML on the projector) gets only a known kind, the match, and whole numbers."""
    store = Store(tmp_path / "club.sqlite")
    t = Tournament(store)
    try:
        evil = "<img src=x onerror=alert(1)>"
        t.on_event("tafel-1", {"kind": evil, "board": "tafel-1", "match": "m", "moves": 3})
        assert "tafel-1" not in t.live
        t.on_event(
            "tafel-1",
            {"kind": "progress", "board": "tafel-1", "match": "m", "moves": evil,
             "pawns": [1, evil], "extra": evil},
        )  # fmt: skip
        live = t.live["tafel-1"]
        assert (live["kind"], live["match"], live["moves"], live["pawns"]) == (
            "progress", "m", None, None,
        )  # fmt: skip
        assert evil not in repr(live)
        t.on_event(
            "tafel-1", {"kind": "progress", "board": "tafel-1", "match": "m", "moves": 12,
                        "pawns": [3, 2]},
        )  # fmt: skip
        assert (t.live["tafel-1"]["moves"], t.live["tafel-1"]["pawns"]) == (12, [3, 2])
    finally:
        store.close()


def test_the_service_says_when_the_broker_is_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`keezbord club serve` with the broker down (or refusing its login) said nothing:
    the secretary paired rounds that no board heard. One line now, then paho retries."""
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = Store(tmp_path / "club.sqlite")
    t = Tournament(store, BrokerSettings("127.0.0.1", port, "pw"))
    t.start()
    try:
        deadline = time.monotonic() + 15
        out = ""
        while "no MQTT broker answers" not in out and time.monotonic() < deadline:
            time.sleep(0.2)
            out += capsys.readouterr().out
        assert f"keezbord club: no MQTT broker answers at 127.0.0.1:{port}; trying again" in out
        time.sleep(2.5)  # paho tried again meanwhile: still one line
        out += capsys.readouterr().out
        assert out.count("no MQTT broker") == 1
    finally:
        t.stop()
        store.close()
