"""A game's decisions said in order (docs/voice.md): ``phrases`` for each record, with
what a record alone does not carry: the position before a move (its knocked pawns and
pawns home) and whose turn the move list implies.

Whose turn is said only when the move list does not imply it: after a move or a discard
the next seat round the table is implied, and once a seat has been seen to follow
another in this deal (a seat that discarded is skipped), that one. So the turn is said
once when the order changes ("Blauw speelt een aas en zet een pion op. Groen is aan de
beurt." when yellow between them discarded), not after every move. A new deal says who
begins, and the order starts afresh."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keezbord.engine.text import Text
from keezbord.engine.topology import Topology

from .phrases import Utterance, phrases, whose_turn

# A card refused from a hand only its player sees (a virtual deal, the simulator): the
# card stays in that hand, so the table hears that a card was refused, not which.
HIDDEN_REFUSAL = Text(
    "Kaart geweigerd: kies een andere kaart.", "Card refused: choose another card."
)


class Narrator:
    def __init__(self, before: Mapping[str, Any] | None = None, hands_hidden: bool = False) -> None:
        self.before = before  # the position's dict before the next move
        self.hands_hidden = hands_hidden  # cards are played from hidden hands on pages
        self.actor: int | None = None  # who moved or discarded, till the turn passes
        self.follows: dict[int, int] = {}  # seat -> the seat seen to play after it

    def said(self, rec: Mapping[str, Any], topo: Topology) -> list[Utterance]:
        out = phrases(rec, topo, self.before)
        kind, seat = rec.get("type"), rec.get("seat")
        if kind == "card_rejected" and self.hands_hidden:
            out = [Utterance("card", HIDDEN_REFUSAL, True)]
        if kind == "move" and isinstance(rec.get("position"), Mapping):
            self.before = rec["position"]
        if kind == "move" or (kind == "discard" and rec.get("ok", True)):
            self.actor = seat if isinstance(seat, int) else None
        elif kind == "turn":
            if rec.get("deal") or rec.get("opening"):
                self.follows = {}
            elif self.actor is not None and isinstance(seat, int):
                implied = self.follows.get(self.actor, (self.actor + 1) % topo.seats)
                self.follows[self.actor] = seat
                if seat != implied:
                    out.append(whose_turn(seat))
            self.actor = None
        elif kind in ("undo", "win"):
            self.actor = None
        return out


def hidden(remark: Mapping[str, Any]) -> bool:
    """Whether the coach's remark may name a card of a hidden hand: its better move is
    played with another card than the one played (which lies on the reader for all to
    see). On a real board without a virtual deal the coach knows only the played card,
    so its remarks there name nothing hidden."""
    better, played = str(remark.get("better", "")), str(remark.get("played", ""))
    return better.split(" ")[:1] != played.split(" ")[:1]
