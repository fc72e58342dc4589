"""What the drivers report and the referee consumes: events at the table, as values.

Times are integer milliseconds (monotonic, never decreasing), as in FORMATS.md traces.
``to_dict``/``event_from_dict`` convert to and from the trace's JSON lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

HoleAction = Literal["lift", "place"]


@dataclass(frozen=True, slots=True)
class HoleEvent:
    """A reed switch opened (``lift``) or closed (``place``) under ``hole``."""

    t: int
    action: HoleAction
    hole: str


@dataclass(frozen=True, slots=True)
class CardTap:
    """A card on the reader: by rank (``card``) or by RFID ``tag`` (the registry maps it)."""

    t: int
    card: str | None = None
    tag: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """The player shows the rest of the hand, claiming none of it can be played."""

    t: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passing with nothing else happening (drivers send these to let settle
    timers expire)."""

    t: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """The NK table penalty against ``seat`` (partners consulted): the referee sends the
    offender's front pawn back to its nest (else the partner's)."""

    t: int
    seat: int


@dataclass(frozen=True, slots=True)
class TimeLimit:
    """The game is stopped by the time limit (NK: pawns home count, no win bonus)."""

    t: int


Event = HoleEvent | CardTap | Discard | Tick | Penalty | TimeLimit


@dataclass(frozen=True, slots=True)
class SwitchRead:
    """The whole board as the switches report it: a board driver's first full read (at
    start, or after a reconnect), so the referee resyncs to what is really on the board.
    Not a trace event of FORMATS.md's list; the journal and traces keep it as ``board``."""

    t: int
    holes: frozenset[str]


# What a board driver posts to the host.
Reading = Event | SwitchRead


class EventFormatError(ValueError):
    """A trace line that is not a well-formed event."""


def event_from_dict(d: Any) -> Event:
    if not isinstance(d, dict):
        raise EventFormatError("an event must be a JSON object")
    kind = d.get("type")
    t = d.get("t")
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise EventFormatError(f"event {kind!r} needs a time 't' in whole milliseconds")
    if kind in ("lift", "place"):
        hole = d.get("hole")
        if not isinstance(hole, str):
            raise EventFormatError(f"{kind} event at t={t} needs a 'hole'")
        return HoleEvent(t, "lift" if kind == "lift" else "place", hole)
    if kind == "card":
        card, tag = d.get("card"), d.get("tag")
        for key, value in (("card", card), ("tag", tag)):
            if not isinstance(value, str | None):
                raise EventFormatError(f"card event at t={t}: {key!r} must be text, not {value!r}")
        if (card is None) == (tag is None):
            raise EventFormatError(f"card event at t={t} needs exactly one of 'card' or 'tag'")
        return CardTap(t, card, tag)
    if kind == "discard":
        cards = d.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise EventFormatError(f"discard event at t={t} needs a list of 'cards'")
        return Discard(t, tuple(cards))
    if kind == "tick":
        return Tick(t)
    if kind == "penalty":
        seat = d.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise EventFormatError(f"penalty event at t={t} needs a 'seat'")
        return Penalty(t, seat)
    if kind == "time_limit":
        return TimeLimit(t)
    raise EventFormatError(f"unknown event type {kind!r}")


def event_to_dict(e: Event) -> dict[str, Any]:
    if isinstance(e, HoleEvent):
        return {"t": e.t, "type": e.action, "hole": e.hole}
    if isinstance(e, CardTap):
        named = {"card": e.card} if e.card is not None else {"tag": e.tag}  # "" is a name
        return {"t": e.t, "type": "card", **named}
    if isinstance(e, Discard):
        return {"t": e.t, "type": "discard", "cards": list(e.cards)}
    if isinstance(e, Penalty):
        return {"t": e.t, "type": "penalty", "seat": e.seat}
    if isinstance(e, TimeLimit):
        return {"t": e.t, "type": "time_limit"}
    return {"t": e.t, "type": "tick"}
