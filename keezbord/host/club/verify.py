"""Check a disputed result: replay the game's record (its trace) through the referee,
as ``keezbord replay`` does, and compare with what the board reported."""

from __future__ import annotations

from typing import Any

from keezbord.host.referee import parse_trace, run

from .reporter import digest, outcome
from .store import Result


def verify(result: Result, lines: list[str]) -> str:
    """``ok``, or one line saying what differs between the record and the result."""
    if digest(lines) != result.digest:
        return "the record's digest differs from the reported one"
    setup, events = parse_trace(lines)
    state = None
    for state_now, _ in run(setup, events):
        state = state_now
    assert state is not None
    got: dict[str, Any] = outcome(state)
    said = {
        "points": [result.home_points, result.away_points],
        "pawns": [result.home_pawns, result.away_pawns],
        "winner": result.winner,
        "timed_out": result.timed_out,
        "moves": result.moves,
    }
    wrong = [f"{k}: reported {said[k]}, replay {got[k]}" for k in said if said[k] != got[k]]
    return "ok" if not wrong else "; ".join(wrong)
