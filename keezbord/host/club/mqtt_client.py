"""One MQTT client for every keezbord connection to a broker: a club board's
(board_link.py), the tournament's (service.py) and a linked board's (game_link.py).

Each logs in with its own name and password (the broker has no anonymous access), over
TLS when its settings say so: the broker's certificate is checked against ``ca`` (the
authority ``keezbord club broker-config --tls`` made, docs/club.md) or, without one,
the system's authorities (a broker with a public certificate, docs/remote.md), and its
name must be the one connected to. paho reconnects by itself whenever the link drops and
keeps every message sent meanwhile (``max_queued_messages_set(0)``: no limit).

No message from the broker may end a client's network thread (a handler that raised
used to: paho re-raises, and the client went deaf while it still said "connected"):
every handler's error is caught and said in one line (``Said``, at most one line every
few seconds), and a ``Keeper`` starts the thread again if it ends all the same (and
says so); paho then reconnects if the connection died meanwhile.
"""

from __future__ import annotations

import ssl
import threading
import time
from pathlib import Path
from typing import Any, Final, Protocol

SAY_EVERY_S: Final = 10.0  # a flood of bad messages: one line this often at most


class Login(Protocol):
    """What a connection needs of its settings (ClubSettings, LinkSettings, the
    tournament's BrokerSettings)."""

    @property
    def password(self) -> str: ...

    @property
    def tls(self) -> bool: ...

    @property
    def ca(self) -> str | None: ...


class TlsSetupError(ValueError):
    """A CA file that cannot be used (one line, said before anything starts)."""


class Said:
    """One line for what a client's handler could not take (a message that raised),
    at most every ``every_s`` seconds, with how many since the last line."""

    def __init__(self, who: str, every_s: float = SAY_EVERY_S) -> None:
        self.who, self.every_s = who, every_s
        self.lock = threading.Lock()
        self.count = 0
        self.unsaid = 0
        self._next = 0.0

    def error(self, what: str) -> None:
        with self.lock:
            self.count += 1
            self.unsaid += 1
            now = time.monotonic()
            if now < self._next:
                return
            self._next = now + self.every_s
            n, self.unsaid = self.unsaid, 0
        more = f" ({n} since the last word)" if n > 1 else ""
        print(f"{self.who}: ignored: {what[:200]}{more}", flush=True)


def new_client(
    client_id: str, user: str, login: Login, *, clean_session: bool, who: str = "keezbord"
) -> Any:
    """A paho client (MQTT 3.1.1) logged in as ``user``, with TLS if ``login.tls``;
    its handlers' errors said as ``who`` (``client.said``), never fatal to its thread."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client: Any = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    client.username_pw_set(user, login.password)
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_queued_messages_set(0)  # keep everything while the broker is away
    client.suppress_exceptions = True  # a handler's error is logged, its thread goes on
    said = Said(who)
    client.said = said

    def on_log(client: Any, userdata: Any, level: int, buf: str) -> None:
        if level == mqtt.MQTT_LOG_ERR and buf.startswith("Caught exception"):
            said.error(buf)  # a handler raised (a lost connection is the Outage's to say)

    client.on_log = on_log
    if login.tls:
        client.tls_set_context(tls_context(login.ca))
    return client


def tls_context(ca: str | None) -> ssl.SSLContext:
    """A client context that checks the broker's certificate and name (TLS 1.2 or
    newer): against ``ca``, else the system's authorities."""
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    if ca is not None:
        path = Path(ca)
        try:
            ctx.load_verify_locations(cafile=str(path))
        except FileNotFoundError:
            raise TlsSetupError(f"ca {path}: no such file") from None
        except (ssl.SSLError, OSError) as e:
            raise TlsSetupError(f"ca {path}: not a certificate file ({e})") from None
    return ctx


def no_answer(tls: bool) -> str:
    """Why a connection failed, as far as paho tells (it does not say which)."""
    if tls:
        return "no MQTT broker answers over TLS (or its certificate is not trusted: check ca)"
    return "no MQTT broker answers"


class Keeper:
    """Watches a client's network thread (paho's ``loop_start``): if it ended while the
    client should run, it is started again (paho reconnects, the handlers say "back")
    and ``who`` says so. ``check`` is one look (tests); ``start`` looks every
    ``every_s`` seconds until ``stop``."""

    def __init__(self, client: Any, who: str, every_s: float = 2.0) -> None:
        self.client, self.who, self.every_s = client, who, every_s
        self.restarts = 0
        self._stopped = threading.Event()

    def start(self) -> None:
        self._stopped = threading.Event()
        threading.Thread(target=self._run, args=(self._stopped,), daemon=True).start()

    def stop(self) -> None:
        self._stopped.set()

    def _run(self, stopped: threading.Event) -> None:
        while not stopped.wait(self.every_s):
            self.check()

    def check(self) -> bool:
        """Start the thread again if it has ended (True then)."""
        if self._stopped.is_set() or getattr(self.client, "_thread", None) is not None:
            return False  # paho clears ``_thread`` when its loop ends (no public word)
        self.restarts += 1
        print(
            f"{self.who}: the MQTT client's thread had ended; started again "
            "(it reconnects if the connection was lost)",
            flush=True,
        )
        self.client.loop_start()
        return True
