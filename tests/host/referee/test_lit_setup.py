"""The set-up mode (issue 26) and moves chosen far away (issue 28) composed: while the
board is being set up, a hold is kept for when the game begins and a lit move is refused
(set the board up first); once the board is set up, the lit move is read as any. A trace
of it replays to the same decisions."""

from __future__ import annotations

from typing import Any

from keezbord.engine.position import Position
from keezbord.engine.text import Text
from keezbord.host.events import CardTap, HoleEvent
from keezbord.host.referee import (
    Decision,
    Hold,
    Input,
    Lit,
    arranged_setup,
    begin,
    parse_trace,
    replay,
    setup_from_dict,
    step,
    trace_lines,
)
from keezbord.host.referee.reasons import SET_UP_FIRST

WAIT = Text("wacht op de andere tafel", "wait for the other table")
TARGET = Position.from_text("NNNT5/NNNN/NNNN/NNNN 0 standard")
RAW = arranged_setup({"type": "setup", "seats": 4, "dealer": 3, "hints": "targets"}, TARGET)
EVENTS: list[Input] = [
    Hold(100, WAIT),
    Lit(200, "5 0:T5-T10"),  # refused: the board is not set up yet
    HoleEvent(1000, "lift", "N0.1"),
    HoleEvent(1500, "place", "T5"),  # the board set up: the game begins, still held
    CardTap(2000, "5"),  # refused: the table is held
    Hold(2500, None),
    Lit(3000, "5 0:T5-T10"),
    HoleEvent(4000, "lift", "T5"),
    HoleEvent(4500, "place", "T10"),
]


def _decisions() -> list[Decision]:
    state, effects = begin(setup_from_dict(RAW))
    out = [e for e in effects if isinstance(e, Decision)]
    for ev in EVENTS:
        state, effects = step(state, ev)
        out += [e for e in effects if isinstance(e, Decision)]
        if isinstance(ev, Lit) and state.lit is not None:
            assert state.leds == {"T5": "source", "T10": "target", "T0": "turn"}
    state, effects = step(state, HoleEvent(20_000, "lift", "T10"))  # (the settle time)
    return out + [e for e in effects if isinstance(e, Decision)]


def test_a_hold_during_the_set_up_stands_when_the_game_begins_a_lit_move_waits() -> None:
    said = _decisions()
    kinds = [d.type for d in said]
    assert kinds[:2] == ["setup_task", "hold"] and said[1].data["on"] is True
    lit = [d for d in said if d.type == "lit"]
    assert [d.data["ok"] for d in lit] == [False, True]
    assert lit[0].reason == SET_UP_FIRST
    assert kinds.index("setup_done") < kinds.index("card_rejected")
    rejected = next(d for d in said if d.type == "card_rejected")
    assert rejected.reason == WAIT
    moves = [d.data["move"] for d in said if d.type == "move"]
    assert moves == ["5 0:T5-T10"]


def test_the_trace_of_it_replays_to_the_same_decisions() -> None:
    lines = list(trace_lines(RAW, EVENTS))
    setup, events = parse_trace(lines)
    assert events == EVENTS
    replayed: list[dict[str, Any]] = [d for d in replay(setup, events) if d["type"] != "state"]
    state, effects = begin(setup_from_dict(RAW))
    direct = [e.to_dict("en") for e in effects if isinstance(e, Decision)]
    for ev in EVENTS:
        state, effects = step(state, ev)
        direct += [e.to_dict("en") for e in effects if isinstance(e, Decision)]
    assert replayed[: len(direct)] == direct
    assert "setup_done" in [d["type"] for d in replayed]
