"""The sections of a board's TOML file about other places (config.py reads the rest):
``[club]`` (a club evening's broker, docs/club.md), ``[link]`` (a linked game's broker
and the other board, docs/remote.md) and ``[remote]`` (seats played from a phone far
away, and the page's address from outside)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from keezbord.host.club_settings import ClubSettings, LinkSettings, check_board_name

from .config_table import Section


@dataclass(frozen=True, slots=True)
class RemoteSettings:
    """``[remote]``: the seats given to remote players in a new game (like ``keezbord run
    --remote-seats``) and the page's address as seen from outside (a reverse proxy's
    ``https://...``), which the links are made of."""

    seats: tuple[int, ...] = ()
    public_url: str | None = None
    # The reverse proxies whose X-Forwarded-For names the client (docs/remote.md): none
    # by default, so no header a guest sends can change its address.
    trusted_proxies: tuple[str, ...] = ()


def _login(c: Section, key: str) -> str:
    name = c.get_str(key, "")
    try:
        return check_board_name(name)
    except ValueError as e:
        raise c.error(key, str(e)) from None


def _ca(c: Section, base: Path) -> str | None:
    return str(c.get_path("ca", "", base)) if "ca" in c.data else None


def club_section(top: Section, base: Path = Path()) -> ClubSettings:
    """[club] (docs/club.md): the board's login at the club's MQTT broker."""
    c = top.table(
        "club", ("board", "password", "broker", "port", "keepalive", "resend_s", "tls", "ca")
    )
    board = _login(c, "board")
    tls = c.get_bool("tls", False)
    return ClubSettings(
        board,
        c.get_str("password", ""),
        c.get_str("broker", "127.0.0.1"),
        c.get_int("port", 8883 if tls else 1883, 1, 65535),
        c.get_int("keepalive", 15, 5, 600),
        c.get_float("resend_s", 30.0, 1.0, 3600.0) or 30.0,
        tls,
        _ca(c, base),
    )


def link_section(top: Section, base: Path = Path()) -> LinkSettings:
    """[link] (docs/remote.md): this board's half of a linked game."""
    c = top.table(
        "link",
        (
            "board",
            "password",
            "peer",
            "broker",
            "port",
            "tls",
            "ca",
            "host",
            "seats",
            "keepalive",
            "resend_s",
        ),
    )
    board, peer = _login(c, "board"), _login(c, "peer")
    if board == peer:
        raise c.error("peer", "must be the other board's name, not this one's")
    tls = c.get_bool("tls", True)
    password = c.data.get("password", "")  # may come from $KEEZBORD_LINK_PASSWORD instead
    if not isinstance(password, str):
        raise c.error("password", f"must be a string, not {password!r}")
    return LinkSettings(
        board,
        password,
        peer,
        c.get_str("broker", "127.0.0.1"),
        c.get_int("port", 8883 if tls else 1883, 1, 65535),
        tls,
        _ca(c, base),
        c.get_bool("host", False),
        c.get_ints("seats", 0, 7),
        c.get_int("keepalive", 15, 5, 600),
        c.get_float("resend_s", 5.0, 0.5, 3600.0) or 5.0,
    )


def remote_section(top: Section, seats: int) -> RemoteSettings:
    """[remote] (docs/remote.md)."""
    if "remote" not in top.data:
        return RemoteSettings()
    r = top.table("remote", ("seats", "public_url", "trusted_proxies"))
    url = r.get_str("public_url", "-") if "public_url" in r.data else None
    if url is not None and not url.startswith(("https://", "http://")):
        raise r.error("public_url", f"must start with https:// (or http://), not {url!r}")
    chosen = r.get_ints("seats", 0, seats - 1)
    if len(chosen) >= seats:
        raise r.error("seats", "at least one seat plays at the table (its people carry out moves)")
    proxies = r.data.get("trusted_proxies", [])
    if not isinstance(proxies, list) or not all(_address(p) for p in proxies):
        raise r.error("trusted_proxies", 'a list of IP addresses, e.g. ["127.0.0.1"]')
    return RemoteSettings(chosen, url, tuple(proxies))


def _address(text: object) -> bool:
    import ipaddress

    if not isinstance(text, str):
        return False
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
