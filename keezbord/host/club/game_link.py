"""A linked board's MQTT client (docs/remote.md): its own login, TLS, a persistent
session (QoS 1: what the other board sends while this one is away waits at the broker),
and its presence (``status``, retained, with the broker's last will saying "offline"
when the connection dies without a goodbye).

Messages arrive on paho's network thread and are handed on as they come
(``on_message(leaf, msg)``); ``on_connection(up)`` says when the link comes and goes;
``on_tick`` runs every ``resend_s`` seconds while connected (what the other board has
not acknowledged is sent again). linked_board.py hands all of it to the hub's loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from keezbord.host.club_settings import LinkSettings, check_board_name

from . import link_protocol as lp
from .mqtt_client import Keeper, new_client, no_answer
from .protocol import Outage, not_read


class GameLink:
    def __init__(
        self,
        settings: LinkSettings,
        on_message: Callable[[str, dict[str, Any]], None],
        on_connection: Callable[[bool], None],
        on_tick: Callable[[], None],
    ) -> None:
        self.settings = settings
        self.me, self.peer = check_board_name(settings.board), check_board_name(settings.peer)
        self.on_message, self.on_connection, self.on_tick = on_message, on_connection, on_tick
        self.connected = threading.Event()
        self.refused: str | None = None
        who = f"keezbord: link {self.me}"
        self.client = new_client(
            f"keezbord-link-{self.me}", self.me, settings, clean_session=False, who=who
        )
        self.keeper = Keeper(self.client, who)
        self.client.will_set(
            lp.topic(self.me, self.peer, "status"), lp.encode({"online": False}), lp.QOS, True
        )
        self.outage = Outage(who, settings.broker, settings.port)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = lambda *a: self.outage.lost(no_answer(settings.tls))
        self.client.on_message = self._on_message
        self._stopped = threading.Event()

    def start(self) -> None:
        self._stopped = threading.Event()
        self.client.connect_async(self.settings.broker, self.settings.port, self.settings.keepalive)
        self.client.loop_start()
        self.keeper.start()
        threading.Thread(target=self._ticker, args=(self._stopped,), daemon=True).start()

    def stop(self) -> None:
        """A goodbye: "offline" said (no will is sent for a clean disconnect)."""
        self._stopped.set()
        self.keeper.stop()
        self.client.on_disconnect = None
        if self.connected.is_set():
            info = self.client.publish(
                lp.topic(self.me, self.peer, "status"), lp.encode({"online": False}), lp.QOS, True
            )
            info.wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()
        self.connected.clear()

    def publish(self, leaf: str, msg: dict[str, Any], retain: bool = False) -> None:
        """QoS 1; kept by paho while the broker is away (and by the board's store)."""
        self.client.publish(lp.topic(self.me, self.peer, leaf), lp.encode(msg), lp.QOS, retain)

    def _ticker(self, stopped: threading.Event) -> None:
        while not stopped.wait(self.settings.resend_s):
            if self.connected.is_set():
                self.on_tick()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            self.refused = str(rc)
            self.outage.lost(
                f"the MQTT broker refused the login ({rc}: check [link] board, password)"
            )
            return
        self.refused = None
        self.outage.back()
        client.subscribe(lp.topic(self.peer, self.me, "#"), qos=lp.QOS)
        self.publish("status", {"online": True}, retain=True)
        self.connected.set()
        self.on_connection(True)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        self.connected.clear()
        self.outage.lost("the connection to the MQTT broker was lost")
        self.on_connection(False)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        where = lp.split(message.topic)
        if where is None or where[:2] != (self.peer, self.me):
            return
        msg = lp.decode(message.payload, lp.MAX_PAYLOAD)
        if msg is None:
            self.client.said.error(f"{message.topic}: {not_read(message.payload, lp.MAX_PAYLOAD)}")
            return
        self.on_message(where[2], msg)
