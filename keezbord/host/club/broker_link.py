"""What a board's own connection to the broker does, whatever it carries (the club's
results, board_link.py; a linked game, game_link.py): a persistent session logged in as
the board, connected in the background and kept running (``Keeper``: paho reconnects by
itself), each outage and the broker's refusal said once (``Outage``, ``refused``), and a
periodic ``_tick`` every ``resend_s`` seconds while connected.

A link says what is its own in ``_up`` (subscribe, send what waits: on every
(re)connect), ``_tick``, ``_connection`` (the page's banner), ``_goodbye`` (before a
clean disconnect) and ``_on_message``.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from .mqtt_client import Keeper, Login, new_client, no_answer
from .protocol import Outage


class LinkLogin(Login, Protocol):
    """What a board's link needs of its settings (ClubSettings, LinkSettings)."""

    @property
    def broker(self) -> str: ...

    @property
    def port(self) -> int: ...

    @property
    def keepalive(self) -> int: ...

    @property
    def resend_s(self) -> float: ...


class BrokerLink:
    def __init__(self, settings: LinkLogin, client_id: str, user: str, section: str) -> None:
        """``section``: the settings' section the refusal's message points at."""
        self.settings = settings
        self.section = section
        self.connected = threading.Event()
        self.refused: str | None = None  # the broker's reason when it refuses the login
        who = f"keezbord: {section} {user}"
        self.client = new_client(client_id, user, settings, clean_session=False, who=who)
        self.keeper = Keeper(self.client, who)
        self.outage = Outage(who, settings.broker, settings.port)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = lambda *a: self.outage.lost(no_answer(settings.tls))
        self.client.on_message = self._on_message
        self._stopped = threading.Event()

    # -- what a link makes its own ------------------------------------------------------

    def _up(self, client: Any) -> None:
        """Connected (again): subscribe, send what waits."""

    def _tick(self) -> None:
        """Every ``resend_s`` seconds while connected."""

    def _connection(self, up: bool) -> None:
        """The link came or went."""

    def _goodbye(self) -> None:
        """Before a clean disconnect (no will is sent for one)."""

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        """A message on paho's network thread."""

    # -- running -----------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background; paho reconnects by itself whenever the link drops."""
        self._stopped = threading.Event()
        self.client.connect_async(self.settings.broker, self.settings.port, self.settings.keepalive)
        self.client.loop_start()
        self.keeper.start()
        threading.Thread(target=self._ticker, args=(self._stopped,), daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()
        self.keeper.stop()
        self.client.on_disconnect = None  # a stop is no outage to report
        self._goodbye()
        self.client.disconnect()
        self.client.loop_stop()
        self.connected.clear()

    def _ticker(self, stopped: threading.Event) -> None:
        while not stopped.wait(self.settings.resend_s):
            if self.connected.is_set():
                self._tick()

    # -- paho callbacks (its network thread) ----------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            self.refused = str(rc)
            self.outage.lost(
                f"the MQTT broker refused the login ({rc}: check [{self.section}] board, password)"
            )
            return
        self.refused = None
        self.outage.back()
        self._up(client)
        self.connected.set()
        self._connection(True)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        self.connected.clear()
        self.outage.lost("the connection to the MQTT broker was lost")
        self._connection(False)
