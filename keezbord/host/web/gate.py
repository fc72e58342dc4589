"""Who is at the door: a request's token read into its access, with the rate limit on
wrong tokens (roles.py ``Attempts``), and whether a request comes from the Pi itself
(issue 37, docs/remote.md "Safe to put on the internet").

The client's address is the connection's own, unless the server was told to trust a
reverse proxy (``[remote] trusted_proxies``, web/serving.py): only then does uvicorn take
the address from that proxy's ``X-Forwarded-For``. A request that carries a forwarding
header the server does not trust is never "the Pi itself": behind a proxy every
connection comes from 127.0.0.1, so the players' QR code (appliance/qr.py) and
``/api/health`` go only to a loopback client whose request names no other client.
"""

from __future__ import annotations

import ipaddress
from typing import Final

from starlette.requests import HTTPConnection

from keezbord.host.roles import Access, Attempts, Role, tried

from .hub import Hub

TOO_MANY: Final = {
    "nl": "te veel verkeerde links geprobeerd: probeer het over een paar seconden opnieuw",
    "en": "too many wrong links tried: try again in a few seconds",
}
REVOKED: Final = {
    "nl": "deze link is ingetrokken: vraag de scheidsrechter om de nieuwe",
    "en": "this link was revoked: ask the referee for the new one",
}
# Headers a reverse proxy adds to say whom it forwards (RFC 7239 and the customary ones).
FORWARDING: Final = ("forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-host", "via")


class Gate:
    def __init__(self, attempts: Attempts | None = None) -> None:
        # Failed token attempts per client address (the proxy's X-Forwarded-For only
        # when that proxy is trusted: docs/remote.md).
        self.tries = Attempts() if attempts is None else attempts

    def access(self, hub: Hub, conn: HTTPConnection) -> Access | None:
        """What the request's token gives; None: refused, its client's limit is tripped
        and its turn to be checked has not come (a request without a token only watches
        and is never refused)."""
        token = conn.query_params.get("token")
        client = conn.client.host if conn.client else "?"
        if tried(token) and not self.tries.may_check(client):
            return None
        got = hub.access(token)
        if tried(token) and got.role is Role.SPECTATOR and hub.opts.tokens is not None:
            self.tries.failed(client, token or "")
        return got


def from_this_machine(conn: HTTPConnection) -> bool:
    """Whether the request comes from the Pi itself: a loopback client naming no other
    (no forwarding header: a proxy on this machine that the server does not trust)."""
    host = conn.client.host if conn.client else None
    if any(h in conn.headers for h in FORWARDING):
        return False
    return loopback(host)


def loopback(host: str | None) -> bool:
    try:
        ip = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)
