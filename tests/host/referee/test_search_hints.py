"""Hints "full" from the search (issue 15): the referee names the capture a player should
make, lights its pawn and target in role "hint", and gives the same hints on a replay."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from referee_traces import ev, move, play, position

from keezbord.host.advisor import answer
from keezbord.host.events import CardTap
from keezbord.host.referee.state import AdviceWanted, Decision, Effect, RefereeState
from keezbord.host.referee.step import new_game, step
from keezbord.host.referee.trace import TraceError, parse_trace, setup_from_dict
from keezbord.host.session import GameSession

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


# -- the search off the step (issue 14/15): the step asks, the host answers ---------------


def _tapped(hints: str = "full") -> tuple[RefereeState, list[Effect]]:
    s = setup_from_dict({"type": "setup", **setup(hints)})
    state, _ = new_game(s.position, s.dealer, s.config, turn=s.turn)
    return step(state, CardTap(1000, "5"))


def test_the_step_asks_for_advice_and_never_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    import keezbord.engine.advice as advice_mod

    def no_search(*a: object, **k: object) -> None:
        raise AssertionError("the referee step searched")

    monkeypatch.setattr(advice_mod, "analyse", no_search)  # what advise searches with
    state, effects = _tapped()
    [wanted] = [e for e in effects if isinstance(e, AdviceWanted)]
    assert (wanted.seat, wanted.card, wanted.n) == (0, "5", 0)
    assert wanted.pos == state.pos and wanted.known.hand_sizes == state.table.cards_left
    assert not [e for e in effects if isinstance(e, Decision) and e.type == "hint"]
    assert state.hint == () and "hint" not in state.leds.values()
    # Without an answer from the host, a trace shows no hint.
    assert play(setup("full"), ev(1000, "card", "5"), advise=False).of("hint") == []
    for level in ("off", "targets", "coach"):
        assert not [e for e in _tapped(level)[1] if isinstance(e, AdviceWanted)]


def test_the_answer_comes_back_as_an_input_and_lights_the_hint() -> None:
    state, effects = _tapped()
    [wanted] = [e for e in effects if isinstance(e, AdviceWanted)]
    advice = answer(wanted, 150, t=1080)
    assert advice is not None and advice.move == "5 0:T9-T14"
    state, effects = step(state, advice)
    [hint] = [e for e in effects if isinstance(e, Decision) and e.type == "hint"]
    assert hint.data["holes"] == ["T9", "T14"] and hint.t == 1080
    assert hint.reason is not None and "2 gaten van huis" in hint.reason.nl
    assert state.hint == ("T9", "T14") and state.leds["T14"] == "hint"
    # The same answer again is not a second hint.
    _, again = step(state, advice)
    assert not [e for e in again if isinstance(e, Decision) and e.type == "hint"]


def test_a_late_or_wrong_answer_is_ignored() -> None:
    state, effects = _tapped()
    [wanted] = [e for e in effects if isinstance(e, AdviceWanted)]
    advice = answer(wanted, 150, t=1100)
    assert advice is not None
    wrong = [
        replace(advice, card="6"),  # another card than the one tapped
        replace(advice, n=1),  # asked at another move
        replace(advice, seat=1),
        replace(advice, move="5 0:T40-T45 extra"),  # not notation
        replace(advice, move="5 0:T9-T13"),  # not a legal move of the card
    ]
    for bad in wrong:
        after, eff = step(state, bad)
        assert after.hint == () and not [e for e in eff if isinstance(e, Decision)], bad
    # The player moved before the search answered: the hint is for a turn gone by.
    r = play(
        setup("full"),
        ev(1000, "card", "5"),
        move(1100, "T40", "T45"),
        ev(3000, "tick"),
        advise=False,
    )
    assert r.moves == ["5 0:T40-T45"]
    late, eff = step(r.state, replace(advice, t=3100))
    assert late.hint == () and not [e for e in eff if isinstance(e, Decision)]


def test_advice_is_journalled_and_a_resume_shows_it_without_searching(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = GameSession.start(tmp_path / "j.db", {"type": "setup", **setup("full")})
    [wanted] = [e for e in session.feed(CardTap(1000, "5")) if isinstance(e, AdviceWanted)]
    advice = answer(wanted, 150, t=1090)
    assert advice is not None
    session.feed(advice)
    assert session.state.hint == ("T9", "T14")
    trace = session.export_trace()
    session.close()
    assert json.loads(trace[-1])["type"] == "advice"
    _, inputs = parse_trace(trace)
    assert inputs[-1] == advice  # the input round-trips through the trace format
    import keezbord.engine.advice as advice_mod

    monkeypatch.setattr(advice_mod, "analyse", lambda *a, **k: pytest.fail("searched"))
    resumed = GameSession.resume(tmp_path / "j.db")
    assert resumed.state.hint == ("T9", "T14")
    assert resumed.recent[-1]["type"] == "hint" and resumed.recent[-1]["move"] == advice.move
    resumed.close()


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": 0, "card": "5", "n": 0, "move": "5 0:T9-T14", "holes": ["T9"], "win": 0.5},
        {"seat": 0, "card": "Z", "n": 0, "move": "x", "holes": [], "win": 0.5},
        {"seat": "0", "card": "5", "n": 0, "move": "x", "holes": [], "win": 0.5},
        {"seat": 0, "card": "5", "n": 0, "move": "x", "holes": [1], "win": 0.5},
    ],
)
def test_a_malformed_advice_line_is_a_trace_error(bad: dict[str, object]) -> None:
    line = json.dumps({"t": 5, "type": "advice", "reason": {"nl": "a"}, **bad})
    with pytest.raises(TraceError):
        parse_trace([json.dumps({"type": "setup", **setup("full")}), line])
