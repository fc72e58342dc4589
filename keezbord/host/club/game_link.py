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

from collections.abc import Callable
from typing import Any

from keezbord.host.club_settings import LinkSettings, check_board_name

from . import link_protocol as lp
from .broker_link import BrokerLink
from .protocol import not_read


class GameLink(BrokerLink):
    def __init__(
        self,
        settings: LinkSettings,
        on_message: Callable[[str, dict[str, Any]], None],
        on_connection: Callable[[bool], None],
        on_tick: Callable[[], None],
    ) -> None:
        self.me, self.peer = check_board_name(settings.board), check_board_name(settings.peer)
        self.on_message, self.on_connection, self.on_tick = on_message, on_connection, on_tick
        super().__init__(settings, f"keezbord-link-{self.me}", self.me, "link")
        self.settings: LinkSettings = settings
        self.client.will_set(
            lp.topic(self.me, self.peer, "status"), lp.encode({"online": False}), lp.QOS, True
        )

    def _goodbye(self) -> None:
        """Say "offline" (no will is sent for a clean disconnect)."""
        if self.connected.is_set():
            info = self.client.publish(
                lp.topic(self.me, self.peer, "status"), lp.encode({"online": False}), lp.QOS, True
            )
            info.wait_for_publish(2)

    def publish(self, leaf: str, msg: dict[str, Any], retain: bool = False) -> None:
        """QoS 1; kept by paho while the broker is away (and by the board's store)."""
        self.client.publish(lp.topic(self.me, self.peer, leaf), lp.encode(msg), lp.QOS, retain)

    def _tick(self) -> None:
        self.on_tick()

    def _up(self, client: Any) -> None:
        client.subscribe(lp.topic(self.peer, self.me, "#"), qos=lp.QOS)
        self.publish("status", {"online": True}, retain=True)

    def _connection(self, up: bool) -> None:
        self.on_connection(up)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        where = lp.split(message.topic)
        if where is None or where[:2] != (self.peer, self.me):
            return
        msg = lp.decode(message.payload, lp.MAX_PAYLOAD)
        if msg is None:
            self.client.said.error(f"{message.topic}: {not_read(message.payload, lp.MAX_PAYLOAD)}")
            return
        self.on_message(where[2], msg)
