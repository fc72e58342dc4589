"""Issue 28: the broker of two linked boards as ``keezbord link broker-config`` writes it,
on a real Mosquitto with TLS: each board logs in with its own password over TLS, writes
only its own topics (a message under the other's is dropped by the broker), reads what
is sent to it; the broker's last will says when a board vanished."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from club_helpers import wait_for
from link_helpers import link_broker

from keezbord.host.club import link_protocol as lp
from keezbord.host.club.game_link import GameLink
from keezbord.host.club.mqtt_client import new_client


class Ear:
    """A board's link and what it heard."""

    def __init__(self, settings: Any) -> None:
        self.heard: list[tuple[str, dict[str, Any]]] = []
        self.ups: list[bool] = []
        self.lock = threading.Lock()
        self.link = GameLink(settings, self._msg, self.ups.append, lambda: None)

    def _msg(self, leaf: str, msg: dict[str, Any]) -> None:
        with self.lock:
            self.heard.append((leaf, msg))

    def got(self, leaf: str) -> list[dict[str, Any]]:
        with self.lock:
            return [m for lf, m in self.heard if lf == leaf]


def test_two_boards_talk_over_tls_each_writing_only_its_own_topics(tmp_path: Path) -> None:
    broker, s = link_broker(tmp_path)
    assert s["oma"].host and s["oma"].seats == (0, 2) and not s["thuis"].host
    assert s["oma"].tls and s["oma"].ca is not None and s["oma"].peer == "thuis"
    acl = broker.files.acl.read_text()
    assert "pattern write keezbord/link/%u/#" in acl and "pattern read keezbord/link/+/%u/#" in acl
    oma, thuis = Ear(s["oma"]), Ear(s["thuis"])
    try:
        oma.link.start()
        thuis.link.start()
        wait_for(lambda: oma.link.connected.is_set() and thuis.link.connected.is_set(), 15)
        wait_for(lambda: any(m.get("online") for m in oma.got("status")), 10, "thuis online")
        oma.link.publish("log", {"game": "g", "seq": 1, "by": "oma", "action": {"kind": "undo"}})
        wait_for(lambda: thuis.got("log"), 10, "the entry at thuis")
        assert thuis.got("log")[0]["seq"] == 1
        # oma pretending to be thuis, under thuis's topic: the broker drops it.
        liar = new_client("liar", "oma", s["oma"], clean_session=True)
        liar.connect(s["oma"].broker, s["oma"].port)
        liar.loop_start()
        fake = lp.encode({"game": "g", "seq": 9, "by": "thuis", "action": {"kind": "undo"}})
        liar.publish(lp.topic("thuis", "oma", "log"), fake, qos=1).wait_for_publish(5)
        liar.publish(lp.topic("oma", "thuis", "log"), b'{"seq": 2}', qos=1).wait_for_publish(5)
        wait_for(lambda: len(thuis.got("log")) == 2, 10, "the liar's own-topic message")
        time.sleep(0.5)
        assert oma.got("log") == []  # nothing under thuis's name reached oma
        liar.loop_stop()
        liar.disconnect()
        # thuis vanishes without a goodbye (its socket cut): the broker's will says so.
        thuis.link.client.socket().close()
        wait_for(lambda: any(m.get("online") is False for m in oma.got("status")), 60, "the will")
    finally:
        oma.link.stop()
        thuis.link.stop()
        broker.stop()
    logins = json.loads((broker.files.conf.parent / "logins.json").read_text())
    assert len(logins["oma"]) >= 24 and logins["oma"] != logins["thuis"]
