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
import re
from typing import Any, Final

# The logins (a board's name is its login and a topic level), from the values layer:
# a board's configuration checks the name too.
from keezbord.host.club_settings import TOURNAMENT_USER as TOURNAMENT_USER
from keezbord.host.club_settings import check_board_name as check_board_name

PREFIX: Final = "keezbord"
QOS: Final = 1
EVENT_KINDS: Final = frozenset({"started", "progress", "penalty", "time_limit"})
# What a client reads of one message, checked before it is parsed (docs/club.md,
# "Limits"): a board's record of a whole 8-seat game is about 250 KB; the broker's own
# bound (broker_config.py, max_packet_size) is above these.
MAX_PAYLOAD: Final = 1024 * 1024
MAX_DEPTH: Final = 32  # our messages nest 4 deep at most


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


def decode(payload: bytes, limit: int = MAX_PAYLOAD) -> dict[str, Any] | None:
    """A message as a dict, None if it is not a JSON object (it is then ignored), or is
    longer than ``limit`` bytes or nested deeper than ``MAX_DEPTH``: both are checked
    before it is parsed (a deeply nested payload would otherwise end the parser, and the
    MQTT client's thread with it, in a RecursionError)."""
    if len(payload) > limit or too_deep(payload):
        return None
    try:
        msg = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return msg if isinstance(msg, dict) else None


# A JSON string (to its closing quote, or to the end if it has none): possessive, and
# a lone backslash at the end taken too, so that one pass is linear whatever the bytes.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.DOTALL)
_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def too_deep(payload: bytes, depth: int = MAX_DEPTH) -> bool:
    """Whether ``payload``'s arrays and objects nest deeper than ``depth`` (brackets in
    strings aside; unbalanced ones count as too deep), found without parsing it: the
    innermost pairs are taken away ``depth`` times, each a pass in C."""
    if payload.count(b"[") + payload.count(b"{") <= depth:
        return False  # most messages: too few brackets to nest that deep
    rest = _STRING.sub(b"", payload).translate(_SQUARE, _NOT_BRACKETS)
    for _ in range(depth):
        if not rest:
            return False
        rest = rest.replace(b"[]", b"")
    return bool(rest)


def not_read(payload: bytes, limit: int = MAX_PAYLOAD) -> str:
    """Why ``decode`` gave None, for a client's one line."""
    return (
        f"{len(payload)} bytes, not a JSON object of at most {limit} bytes nested "
        f"{MAX_DEPTH} deep at most"
    )


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
