"""No message from the broker ends a client's thread (docs/club.md, "Limits"): a payload
nested thousands deep (Python's JSON parser ends in a RecursionError) or longer than a
client reads is dropped with one line, and the client goes on: the tournament's
scoreboard, a club board's link, a linked board's link, each on a real Mosquitto as
``broker-config`` writes it. A client whose network thread ended all the same has it
started again and says so."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from club_helpers import Club, wait_for
from link_helpers import link_broker

from keezbord.host.club import link_protocol as lp
from keezbord.host.club import protocol as p
from keezbord.host.club.board_link import BoardLink, Outbox
from keezbord.host.club.broker_config import tournament_password
from keezbord.host.club.game_link import GameLink
from keezbord.host.club.mqtt_client import Login, new_client
from keezbord.host.club.service import BrokerSettings

NESTED = b"[" * 100_000 + b"]" * 100_000  # 200 KB: under every size bound, far too deep
CLUB_MAX, LINK_MAX = 1024 * 1024, 64 * 1024  # protocol's and link_protocol's MAX_PAYLOAD


def _sender(client_id: str, user: str, login: Login, host: str, port: int) -> Any:
    """A raw client with a board's (or the tournament's) own login: what a guest who
    learnt it could send."""
    c = new_client(client_id, user, login, clean_session=True)
    c.connect(host, port)
    c.loop_start()
    return c


def _send(c: Any, topic: str, payload: bytes) -> None:
    c.publish(topic, payload, qos=1).wait_for_publish(10)


def test_the_scoreboard_survives_a_deeply_nested_and_an_oversized_event(
    club: Any, capfd: pytest.CaptureFixture[str]
) -> None:
    c: Club = club(2, 1)
    board = "tafel-1"
    s = c.settings(board)
    shown: list[object] = []  # every move count the scoreboard was told of
    c.tournament.listeners.append(lambda v: shown.append(c.tournament.live[board]["moves"]))
    liar = _sender("liar", board, s, s.broker, s.port)
    try:
        topic = p.board_topic(board, "event")
        _send(liar, topic, NESTED)
        big = {"kind": "progress", "board": board, "moves": 7, "pad": "x" * CLUB_MAX}
        _send(liar, topic, p.encode(big))
        _send(liar, topic, p.encode({"kind": "progress", "board": board, "moves": 8}))
        wait_for(lambda: shown == [8], 15, "the good event alone on the scoreboard")
    finally:
        liar.loop_stop()
        liar.disconnect()
    assert c.tournament.received[topic] == 3
    assert p.MAX_PAYLOAD == CLUB_MAX
    out = capfd.readouterr().out
    assert "keezbord club: ignored: keezbord/board/tafel-1/event: 200000 bytes" in out
    assert "RecursionError" not in out


def test_a_club_board_survives_a_deeply_nested_pairing(club: Any, tmp_path: Path) -> None:
    c: Club = club(2, 1)
    board = "tafel-1"
    pairings: list[dict[str, Any]] = []
    outbox = Outbox(tmp_path / "outbox.sqlite")
    link = BoardLink(c.settings(board), outbox, pairings.append, lambda game: None)
    t = c.tournament.broker
    assert isinstance(t, BrokerSettings)
    sender = _sender("t2", p.TOURNAMENT_USER, t, t.host, t.port)
    link.start()
    try:
        wait_for(link.connected.is_set, 15, "the board's connection")
        _send(sender, p.table_topic(board, "pairing"), NESTED)
        _send(sender, p.table_topic(board, "pairing"), p.encode({"round": 1}))
        wait_for(lambda: pairings == [{"round": 1}], 15, "the pairing after the nested one")
        assert link.connected.is_set()
    finally:
        link.stop()
        outbox.close()
        sender.loop_stop()
        sender.disconnect()
    assert tournament_password(c.store) == t.password


class Ear:
    """A linked board's link and what it heard."""

    def __init__(self, settings: Any) -> None:
        self.heard: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.link = GameLink(settings, self._msg, lambda up: None, lambda: None)

    def _msg(self, leaf: str, msg: dict[str, Any]) -> None:
        with self.lock:
            self.heard.append((leaf, msg))

    def seqs(self) -> list[object]:
        with self.lock:
            return [m.get("seq") for leaf, m in self.heard if leaf == "log"]


