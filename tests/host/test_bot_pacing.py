"""A sped-up simulator bot (``--bot-speed`` below 1) still moves pawns as a hand can:
the referee takes a pawn lifted and put down quicker than BOUNCE_MS for a bounce, so a
jack swap played at 0.2 (the documented "five times as fast") used to leave the game
waiting for ever. ``paced`` keeps every hand's gap at least HAND_MS long."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest

from keezbord.engine.movegen import apply
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.referee import BOUNCE_MS, Decision
from keezbord.host.referee.step import new_game, step
from keezbord.host.sim.bot_player import HAND_MS, paced
from keezbord.host.sim.physical import events_for_move

# The game that stalled: seat 7 swaps its pawn on T118 with seat 2's on T28.
SWAP_POS = Position.from_dict(
    {
        "seats": 8,
        "turn": 7,
        "pawns": [["N"] * 4] * 2
        + [["N", "N", "N", "T28"]]
        + [["N"] * 4] * 4
        + [["N", "N", "N", "T118"]],
    }
)
SWAP = "J 7:T118<>2:T28"


def _swap_events(seed: int) -> list[HoleEvent]:
    move = parse_move(SWAP, SWAP_POS.topology)
    after = apply(SWAP_POS, "J", move)  # the switches as before: the pawns change seats
    evs = events_for_move(SWAP_POS, move, after, random.Random(seed), 0)
    assert all(isinstance(e, HoleEvent) for e in evs)
    return [e for e in evs if isinstance(e, HoleEvent)]


def _recorded(events: Sequence[HoleEvent], at: Sequence[int]) -> bool:
    """Does the referee record the swap from ``events`` at times ``at`` (ms)?"""
    state, _ = new_game(SWAP_POS, 6)
    assert state.pos.turn == 7
    t0 = 1000
    state, _ = step(state, CardTap(t0, "J"))
    for ev, t in zip(events, at, strict=True):
        state, _ = step(state, HoleEvent(t0 + 50 + t, ev.action, ev.hole))
    state, effects = step(state, Tick(t0 + 50 + at[-1] + 5000))
    moves = [e for e in effects if isinstance(e, Decision) and e.type == "move"]
    return bool(state.history) and state.history[-1].text == SWAP and len(moves) <= 1


def _scaled(times: Sequence[int], speed: float) -> list[int]:
    return [int(t * speed) for t in times]  # what the bot did before ``paced``


@pytest.mark.parametrize("speed", [0.05, 0.2, 0.5])
def test_a_sped_up_swap_is_recorded(speed: float) -> None:
    for seed in range(40):
        evs = _swap_events(seed)
        assert _recorded(evs, paced([e.t for e in evs], speed)), (seed, speed)


def test_plain_scaling_loses_swaps_at_0_2() -> None:
    """The defect ``paced`` fixes: scaled straight, some swaps read as bounces."""
    lost = [
        s for s in range(40) if not _recorded(e := _swap_events(s), _scaled([x.t for x in e], 0.2))
    ]
    assert lost


@pytest.mark.parametrize("speed", [0.02, 0.2, 1.0, 2.0])
def test_paced_keeps_a_hands_gaps_and_the_bounces(speed: float) -> None:
    scale: Callable[[int], int] = lambda gap: int(gap * speed)  # noqa: E731
    for seed in range(60):
        times = [e.t for e in _swap_events(seed)]
        out = paced(times, speed)
        assert out[0] == int(times[0] * speed)
        for (a, b), (x, y) in zip(itertools.pairwise(times), itertools.pairwise(out), strict=True):
            gap = b - a
            if gap < HAND_MS:  # a bounce (1 ms): as it was, whatever the speed
                assert y - x == max(scale(gap), gap)
            else:
                assert y - x == max(scale(gap), HAND_MS) >= HAND_MS > BOUNCE_MS
    assert paced([10, 200, 201, 500], 1.0) == [10, 200, 201, 500]
