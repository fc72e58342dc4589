"""Issue 40, item 17: a wrong move was flagged about 3 s after it was made in the
simulator, a right one taken in 0.6 s. A pawn resting one hole short of a legal move's end
is a board a person passes through while counting hole by hole, so a real board gives it
the patience (3 s) before the flag. The simulator's clicks put a pawn down for good (setup
mode "sim"): there it is flagged at the settle time. A victim carried home before the
capturing pawn still gets the patience in both."""

from __future__ import annotations

from typing import Any

import pytest
from referee_traces import ev, play, position

# Red on T3, blue on T8; red to play.
POS = position(0, ["T3", "N", "N", "N"], ["T8", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def setup(mode: str) -> dict[str, Any]:
    return {"seats": 4, "profile": "standard", "dealer": 3, "position": POS, "mode": mode}


@pytest.mark.parametrize(("mode", "flagged_at"), [("sim", 1_700), ("run", 4_200)])
def test_a_pawn_one_short_waits_the_patience_only_on_a_real_board(
    mode: str, flagged_at: int
) -> None:
    # An 8 from T3 ends on T11; the pawn is put down on T10, one short.
    r = play(
        setup(mode),
        ev(500, "card", "8"),
        ev(1_000, "lift", "T3"),
        ev(1_200, "place", "T10"),
        ev(6_000, "tick"),
    )
    [flag] = r.of("illegal")
    assert flag["t"] == flagged_at
    assert "8 steps" in flag["reason"]


@pytest.mark.parametrize("mode", ["sim", "run"])
def test_a_victim_carried_home_first_waits_the_patience_in_both(mode: str) -> None:
    # A 5 from T3 captures blue on T8: blue carried home first, then red waits a while.
    r = play(
        setup(mode),
        ev(500, "card", "5"),
        ev(1_000, "lift", "T8"),
        ev(1_200, "place", "N1.4"),
        ev(3_000, "lift", "T3"),
        ev(3_200, "place", "T8"),
        ev(6_000, "tick"),
    )
    assert r.of("illegal") == []
    assert [m["move"] for m in r.of("move")] == ["5 0:T3-T8"]
