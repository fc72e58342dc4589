"""The engine against an independent reading of RULES.md (reference_rules.py), over
random positions of every seat count and profile, for all 13 cards. Both must give the
same set of resulting positions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import reference_rules as ref
from engine_helpers import random_position

from keezbord.engine.cards import RANKS
from keezbord.engine.movegen import successors
from keezbord.engine.position import InvalidPositionError, Position


@pytest.mark.parametrize("seed", range(6))
def test_engine_agrees_with_reference_on_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    while checked < 120:
        d = random_position(rng)
        try:
            pos = Position.from_dict(d)
        except InvalidPositionError:
            continue
        checked += 1
        for card in RANKS:
            got = {tuple(tuple(r) for r in a.pawn_strings()) for _, a in successors(pos, card)}
            want = ref.results(d, card)
            assert got == want, (
                json.dumps(d),
                card,
                sorted(got - want)[:2],
                sorted(want - got)[:2],
            )


def test_reference_agrees_with_conformance_vectors(shared_dir: Any) -> None:
    """The reference itself is checked against the independent conformance vectors."""
    path = shared_dir / "conformance" / "moves.jsonl"
    for line in path.read_text().splitlines():
        vec = json.loads(line)
        want = {tuple(tuple(r) for r in e) for e in vec["expect"]}
        assert ref.results(vec["position"], vec["card"]) == want
