"""One MQTT client for every keezbord connection to a broker: a club board's
(board_link.py), the tournament's (service.py) and a linked board's (game_link.py).

Each logs in with its own name and password (the broker has no anonymous access), over
TLS when its settings say so: the broker's certificate is checked against ``ca`` (the
authority ``keezbord club broker-config --tls`` made, docs/club.md) or, without one,
the system's authorities (a broker with a public certificate, docs/remote.md), and its
name must be the one connected to. paho reconnects by itself whenever the link drops and
keeps every message sent meanwhile (``max_queued_messages_set(0)``: no limit).
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any, Protocol


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


def new_client(client_id: str, user: str, login: Login, *, clean_session: bool) -> Any:
    """A paho client (MQTT 3.1.1) logged in as ``user``, with TLS if ``login.tls``."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    client.username_pw_set(user, login.password)
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_queued_messages_set(0)  # keep everything while the broker is away
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
