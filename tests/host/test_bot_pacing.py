"""A sped-up simulator bot (``--bot-speed`` below 1) still moves pawns as a hand can:
the referee takes a pawn lifted and put down quicker than BOUNCE_MS for a bounce, so a
jack swap played at 0.2 (the documented "five times as fast") used to leave the game
waiting for ever. ``paced`` keeps every hand's gap at least HAND_MS long, counted from
the event really fed. And the table puts down the pawns a bot had in hand when its turn
was cut off (tests/web/test_sim_restart.py has the whole resume)."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable, Sequence

import pytest

from keezbord.engine.movegen import apply
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.referee import BOUNCE_MS, Decision, board_of
from keezbord.host.referee.step import new_game, step
from keezbord.host.sim.bot_player import HAND_MS, BotPlayer, paced
from keezbord.host.sim.physical import events_for_move
from keezbord.host.sim.restore import put_back

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


class _LateHost:
    """A host whose loop is once busy for ``lag`` ms while an event is fed (a checkpoint
    on an SD card, a long page state): the clock is real, the delay too."""

    def __init__(self, lag_at: int, lag: int) -> None:
        self.t0 = time.monotonic()
        self.fed: list[HoleEvent] = []
        self.lag_at, self.lag = lag_at, lag

    def now(self) -> int:
        return int((time.monotonic() - self.t0) * 1000)

    def feed(self, event: object) -> None:
        assert isinstance(event, HoleEvent)
        self.fed.append(event)
        if len(self.fed) == self.lag_at:
            time.sleep(self.lag / 1000)  # blocks the loop, as busy work does

    def track(self, ev: HoleEvent, seat_hint: int | None = None) -> None:
        pass


@pytest.mark.parametrize("lag_at", [1, 2, 3])
def test_a_late_loop_does_not_shorten_the_next_gap(lag_at: int) -> None:
    """Each gap is counted from the event really fed: a loop busy for 100 ms after one
    event (so the next is fed late) must not make the one after that come sooner than a
    hand's gap."""
    evs = _swap_events(3)
    host = _LateHost(lag_at, 100)
    bots = BotPlayer(host, None, speed=0.2)  # type: ignore[arg-type]  # no table needed
    asyncio.run(bots.play_events(evs, {}))
    got = [e.t for e in host.fed]
    want = paced([e.t for e in evs], 0.2)
    assert [(e.action, e.hole) for e in host.fed] == [(e.action, e.hole) for e in evs]
    for (a, b), (x, y) in zip(itertools.pairwise(want), itertools.pairwise(got), strict=True):
        assert y - x >= b - a - 1  # never shorter than paced (1 ms: the clock's rounding)
    assert _recorded(host.fed, [e.t - got[0] for e in host.fed])


def test_putting_back_places_the_pawns_in_hand_first() -> None:
    """A turn cut off with a pawn in hand: the table puts it down (no lift to pair it
    with), then pairs a lift and a place for a pawn on a wrong hole."""
    pos = SWAP_POS
    sensed = board_of(pos) - {"T118", "T28"} | {"T30"}  # one pawn in hand, one on T30
    steps = put_back(pos, sensed)
    assert steps[0] == ("place", "T118")  # in hand: put down first
    assert steps[1:] == [("lift", "T30"), ("place", "T28")]
    assert put_back(pos, board_of(pos)) == []
