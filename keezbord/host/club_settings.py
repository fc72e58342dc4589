"""A board's ``[club]`` settings: its login at the club's MQTT broker, and the rule for a
board's name, which is that login and a topic level (docs/club.md). Values that
``config.py`` reads and checks, below the club's modules (``club/board_link.py`` connects
with them, ``club/protocol.py`` builds topics from the name)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

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
