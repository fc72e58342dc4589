"""The board's health as the page shows it in run mode: the sensors (chatter, stuck
switches) and the driver's link, and the key that says when it changed enough to
broadcast (ages and counters of good frames aside)."""

from __future__ import annotations

from typing import Any

from keezbord.host.health import HealthMonitor
from keezbord.host.referee import RefereeState, board_of


def board_health(
    monitor: HealthMonitor, st: RefereeState, resynced: set[str], driver: object, now: int
) -> dict[str, Any]:
    """``resynced``: holes found closed by a full read (at start), never seen to close."""
    # A switch closed where the game has no pawn, and not placed on this turn (a pawn put
    # there by mistake is the referee's flag, not a stuck switch); a switch found closed
    # by a full read counts.
    expected = set(board_of(st.pos)) | (st.touched - resynced)
    # Nest holes are interchangeable: board_of puts a seat's nest pawns in its lowest nest
    # holes, but a pawn brought out from N0.1 leaves N0.2-N0.4 closed (the rehearsal's
    # game showed N0.4 as "stuck"). A seat's closed nest holes count, up to its nest pawns.
    for seat in {h.split(".")[0] for h in expected if h.startswith("N")}:
        pawns = sum(1 for h in board_of(st.pos) if h.startswith(seat + "."))
        closed = sorted(h for h in st.sensed if h.startswith(seat + "."))
        expected |= set(closed[:pawns])
    summary = monitor.summary(now, expected)
    sensors = {**summary.to_dict(), "bad": list(summary.bad_holes)}
    del sensors["never_changed"]  # the selftest's business, not the game's
    link = None
    health = getattr(driver, "health", None)
    if callable(health):
        try:
            link = health()
        except Exception as e:  # shown on the page, not fatal
            link = {"ok": False, "error": repr(e)}
    return {"sensors": sensors, "link": link}


def health_key(h: dict[str, Any]) -> tuple[Any, ...]:
    """What must change for the page to be told: good frames and ages do not count."""
    link = h["link"] or {}
    return (
        h["sensors"]["ok"],
        tuple(h["sensors"]["bad"]),
        link.get("ok"),
        link.get("connected"),
        link.get("frames_bad"),
        link.get("gaps"),
        link.get("chain_ok"),
        link.get("broken_reads"),
        link.get("error"),
        (link.get("leds") or {}).get("ok"),
        (link.get("leds") or {}).get("error"),
        (link.get("reader") or {}).get("ok"),
    )
