"""The referee's expectation of a card (recognize.py) is built on the fast board: the
same legal moves, in the same order, with the same positions after them as the engine's
``successors``, and the same boards to recognise, on positions met in real games of
every seat count and profile (issue 14: a 7 tapped costs no Position per move)."""

from __future__ import annotations

import random

import pytest

from keezbord.engine.bots import RandomBot
from keezbord.engine.cards import RANKS
from keezbord.engine.game import play_game
from keezbord.engine.movegen import successors
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.engine.profiles import PROFILES
from keezbord.host.referee.recognize import Expectation, pos_sig
from keezbord.host.referee.state import Sig


def _positions(seats: int, profile: str, n: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + s)) for s in range(seats)]
    history = play_game(seats, profile, seed, bots, max_turns=600).history
    afters = [t.after for t in history if t.after is not None]
    return [p.replace(turn=rng.randrange(seats)) for p in rng.sample(afters, min(n, len(afters)))]


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("seats", [4, 6, 8])
def test_expectation_is_successors(seats: int, profile: str) -> None:
    checked = 0
    for pos in _positions(seats, profile, 12, seats * 7 + len(profile)):
        for card in RANKS:
            want = list(successors(pos, card))
            exp = Expectation(pos, card)
            assert [m for m, _ in want] == exp.legal
            by_sig: dict[Sig, list[tuple[Move, Position]]] = {}
            for m, a in want:
                by_sig.setdefault(pos_sig(a), []).append((m, a))
            assert set(exp.by_sig) == set(by_sig)
            for sig, group in by_sig.items():
                assert exp.fitting(sig) == group
            assert exp.moves == want
            checked += len(want)
    assert checked > 100
