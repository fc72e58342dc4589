"""Hints "full" from the search (issue 15): the referee names the capture a player should
make, lights its pawn and target in role "hint", and gives the same hints on a replay."""

from __future__ import annotations

from referee_traces import ev, move, play, position

# Red (seat 0) on T9 and T40, blue on T14 (two holes from its home); red to play a 5.
CAPTURE = position(0, ["T9", "T40", "N", "N"], ["T14", "N", "N", "N"], ["N"] * 4, ["N"] * 4)


def setup(hints: str) -> dict[str, object]:
    return {"seats": 4, "profile": "standard", "dealer": 3, "position": CAPTURE, "hints": hints}


def test_full_hint_is_the_capture_with_its_reason_and_leds() -> None:
    r = play(setup("full"), ev(1000, "card", "5"))
    [hint] = r.of("hint")
    assert hint["move"] == "5 0:T9-T14" and hint["holes"] == ["T9", "T14"]
    assert 0.0 < hint["win"] < 1.0
    leds = r.frame_at(1000)
    assert leds["T9"] == "hint" and leds["T14"] == "hint" and leds["T40"] == "source"
    # Once the pawn is lifted its legal targets show as usual.
    r = play(setup("full"), ev(1000, "card", "5"), ev(1100, "lift", "T40"))
    assert r.frame_at(1100).get("T45") == "target"


def test_hints_are_the_same_on_a_replay() -> None:
    events = (ev(1000, "card", "5"), move(1100, "T40", "T45"), ev(3000, "card", "A"))
    a = play(setup("full"), *events).of("hint")
    b = play(setup("full"), *events).of("hint")
    assert a == b and len(a) == 2


def test_no_hint_decision_or_hint_leds_below_full() -> None:
    for level in ("off", "targets", "coach"):
        r = play(setup(level), ev(1000, "card", "5"))
        assert r.of("hint") == [] and "hint" not in r.frame_at(1000).values()
