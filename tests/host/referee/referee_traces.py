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
