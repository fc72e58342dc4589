"""A board's events on the tournament's side: what the scoreboard is given of them."""

from __future__ import annotations

from pathlib import Path

from keezbord.host.club.service import Tournament
from keezbord.host.club.store import Store


def test_a_boards_event_reaches_the_scoreboard_only_as_what_it_may_say(tmp_path: Path) -> None:
    """A board's login lets it write anything under its own topic; the scoreboard (drawn
    as HTML on the projector) gets only a known kind, the match, and whole numbers."""
    store = Store(tmp_path / "club.sqlite")
    t = Tournament(store)
    try:
        evil = "<img src=x onerror=alert(1)>"
        t.on_event("tafel-1", {"kind": evil, "board": "tafel-1", "match": "m", "moves": 3})
        assert "tafel-1" not in t.live
        t.on_event(
            "tafel-1",
            {"kind": "progress", "board": "tafel-1", "match": "m", "moves": evil,
             "pawns": [1, evil], "extra": evil},
        )  # fmt: skip
        live = t.live["tafel-1"]
        assert (live["kind"], live["match"], live["moves"], live["pawns"]) == (
            "progress", "m", None, None,
        )  # fmt: skip
        assert evil not in repr(live)
        t.on_event(
            "tafel-1", {"kind": "progress", "board": "tafel-1", "match": "m", "moves": 12,
                        "pawns": [3, 2]},
        )  # fmt: skip
        assert (t.live["tafel-1"]["moves"], t.live["tafel-1"]["pawns"]) == (12, [3, 2])
    finally:
        store.close()
