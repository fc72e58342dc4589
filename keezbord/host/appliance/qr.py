"""The QR code of a link to the page, as SVG (``/api/qr.svg``; segno, in the ``web``
extra). The page shows the spectators' link (read-only: the plain address, no token)
to everyone; the players' link only to the Pi's own screen (a request from the Pi
itself: the kiosk), so a phone that scans the corner of the page can only watch."""

from __future__ import annotations

import io
from ipaddress import ip_address
from urllib.parse import urlsplit, urlunsplit


def qr_svg(text: str) -> str:
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=4, light="white", xmldecl=False, title=text
    )
    return out.getvalue().decode("utf-8")


def is_local(client: str | None) -> bool:
    """Whether a request comes from this machine (the Pi's own screen)."""
    if client is None:
        return False
    try:
        return ip_address(client).is_loopback
    except ValueError:
        return client == "localhost"


def spectator_url(page_url: str, public_host: str | None) -> str:
    """The plain address others should open: the page's own address, except that a page
    opened on the Pi itself (127.0.0.1) names the board as the network knows it."""
    parts = urlsplit(page_url)
    host = parts.hostname or ""
    if public_host and (host == "localhost" or (_is_ip(host) and ip_address(host).is_loopback)):
        netloc = public_host if parts.port is None else f"{public_host}:{parts.port}"
        parts = parts._replace(netloc=netloc)
    return urlunsplit((parts.scheme, parts.netloc, "/", "", ""))


def _is_ip(host: str) -> bool:
    try:
        ip_address(host)
    except ValueError:
        return False
    return True


def link_for(
    role: str,
    page_url: str,
    client: str | None,
    public_host: str | None,
    player_token: str | None,
) -> str | None:
    """The link a QR code may show to this request, or None (refused): the spectators'
    to anyone, the players' only to the Pi itself and only when the board has one."""
    url = spectator_url(page_url, public_host)
    if role == "spectator":
        return url
    if role == "player" and player_token and is_local(client):
        return f"{url}?token={player_token}"
    return None
