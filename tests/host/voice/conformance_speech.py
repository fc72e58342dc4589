"""The refereed conformance games (../shared/conformance) and two of them with a mistake
made and put right, spoken: every utterance of the table, in order, per language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from keezbord.host.referee import Decision
from keezbord.host.referee.replay import run
from keezbord.host.referee.trace import input_from_dict, setup_from_dict
from keezbord.host.voice.narrator import Narrator
from keezbord.host.voice.phrases import Utterance

GAMES = Path(__file__).resolve().parents[3].parent / "shared" / "conformance" / "games"
GOLDEN = Path(__file__).parent / "golden"


def _lines(name: str) -> list[dict[str, Any]]:
    path = GAMES / f"{name}.trace.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wrong_card(name: str = "g101-4seats-standard") -> list[dict[str, Any]]:
    """g101 with a 5 tapped and a pawn brought out with it before the king that does."""
    src = _lines(name)
    tried = [
        {"t": 2500, "type": "card", "card": "5"},
        {"t": 2600, "type": "lift", "hole": "N3.1"},
        {"t": 2700, "type": "place", "hole": "T48"},
        {"t": 3400, "type": "lift", "hole": "T48"},
        {"t": 3500, "type": "place", "hole": "N3.1"},
    ]
    return src[:2] + tried + src[2:40]


def overshoot(name: str = "g101-4seats-standard") -> list[dict[str, Any]]:
    """g101 with green's 6 first moved 7 (T48 to T55), flagged, put back, then played."""
    src = _lines(name)
    assert src[11].get("card") == "6"
    tried = [
        {"t": 9160, "type": "lift", "hole": "T48"},
        {"t": 9200, "type": "place", "hole": "T55"},
        {"t": 10500, "type": "lift", "hole": "T55"},
        {"t": 10600, "type": "place", "hole": "T48"},
    ]
    return src[:12] + tried + [{**x, "t": x["t"] + 3000} for x in src[12:60]]


def traces() -> dict[str, list[dict[str, Any]]]:
    out = {}
    for p in sorted(GAMES.glob("*.trace.jsonl")):
        name = p.name.removesuffix(".trace.jsonl")
        out[name] = _lines(name)
    out["g101-wrong-card"] = wrong_card()
    out["g101-overshoot"] = overshoot()
    return out


def spoken(lines: list[dict[str, Any]]) -> list[Utterance]:
    """Every utterance of a trace's decisions, as the hub's voice makes them."""
    setup = setup_from_dict(lines[0])
    events = [input_from_dict(d) for d in lines[1:]]
    said: list[Utterance] = []
    narrator: Narrator | None = None
    for state, effects in run(setup, events):
        if narrator is None:
            narrator = Narrator(state.pos.to_dict())
        for e in effects:
            if isinstance(e, Decision):
                said += narrator.said(e.to_record(), state.pos.topology)
    return said
