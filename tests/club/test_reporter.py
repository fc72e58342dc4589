"""What a board says about its game, from the referee's decisions: started, progress,
a penalty, the time-limit stop and its result (NK: pawns home only, no bonus)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from keezbord.engine.position import HOME, NEST
from keezbord.engine.scoring import nk_score
from keezbord.host.club.reporter import Reporter, digest, record_lines
from keezbord.host.events import Penalty, TimeLimit
from keezbord.host.referee import Decision
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def test_penalty_and_time_limit(tmp_path: Path) -> None:
    sim = simulate(4, "nk", 11, max_turns=2000)
    session = GameSession.start(tmp_path / "j.sqlite", {**sim.setup, "mode": "simulated"})
    sent: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    rep = Reporter("tafel-9", sent.append, results.append)

    def feed(ev: Any) -> None:
        effects = session.feed(ev)
        records = [e.to_record() for e in effects if isinstance(e, Decision)]
        if records:
            rep.decided(session.state, records, session.journal)

    rep.started("m1", session.game, session.state)
    assert sent[0]["kind"] == "started" and sent[0]["seats"] == 4
    for ev in sim.events[: len(sim.events) // 2]:
        feed(ev)
    progress = [m for m in sent if m["kind"] == "progress"]
    assert progress and progress[-1]["moves"] == len(session.state.history)
    seat = next(s for s in range(4) if any(NEST < loc < HOME for loc in session.state.pos.pawns[s]))
    before = len(sent)
    feed(Penalty(session.state.now + 3000, seat))
    assert [m["kind"] for m in sent[before:]] == ["penalty", "progress"]
    assert sent[-1]["match"] == "m1" and sent[-1]["pawns"] == sent[-2]["pawns"]
    feed(TimeLimit(session.state.now + 1))
    assert sent[-1]["kind"] == "time_limit"
    (result,) = results
    pos = session.state.pos
    home = sum(pos.home_count(s) for s in (0, 2))
    away = sum(pos.home_count(s) for s in (1, 3))
    assert result["pawns"] == [home, away]
    assert result["points"] == [2 * home, 2 * away] == list(nk_score(pos, timed_out=True).values())
    assert result["timed_out"] and result["winner"] == ""
    assert result["digest"] == digest(record_lines(session.journal, session.game))
    feed(TimeLimit(session.state.now + 2))  # refused: the game is over; no second result
    assert len(results) == 1
    session.close()
