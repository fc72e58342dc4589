"""Topics and message shapes between the boards and the tournament (docs/club.md).

A board publishes only under ``keezbord/board/<board>/``:
  ``event``  game started, progress (moves, pawns home), penalty, time-limit stop (QoS 1)
  ``result`` a finished game's result, from the board's outbox until acknowledged (QoS 1)
  ``record`` a game's journal as a trace, when the tournament asks for it (QoS 1)
The tournament publishes only under ``keezbord/table/<board>/``:
  ``pairing`` who plays at this table and the round's clock (QoS 1, retained)
  ``ack``     a result was stored (QoS 1): the board drops it from its outbox
  ``ask``     send the record of a game (QoS 1)
The broker's ACL (broker_config.py) enforces exactly this split.
"""

from __future__ import annotations

import json
from typing import Any, Final

# The logins (a board's name is its login and a topic level), from the values layer:
# a board's configuration checks the name too.
from keezbord.host.club_settings import TOURNAMENT_USER as TOURNAMENT_USER
from keezbord.host.club_settings import check_board_name as check_board_name

PREFIX: Final = "keezbord"
QOS: Final = 1
EVENT_KINDS: Final = frozenset({"started", "progress", "penalty", "time_limit"})


def board_topic(board: str, leaf: str) -> str:
    return f"{PREFIX}/board/{board}/{leaf}"


def table_topic(board: str, leaf: str) -> str:
    return f"{PREFIX}/table/{board}/{leaf}"


def split_topic(topic: str) -> tuple[str, str, str] | None:
    """(``board``|``table``, board name, leaf) of one of our topics, else None."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[1] not in ("board", "table"):
        return None
    return parts[1], parts[2], parts[3]


def encode(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode()


def decode(payload: bytes) -> dict[str, Any] | None:
    """A message as a dict, None if it is not a JSON object (it is then ignored)."""
    try:
        msg = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    return msg if isinstance(msg, dict) else None


def live_event(msg: dict[str, Any]) -> dict[str, Any] | None:
    """What the scoreboard may show of a board's ``event``: its kind (one of
    ``EVENT_KINDS``), match, move count and pawns home per side, each of its type; None
    for anything else. A board's login lets it write its own topic, not what the
    projector's page draws: nothing else of the message goes further."""
    kind, match = msg.get("kind"), msg.get("match")
    if kind not in EVENT_KINDS or not (match is None or isinstance(match, str)):
        return None
    moves, pawns = msg.get("moves"), msg.get("pawns")
    two = isinstance(pawns, list) and len(pawns) == 2 and all(map(_count, pawns))
    return {
        "kind": kind,
        "board": msg.get("board"),
        "match": match,
        "moves": moves if _count(moves) else None,
        "pawns": pawns if two else None,
    }


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1_000_000


class Outage:
    """Says once per outage that the broker cannot be reached (paho keeps trying), and
    once that it is back: a board or the service must not go silently deaf."""

    def __init__(self, who: str, host: str, port: int) -> None:
        self.who, self.where = who, f"{host}:{port}"
        self.down = False

    def lost(self, what: str) -> None:
        if not self.down:
            self.down = True
            print(f"{self.who}: {what} at {self.where}; trying again", flush=True)

    def back(self) -> None:
        if self.down:
            self.down = False
            print(f"{self.who}: connected to the broker at {self.where}", flush=True)
