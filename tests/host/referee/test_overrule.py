"""Issue 11, item 15: the referee (a person with the control token) overrules the machine:
a flagged move accepted as played, or a recorded move corrected, with a reason;
journalled, in the history and the exports, and counted like any move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee_traces import FLAGGED, ev, move, play, position, setup

from keezbord.engine.scoring import nk_score
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.journal import Journal
from keezbord.host.referee.state import Overrule
from keezbord.host.session import GameSession


def overrule(t: int, reason: str, mv: str | None = None, correct: bool = False) -> dict[str, Any]:
    return {"t": t, "type": "overrule", "reason": reason, "move": mv, "correct": correct}


def test_a_flagged_move_accepted_as_played() -> None:
    r = play(setup(), *FLAGGED, overrule(2500, "house rule: the 3 counted from T6"))
    assert len(r.of("illegal")) == 1
    [o] = r.of("overrule")
    assert o["ok"] is True and o["kind"] == "accept" and o["move"] == "3 0:T5-T9"
    assert o["note"] == "house rule: the 3 counted from T6"
    [m] = r.of("move")
    assert m["move"] == "3 0:T5-T9" and m["overruled"] == "house rule: the 3 counted from T6"
    assert r.of("resolved")  # the flag is cleared
    assert r.state.seat == 1 and "T9" in r.pawns()[0]
    assert r.state.history[-1].overruled == "house rule: the 3 counted from T6"
    # Play goes on from the overruled position.
    r2 = play(
        setup(), *FLAGGED, overrule(2500, "ok"), ev(3000, "card", "5"), move(3100, "T10", "T15")
    )
    assert r2.moves == ["3 0:T5-T9", "5 1:T10-T15"]


def test_accepting_needs_a_reason_a_board_at_rest_and_the_board_shown() -> None:
    r = play(setup(), *FLAGGED, overrule(2500, "  "))
    assert [o["ok"] for o in r.of("overrule")] == [False]
    assert "reason" in r.of("overrule")[0]["reason"] and r.moves == []
    r = play(setup(), *FLAGGED, overrule(2500, "why not", "3 0:T20-T23"))
    assert r.of("overrule")[0]["ok"] is False and r.moves == []
    r = play(setup(), *FLAGGED, ev(2400, "lift", "T9"), overrule(2500, "why not"))
    assert r.of("overrule")[0]["ok"] is False
    r = play(setup(), ev(1000, "card", "3"), overrule(1500, "nothing moved"))
    assert r.of("overrule")[0]["ok"] is False


def test_correcting_the_last_recorded_move() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(2000, "tick"),
        overrule(2500, "the T20 pawn was meant", "3 0:T20-T23", correct=True),
        ev(3500, "tick"),
        move(4000, "T8", "T5"),
        move(4400, "T20", "T23"),
        ev(5500, "tick"),
    )
    [o] = r.of("overrule")
    assert o["ok"] and o["kind"] == "correct" and o["replaces"] == "3 0:T5-T8"
    assert r.moves == ["3 0:T5-T8", "3 0:T20-T23"]
    assert r.of("move")[-1]["overruled"] == "the T20 pawn was meant"
    assert [h.text for h in r.state.history] == ["3 0:T20-T23"]
    assert r.state.seat == 1
    # The board still showed the old move: guided back (restore LEDs), then right.
    [flag] = r.of("illegal")
    assert sorted(map(tuple, flag["restore"])) == [("T20", "T23"), ("T8", "T5")]
    assert r.state.flag is None


def test_correcting_refuses_a_move_that_does_not_fit() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(2000, "tick"),
        overrule(2500, "x", "3 0:T30-T33", correct=True),
    )
    assert r.of("overrule")[0]["ok"] is False
    assert [h.text for h in r.state.history] == ["3 0:T5-T8"]
    r = play(setup(), overrule(500, "x", "3 0:T5-T8", correct=True))
    assert r.of("overrule")[0]["ok"] is False


def test_an_overruled_move_counts_in_the_score() -> None:
    nk = position(
        0, ["T62", "H2", "H3", "H4"], ["T10", "N", "N", "N"], ["N"] * 4, ["N"] * 4, profile="nk"
    )
    # A 2 from T62 lands on T0; the player puts the pawn home on H0.1: flagged.
    r = play(
        setup(nk),
        ev(1000, "card", "2"),
        move(1100, "T62", "H0.1"),
        ev(2000, "tick"),
        overrule(2500, "the 2 was a 3: the table agreed"),
    )
    assert r.of("illegal") and r.moves == ["2 0:T62-H1"]
    assert r.state.pos.home_count(0) == 4
    assert sum(nk_score(r.state.pos).values()) > sum(nk_score(r.state.history[-1].before).values())


def test_session_journals_exports_and_resumes_an_overrule(tmp_path: Path) -> None:
    s = GameSession.start(tmp_path / "j.db", {"type": "setup", **setup()})
    s.feed(CardTap(1000, "3"))
    s.feed(HoleEvent(1100, "lift", "T5"))
    s.feed(HoleEvent(1300, "place", "T9"))
    s.feed(Tick(2000))
    effects = s.overrule("counted from T6 by agreement", t=2500)
    assert any(getattr(e, "type", None) == "move" for e in effects)
    snap = s.snapshot()
    assert snap["history"][-1]["overruled"] == "counted from T6 by agreement"
    s.close()
    with Journal(tmp_path / "j.db") as j:
        lines, moves = j.export()
    assert any('"overrule"' in line for line in lines)
    assert moves == [
        "1. seat 0: 3 0:T5-T9 (overruled by the referee: counted from T6 by agreement)"
    ]
    again = GameSession.resume(tmp_path / "j.db")
    assert again.state.pos == s.state.pos and again.state.history[-1].overruled
    again.close()
    # Correcting replaces the exported line.
    s = GameSession.resume(tmp_path / "j.db")
    s.feed(Overrule(3000, "it was the T20 pawn", "3 0:T20-T23", True))
    s.close()
    with Journal(tmp_path / "j.db") as j:
        _, moves = j.export()
    assert moves == ["1. seat 0: 3 0:T20-T23 (overruled by the referee: it was the T20 pawn)"]
