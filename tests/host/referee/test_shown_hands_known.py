"""The hands shown on a discard are known to every seat (issue 38): the referee keeps
them in its state, and the hint it asks for (``AdviceWanted.known``) and the web coach
sample the hidden hands without them, as the game's analysis does. Before, both knew
only the cards played, and sampled the shown cards into the others' hands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from referee_traces import ev, move, play, position

from keezbord.engine.search import Known, sample_hands
from keezbord.host.events import CardTap
from keezbord.host.referee.state import AdviceWanted, ShownHand
from keezbord.host.referee.step import step

# Red (seat 0) has every pawn in the nest and leads: with no ace or king it shows its
# hand, all four 2s of the deck among it. Blue (seat 1) then plays a 5 from T20.
ROWS = (["N"] * 4, ["T20", "N", "N", "N"], ["N"] * 4, ["N"] * 4)
SHOWN = ("2", "2", "2", "2", "3")


def setup(hints: str) -> dict[str, Any]:
    return {"seats": 4, "dealer": 3, "position": position(0, *ROWS), "hints": hints}


def test_the_referee_keeps_the_shown_hand_and_the_hint_samples_without_it() -> None:
    r = play(setup("full"), ev(1000, "discard", SHOWN), advise=False)
    assert r.of("discard")[0]["ok"] and r.state.table.turn == 1
    assert r.state.shown == (ShownHand(0, SHOWN, 0, 0),)
    # Blue taps its 5: the search the referee asks for knows red's hand.
    state = r.state
    state, effects = step(state, CardTap(3000, "5"))
    [wanted] = [e for e in effects if isinstance(e, AdviceWanted)]
    assert sorted(wanted.known.seen) == sorted(SHOWN)
    # So no sampled hand of the others holds a 2 (every 2 of the deck was shown).
    for seed in range(50):
        hands = sample_hands(4, 1, ["5"], wanted.known, 3, random.Random(seed))
        assert not any("2" in h for h in hands)
    # Without the shown hand (as before) the sampling gives the others 2s.
    blind = Known((), wanted.known.hand_sizes)
    assert any(
        "2" in h
        for seed in range(50)
        for h in sample_hands(4, 1, ["5"], blind, 3, random.Random(seed))
    )


def test_the_coach_judges_with_the_shown_hand_known(monkeypatch: pytest.MonkeyPatch) -> None:
    import keezbord.host.web.coach as coach_mod

    told: list[Known] = []

    def spy(pos: object, hand: object, card: object, mv: object, known: Known, **k: object) -> None:
        told.append(known)

    monkeypatch.setattr(coach_mod, "coach", spy)
    r = play(
        setup("coach"), ev(1000, "discard", SHOWN), ev(3000, "card", "5"), move(3100, "T20", "T25")
    )
    assert r.moves == ["5 1:T20-T25"]
    record = {"type": "move", "seat": 1}
    assert coach_mod.coach_remark(r.state, record, None, None, 10) is None
    [known] = told
    assert sorted(known.seen) == sorted(SHOWN)  # the 5 is the move judged: not seen before it
