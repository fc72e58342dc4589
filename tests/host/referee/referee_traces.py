"""Helpers for referee tests: write a trace as short tuples, run it, read the decisions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from keezbord.host.advisor import answer
from keezbord.host.referee.replay import run
from keezbord.host.referee.state import Decision, Leds, RefereeState
from keezbord.host.referee.trace import parse_trace


@dataclass
class Result:
    decisions: list[dict[str, Any]]  # English
    records: list[dict[str, Any]]  # both languages
    frames: list[dict[str, Any]]
    state: RefereeState

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [d for d in self.decisions if d["type"] == kind]

    @property
    def moves(self) -> list[str]:
        return [d["move"] for d in self.of("move")]

    def pawns(self) -> list[list[str]]:
        return [sorted(p) for p in self.state.pos.to_dict()["pawns"]]

    def frame_at(self, t: int) -> dict[str, str]:
        """The LED frame showing at time t."""
        holes: dict[str, str] = {}
        for f in self.frames:
            if f["t"] <= t:
                holes = f["holes"]
        return holes


def ev(t: int, kind: str, arg: Any = None) -> dict[str, Any]:
    """``ev(100, "card", "K")``, ``ev(200, "lift", "N0.1")``, ``ev(9, "discard", [...])``,
    ``ev(5, "tag", "04AB")``, ``ev(7, "tick")``."""
    if kind == "card":
        return {"t": t, "type": "card", "card": arg}
    if kind == "tag":
        return {"t": t, "type": "card", "tag": arg}
    if kind == "discard":
        return {"t": t, "type": "discard", "cards": list(arg)}
    if kind in ("lift", "place"):
        return {"t": t, "type": kind, "hole": arg}
    return {"t": t, "type": kind}


def move(t: int, frm: str, to: str) -> list[dict[str, Any]]:
    """Lift at t, place 200 ms later."""
    return [ev(t, "lift", frm), ev(t + 200, "place", to)]


HINT_PLAYOUTS = 150  # the budget hints "full" had in the step


def play(
    setup: dict[str, Any], *events: dict[str, Any] | list[dict[str, Any]], advise: bool = True
) -> Result:
    """Run the trace; with ``advise`` a hint the referee asks is answered at once, as the
    host's advisor would (host/advisor.py), and fed back as an input."""
    flat: list[dict[str, Any]] = []
    for e in events:
        flat.extend(e if isinstance(e, list) else [e])
    lines = [json.dumps({"type": "setup", **setup})] + [json.dumps(e) for e in flat]
    parsed, inputs = parse_trace(lines)
    decisions: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    state = None
    answer_now = (lambda w: answer(w, HINT_PLAYOUTS)) if advise else None
    for state, effects in run(parsed, inputs, answer_now):  # noqa: B007
        for effect in effects:
            if isinstance(effect, Decision):
                decisions.append(effect.to_dict("en"))
                records.append(effect.to_record())
            elif isinstance(effect, Leds):
                frames.append(effect.to_dict())
    assert state is not None
    return Result(decisions, records, frames, state)


def position(
    turn: int, *rows: list[str], seats: int = 4, profile: str = "standard"
) -> dict[str, Any]:
    return {"seats": seats, "profile": profile, "turn": turn, "pawns": [list(r) for r in rows]}


Events = list[dict[str, Any] | list[dict[str, Any]]]

# Seat 0 (red) on T5 and T20, seat 1 (blue) on T10; seat 0 to play.
MID = position(0, ["T5", "T20", "N", "N"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def setup(pos: dict[str, Any] = MID, **extra: Any) -> dict[str, Any]:
    """A trace's setup for ``pos``, dealt by the seat before the one to play;
    ``extra`` adds setup fields or overrides these (``dealer=0``, ``card_reader=False``)."""
    return {
        "seats": pos["seats"],
        "profile": pos["profile"],
        "dealer": pos["seats"] - 1,
        "position": pos,
        **extra,
    }


def undo(t: int) -> dict[str, Any]:
    return {"t": t, "type": "undo"}


def flags(r: Result) -> list[str]:
    """The kinds of the flags raised, in order: illegal, second_card, ambiguous, missing."""
    kinds = ("illegal", "second_card", "ambiguous", "missing")
    return [d["type"] for d in r.decisions if d["type"] in kinds]


def no_flags(r: Result) -> None:
    assert flags(r) == []


# Card tags of a registry (setup field ``tags``): three 3s and a 5.
TAGS = {"A3": "3", "B5": "5", "C3": "3", "D3": "3"}


def swap(t: int, a: str, b: str) -> list[dict[str, Any]]:
    """A jack swap with both pawns in hand: lift a, lift b, put one on a, then one on b."""
    return [
        ev(t, "lift", a),
        ev(t + 100, "lift", b),
        ev(t + 300, "place", a),
        ev(t + 400, "place", b),
    ]


# A 3 played one hole too far (T5-T9), flagged once the board rests.
FLAGGED: Events = [ev(1000, "card", "3"), move(1100, "T5", "T9"), ev(2000, "tick")]
