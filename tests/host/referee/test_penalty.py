"""The NK table penalty and the time limit as referee inputs: traces, LEDs, journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee_traces import ev, move, play, position

from keezbord.host.events import HoleEvent, Penalty, Tick, TimeLimit, event_from_dict
from keezbord.host.session import GameSession

# Seat 0 on T5; seat 1 on T20 and T30 (T30 is nearer its home: seat 1 starts at T16).
NK = position(
    0, ["T5", "N", "N", "N"], ["T20", "T30", "N", "N"], ["N"] * 4, ["N"] * 4, profile="nk"
)


def setup(pos: dict[str, Any] = NK) -> dict[str, Any]:
    return {"seats": 4, "profile": pos["profile"], "dealer": 3, "position": pos}


def test_penalty_sends_the_front_pawn_home_and_guides_the_players() -> None:
    r = play(setup(), ev(1000, "penalty") | {"seat": 1})
    pen = r.of("penalty")
    assert pen == [
        {
            "t": 1000,
            "type": "penalty",
            "seat": 1,
            "ok": True,
            "owner": 1,
            "pawn": "T30",
            "reason": "penalty: put blue's pawn on T30 back in its nest",
        }
    ]
    assert r.pawns()[1] == ["N", "N", "N", "T20"]
    frame = r.frame_at(1000)
    assert frame["T30"] == "error" and frame["N1.3"] == "restore"  # the first free one
    assert r.state.flag is not None and r.state.flag.pairs == (("T30", "N1.3"),)
    assert r.of("illegal") == []  # the penalty's own decision says what to do
    # Carried back: the flag clears, and play goes on for seat 0.
    r = play(
        setup(),
        ev(1000, "penalty") | {"seat": 1},
        move(1500, "T30", "N1.3"),
        ev(2600, "card", "3"),
        move(2700, "T5", "T8"),
    )
    assert r.state.flag is None and r.moves == ["3 0:T5-T8"]
    assert r.pawns()[1] == ["N", "N", "N", "T20"]
    assert r.of("resolved") and r.of("resolved")[0]["t"] == 1700 + 500


def test_penalty_falls_to_the_partner_and_is_refused_without_pawns_out() -> None:
    r = play(setup(), ev(1000, "penalty") | {"seat": 3})  # seat 3 has none out
    assert r.of("penalty")[0]["owner"] == 1 and r.of("penalty")[0]["pawn"] == "T30"
    empty = position(0, ["T5", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4, profile="nk")
    r = play(setup(empty), ev(1000, "penalty") | {"seat": 1})
    assert r.of("penalty")[0]["ok"] is False and r.state.flag is None
    assert "no pawn" in r.of("penalty")[0]["reason"]


def test_undo_does_not_take_back_a_move_across_a_penalty() -> None:
    r = play(
        setup(),
        ev(1000, "card", "3"),
        move(1100, "T5", "T8"),
        ev(2000, "tick"),
        ev(2100, "penalty") | {"seat": 1},
        ev(2200, "undo"),
    )
    assert r.moves == ["3 0:T5-T8"]
    assert r.of("undo") and r.of("undo")[0]["ok"] is False


def test_time_limit_stops_the_game_scoring_pawns_home_only() -> None:
    home = position(
        0,
        ["H1", "H2", "H3", "T5"],
        ["T20", "N", "N", "N"],
        ["H4", "N", "N", "N"],
        ["N"] * 4,
        profile="nk",
    )
    r = play(setup(home), ev(1000, "time_limit"), ev(1100, "card", "3"))
    tl = r.of("time_limit")[0]
    assert tl["ok"] is True
    assert {tuple(s["seats"]): s["points"] for s in tl["score"]} == {(0, 2): 8, (1, 3): 0}
    assert r.state.stopped and r.state.seat is None
    assert r.of("card_rejected")[0]["reason"] == "the game is over"
    assert r.frame_at(1000) == {}
    std = position(0, ["T5", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4)
    r = play(setup(std), ev(1000, "time_limit"))
    assert r.of("time_limit")[0]["ok"] is False and not r.state.stopped


def test_trace_lines_round_trip() -> None:
    assert event_from_dict({"t": 5, "type": "penalty", "seat": 2}) == Penalty(5, 2)
    assert event_from_dict({"t": 6, "type": "time_limit"}) == TimeLimit(6)


def test_journal_replay_of_a_penalty_resumes_the_same_position(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    s = GameSession.start(db, {"type": "setup", **setup()})
    s.feed(Penalty(1000, 1))
    s.feed(HoleEvent(1500, "lift", "T30"))
    before = s.state
    assert before.flag is not None
    game = s.game
    trace = s.export_trace()
    s.close()
    r = GameSession.resume(db)
    assert r.game == game and r.state.pos == before.pos and r.state.flag == before.flag
    assert r.state.sensed == before.sensed
    assert '"type": "penalty", "seat": 1' in trace[1]
    r.feed(HoleEvent(1700, "place", "N1.3"))
    effects = r.feed(Tick(2300))
    assert r.state.flag is None and any(getattr(e, "type", "") == "resolved" for e in effects)
    r.close()
