"""Feeding a parsed trace through the referee, as ``keezbord replay`` prints it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from keezbord.host.events import Tick

from .heap import freeze_heap
from .state import Advice, AdviceWanted, Decision, Effect, Input, Leds, RefereeState
from .step import begin, step
from .trace import Setup


def run(
    setup: Setup,
    events: Iterable[Input],
    answer: Callable[[AdviceWanted], Advice | None] | None = None,
) -> Iterator[tuple[RefereeState, list[Effect]]]:
    """The referee's state and effects after the start and after every event, then after
    the settle time has passed at the end. ``answer``: the host's advisor, called at once
    for a hint the referee asks (hints "full"), its answer fed as the next input; without
    it only the trace's own ``advice`` inputs give hints."""
    state, effects = begin(setup)
    freeze_heap()
    yield state, effects
    last = 0
    for ev in events:
        state, effects = step(state, ev)
        last = ev.t
        yield state, effects
        for e in effects:
            if (
                answer is not None
                and isinstance(e, AdviceWanted)
                and (advice := answer(e)) is not None
            ):
                state, more = step(state, advice)
                yield state, more
    state, effects = step(state, Tick(max(last, state.now) + state.config.settle_ms))
    yield state, effects


def replay(
    setup: Setup, events: Iterable[Input], *, leds: bool = False, lang: str = "en"
) -> Iterator[dict[str, Any]]:
    """The JSON lines of ``keezbord replay``: decisions (and LED frames), then the state."""
    state: RefereeState | None = None
    for state_now, effects in run(setup, events):
        state = state_now
        for e in effects:
            if isinstance(e, Decision):
                yield e.to_dict(lang)
            elif leds and isinstance(e, Leds):
                yield e.to_dict()
    assert state is not None
    yield {"type": "state", "position": state.pos.to_dict()}
