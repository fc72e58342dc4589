"""A board's ``[club]`` and ``[link]`` settings: its login at an MQTT broker (the club's,
docs/club.md, or the one two linked boards share, docs/remote.md), and the rule for a
board's name, which is that login and a topic level. Values that ``config.py`` reads and
checks, below the club's modules (``club/mqtt_client.py`` connects with them,
``club/protocol.py`` and ``club/link_protocol.py`` build topics from the name).

Both may use TLS (``tls``; ``ca``: the certificate file of the authority that signed the
broker's, else the system's authorities, as for a broker with a public certificate)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qs, unquote, urlsplit

TOURNAMENT_USER: Final = "tournament"
BOARD_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def check_board_name(name: str) -> str:
    """A board's name is its MQTT login and topic level: lower-case letters, digits, '-'."""
    if not BOARD_NAME.match(name) or name == TOURNAMENT_USER:
        raise ValueError(
            f"board name {name!r}: 1 to 32 of a-z, 0-9 and '-' (not {TOURNAMENT_USER!r})"
        )
    return name


@dataclass(frozen=True)
class ClubSettings:
    """A board's ``[club]`` section (keezbord/host/config.py)."""

    board: str
    password: str
    broker: str = "127.0.0.1"
    port: int = 1883
    keepalive: int = 15
    resend_s: float = 30.0  # unacknowledged results are sent again this often
    tls: bool = False  # TLS to the broker (its port then usually 8883)
    ca: str | None = None  # the broker's authority's certificate (None: the system's)

    @property
    def login(self) -> str:
        return self.board


@dataclass(frozen=True)
class LinkSettings:
    """A board's half of a linked game (``[link]`` or ``keezbord run --link URL``): its
    login, the other board's, the broker they share, and whether this board is the
    game's host of record (it deals, starts new games and decides when the two disagree;
    ``seats``: the host's own seats, the other board has the rest)."""

    board: str
    password: str
    peer: str
    broker: str = "127.0.0.1"
    port: int = 8883
    tls: bool = True
    ca: str | None = None
    host: bool = False
    seats: tuple[int, ...] = ()
    keepalive: int = 15
    resend_s: float = 5.0  # what the other board has not acknowledged goes again this often

    @property
    def login(self) -> str:
        return self.board


class LinkUrlError(ValueError):
    """A ``--link`` address that cannot be used (one line)."""


def parse_link_url(url: str, password: str | None = None) -> LinkSettings:
    """``mqtts://BOARD[:PASSWORD]@BROKER[:PORT]/PEER[?host=1&seats=0,2&ca=FILE]``
    (``mqtt://`` without TLS, port 1883 by default; ``mqtts://`` 8883). ``password``:
    when the address has none (``[link] password``, ``$KEEZBORD_LINK_PASSWORD``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise LinkUrlError(f"--link {_safe(url)}: must start with mqtts:// (or mqtt://)")
    try:
        port = parts.port
    except ValueError:
        raise LinkUrlError(f"--link {_safe(url)}: not a port number") from None
    board = unquote(parts.username or "")
    peer = parts.path.strip("/")
    for what, name in (("this board's login (BOARD@)", board), ("the other board (/PEER)", peer)):
        try:
            check_board_name(name)
        except ValueError as e:
            raise LinkUrlError(f"--link {_safe(url)}: {what}: {e}") from None
    if board == peer:
        raise LinkUrlError(f"--link {_safe(url)}: the other board must be another board")
    if not parts.hostname:
        raise LinkUrlError(f"--link {_safe(url)}: no broker (mqtts://BOARD@BROKER/PEER)")
    pw = unquote(parts.password) if parts.password else password
    if not pw:
        raise LinkUrlError(
            f"--link {_safe(url)}: no password (in the address, [link] password "
            "or $KEEZBORD_LINK_PASSWORD)"
        )
    query = parse_qs(parts.query)
    unknown = set(query) - {"host", "seats", "ca"}
    if unknown:
        raise LinkUrlError(f"--link {_safe(url)}: unknown option(s) {', '.join(sorted(unknown))}")
    host = query.get("host", ["0"])[-1] in ("1", "true", "yes")
    try:
        seats = tuple(sorted({int(x) for x in query.get("seats", [""])[-1].split(",") if x}))
    except ValueError:
        raise LinkUrlError(f"--link {_safe(url)}: seats=0,2 (seat numbers)") from None
    tls = parts.scheme == "mqtts"
    return LinkSettings(
        board,
        pw,
        peer,
        parts.hostname,
        port or (8883 if tls else 1883),
        tls,
        query.get("ca", [None])[-1],
        host,
        seats,
    )


def _safe(url: str) -> str:
    """The address without its password (an error message may land in a log)."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return parts._replace(netloc=netloc).geturl()
    return url
