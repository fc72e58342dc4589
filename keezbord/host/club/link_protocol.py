"""Topics and message shapes between two linked boards (docs/remote.md).

A board publishes only under ``keezbord/link/<itself>/<the other>/`` and reads only
``keezbord/link/<the other>/<itself>/`` (the broker's ACL, broker_config.py):
  ``game``   the host of record's game: its id, setup and deal (QoS 1, retained)
  ``log``    one entry of the game's log: ``seq``, who made it, the action (QoS 1)
  ``ack``    every entry up to ``seq`` is kept here (QoS 1, cumulative)
  ``hello``  on every (re)connect: how many entries this board has (``have``): the other
             sends what comes after, and what it has not had acknowledged (QoS 1)
  ``reject`` the host of record's answer to a guest's entry that lost a race for its
             ``seq`` (QoS 1): the guest takes its own back and follows the host
  ``status`` retained, and the broker's last will: whether the board is online
Every message but ``status`` names the game (``game``): one of another game is ignored.

An action is ``{"kind": "move", "seat", "move"}`` (notation, the card first),
``{"kind": "discard", "seat", "cards"}``, ``{"kind": "undo"}`` or ``{"kind": "give",
"seat", "card"}`` (a partner exchange).
"""

from __future__ import annotations

from typing import Final

# JSON on the wire as for the club (one encoding for every keezbord MQTT message).
from .protocol import decode as decode
from .protocol import encode as encode

PREFIX: Final = "keezbord/link"
QOS: Final = 1
# The most a linked board reads of one message (checked before it is parsed, as the
# depth: protocol.py): the largest, ``game``, is about 1 KB.
MAX_PAYLOAD: Final = 64 * 1024
LEAVES: Final = ("game", "log", "ack", "hello", "reject", "status")
KINDS: Final = ("move", "discard", "undo", "give")


def topic(sender: str, receiver: str, leaf: str) -> str:
    return f"{PREFIX}/{sender}/{receiver}/{leaf}"


def split(topic_: str) -> tuple[str, str, str] | None:
    """(sender, receiver, leaf) of one of our topics, else None."""
    parts = topic_.split("/")
    if len(parts) != 5 or "/".join(parts[:2]) != PREFIX or parts[4] not in LEAVES:
        return None
    return parts[2], parts[3], parts[4]


def _seat(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 8


def valid_action(a: object) -> bool:
    """Whether ``a`` is an action of the shape above (anything else is dropped: the
    other board's login lets it write its topics, not what this board does)."""
    if not isinstance(a, dict) or a.get("kind") not in KINDS:
        return False
    kind = a["kind"]
    if kind == "undo":
        return True
    if not _seat(a.get("seat")):
        return False
    if kind == "move":
        return isinstance(a.get("move"), str) and 0 < len(a["move"]) < 200
    if kind == "give":
        return isinstance(a.get("card"), str) and len(a["card"]) <= 3
    cards = a.get("cards")
    return isinstance(cards, list) and len(cards) <= 13 and all(isinstance(c, str) for c in cards)


def seq_of(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**7 else None