def test_a_linked_board_survives_a_deeply_nested_and_an_oversized_entry(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    broker, s = link_broker(tmp_path)
    thuis = Ear(s["thuis"])
    oma = s["oma"]
    liar = _sender("liar", "oma", oma, oma.broker, oma.port)
    thuis.link.start()
    try:
        wait_for(thuis.link.connected.is_set, 15, "thuis's connection")
        topic = lp.topic("oma", "thuis", "log")
        _send(liar, topic, NESTED)
        big = {"game": "g", "seq": 1, "by": "oma", "action": {"kind": "undo"}}
        _send(liar, topic, lp.encode({**big, "pad": "x" * LINK_MAX}))
        _send(liar, topic, lp.encode({**big, "seq": 2}))
        wait_for(lambda: thuis.seqs() == [2], 15, "the entry after the bad ones")
        assert thuis.link.connected.is_set()
    finally:
        thuis.link.stop()
        liar.loop_stop()
        liar.disconnect()
        broker.stop()
    assert lp.MAX_PAYLOAD == LINK_MAX
    out = capfd.readouterr().out
    assert "keezbord: link thuis: ignored: keezbord/link/oma/thuis/log: 200000 bytes" in out


def test_a_link_whose_thread_ended_starts_it_again_and_says_so(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    broker, s = link_broker(tmp_path)
    thuis = Ear(s["thuis"])
    oma = s["oma"]
    sender = _sender("oma-2", "oma", oma, oma.broker, oma.port)
    thuis.link.start()
    try:
        wait_for(thuis.link.connected.is_set, 15, "thuis's connection")
        thuis.link.client.loop_stop()  # its network thread ends (as a handler's error did)
        wait_for(lambda: thuis.link.keeper.restarts == 1, 15, "the keeper's restart")
        entry = {"game": "g", "seq": 3, "by": "oma", "action": {"kind": "undo"}}
        _send(sender, lp.topic("oma", "thuis", "log"), lp.encode(entry))
        wait_for(lambda: thuis.seqs() == [3], 15, "an entry after the restart")
    finally:
        thuis.link.stop()
        sender.loop_stop()
        sender.disconnect()
        broker.stop()
    assert "keezbord: link thuis: the MQTT client's thread had ended; started again" in (
        capfd.readouterr().out
    )


def test_a_handler_that_raises_is_said_and_the_board_reads_on(
    club: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    c: Club = club(2, 1)
    board = "tafel-1"
    pairings: list[dict[str, Any]] = []

    def on_pairing(msg: dict[str, Any]) -> None:
        if msg.get("round") == 1:
            raise ValueError("a pairing this board cannot show")
        pairings.append(msg)

    outbox = Outbox(tmp_path / "outbox.sqlite")
    link = BoardLink(c.settings(board), outbox, on_pairing, lambda game: None)
    t = c.tournament.broker
    assert isinstance(t, BrokerSettings)
    sender = _sender("t3", p.TOURNAMENT_USER, t, t.host, t.port)
    link.start()
    try:
        wait_for(link.connected.is_set, 15, "the board's connection")
        for n in (1, 2):
            _send(sender, p.table_topic(board, "pairing"), p.encode({"round": n}))
        wait_for(lambda: pairings == [{"round": 2}], 15, "the pairing after the one that raised")
    finally:
        link.stop()
        outbox.close()
        sender.loop_stop()
        sender.disconnect()
    out = capfd.readouterr().out
    assert "keezbord: club tafel-1: ignored: Caught exception in on_message" in out
    assert "a pairing this board cannot show" in out
