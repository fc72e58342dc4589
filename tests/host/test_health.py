"""Sensor health: chatter and stuck switches, summary and LED frame."""

from __future__ import annotations

from keezbord.host.events import HoleEvent
from keezbord.host.health import HealthMonitor

HOLES = ["T0", "T1", "T2", "N0.1"]


def flicker(m: HealthMonitor, hole: str, t0: int, n: int, dt: int) -> None:
    for k in range(n):
        m.observe(HoleEvent(t0 + k * dt, "place" if k % 2 == 0 else "lift", hole))


def test_chatter_is_many_transitions_in_a_short_window() -> None:
    m = HealthMonitor(HOLES, chatter_window_ms=1000, chatter_threshold=6)
    flicker(m, "T1", 0, 10, 30)  # 10 transitions in 300 ms
    flicker(m, "T2", 0, 10, 400)  # 10 transitions spread over 4 s: ordinary play
    s = m.summary(5000)
    assert s.chattering == ("T1",) and not s.ok
    assert m.chatter_episodes("T1") == 1  # one burst, one episode
    assert m.transitions("T2") == 10
    assert m.led_frame(5000) == {"T1": "error"}
    assert "T1" in s.text().nl and "dendert" in s.text().nl and "chatters" in s.text().en


def test_repeated_state_is_not_a_transition() -> None:
    m = HealthMonitor(HOLES)
    m.observe(HoleEvent(0, "place", "T0"))
    m.observe(HoleEvent(1, "place", "T0"))
    assert m.transitions("T0") == 1


def test_stuck_closed_where_no_pawn_should_be() -> None:
    m = HealthMonitor(HOLES, closed=["N0.1"], stuck_ms=5000)
    m.observe(HoleEvent(1000, "place", "T0"))
    assert m.summary(3000, expected_closed={"N0.1"}).ok  # T0 only 2 s: a move in progress
    s = m.summary(7000, expected_closed={"N0.1"})
    assert s.stuck_closed == ("T0",)
    assert m.summary(7000, expected_closed={"N0.1", "T0"}).ok
    assert m.summary(7000).ok  # without the game's view no stuck-closed verdict
    d = s.to_dict()
    assert d["stuck_closed"] == ["T0"] and d["ok"] is False and "en" in d["text"]
    assert set(s.never_changed) == {"T1", "T2", "N0.1"}
