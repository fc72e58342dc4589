"""What a board tells the tournament about its game, read from the referee's state and
decisions (the journal is the source of truth): game started, progress (move count,
pawns home per side), penalties, the time-limit stop, and the result with the journal's
digest. The same code serves a real board (the hub's decisions) and a simulated one.

Sides: the table's ``home`` team sits at seat 0 (with its partner), ``away`` at seat 1.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from keezbord.engine.position import Position
from keezbord.engine.scoring import nk_score
from keezbord.host.journal import Journal
from keezbord.host.referee import RefereeState

Send = Callable[[dict[str, Any]], None]


def sides(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The home team's seats (the one with seat 0) and the away team's."""
    teams = sorted({pos.team_of(s) for s in range(pos.seats)})
    if len(teams) != 2:
        raise ValueError(f"a club match is two teams; {pos.seats} seats make {len(teams)}")
    return teams[0], teams[1]


def pawns_home(pos: Position) -> list[int]:
    return [sum(pos.home_count(s) for s in team) for team in sides(pos)]


def digest(lines: Sequence[str]) -> str:
    """The digest of a game's record (its trace lines: setup, then every input)."""
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def record_lines(journal: Journal, game: int) -> list[str]:
    return journal.export(game)[0]


def outcome(state: RefereeState) -> dict[str, Any]:
    """Points, pawns home and winner per side of a finished (or stopped) game: NK
    scoring (keezbord/engine/scoring.py)."""
    pos = state.pos
    home, away = sides(pos)
    score = nk_score(pos, timed_out=state.stopped)
    winner = "" if state.winner is None else ("home" if tuple(state.winner) == home else "away")
    return {
        "points": [score[home], score[away]],
        "pawns": pawns_home(pos),
        "winner": winner,
        "timed_out": state.stopped,
        "moves": len(state.history),
    }


def result_message(
    board: str, match: str, game: int, state: RefereeState, journal: Journal
) -> dict[str, Any]:
    """The result of ``match``, played as the journal's ``game`` (finished or stopped)."""
    return {
        "kind": "result",
        "board": board,
        "match": match,
        "game": game,
        **outcome(state),
        "digest": digest(record_lines(journal, game)),
    }


class Reporter:
    """Turns one board's referee decisions into messages: ``send`` for state changes
    (they may be lost to a power cut: the next one says the same and more), ``report``
    for the result (kept in the board's outbox until the tournament acknowledges it)."""

    def __init__(self, board: str, send: Send, report: Callable[[dict[str, Any]], None]) -> None:
        self.board = board
        self.send = send
        self.report = report
        self.match: str | None = None
        self.game: int | None = None
        self.reported = False

    def started(self, match: str, game: int, state: RefereeState) -> None:
        self.match, self.game, self.reported = match, game, False
        pos = state.pos
        self.send(self._msg("started", state, seats=pos.seats, profile=pos.profile.name))

    def decided(
        self, state: RefereeState, records: Iterable[dict[str, Any]], journal: Journal
    ) -> None:
        if self.match is None or self.game is None or self.reported:
            return
        kinds = {r.get("type") for r in records if r.get("ok", True) is not False}
        if "penalty" in kinds:
            self.send(self._msg("penalty", state))
        if "time_limit" in kinds:
            self.send(self._msg("time_limit", state))
        elif kinds & {"move", "undo", "overrule", "penalty"}:
            self.send(self._msg("progress", state))
        if state.winner is not None or state.stopped:
            self.reported = True
            self.report(result_message(self.board, self.match, self.game, state, journal))

    def _msg(self, kind: str, state: RefereeState, **extra: Any) -> dict[str, Any]:
        return {
            "kind": kind,
            "board": self.board,
            "match": self.match,
            "game": self.game,
            "moves": len(state.history),
            "pawns": pawns_home(state.pos),
            **extra,
        }
