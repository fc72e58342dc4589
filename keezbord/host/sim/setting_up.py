"""A set-up carried out by the simulated person (follower.py, the set-up front end of
led_person.py) on the pure referee: for the tests, the benchmark and the simulator's
"set it up for me". The person reads the LED frame and the instruction line after each
of their instructions, and nothing else."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from keezbord.engine.bots import GreedyBot
from keezbord.engine.game import Game
from keezbord.engine.position import Position
from keezbord.host.events import HoleEvent
from keezbord.host.referee import (
    Decision,
    Effect,
    RefereeState,
    begin,
    board_of,
    colours,
    nest_seat,
    setup_from_dict,
    setup_view,
    step,
)

from .follower import LedFollower, told_of

MAX_INSTRUCTIONS = 400  # a set-up that needs more is stuck (the tests say so)


@dataclass
class SetUpRun:
    state: RefereeState
    t: int  # when the last event was made (ms)
    instructions: int = 0  # instructions and questions the person carried out
    events: list[HoleEvent] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.state.arranging is None


def carry_out(
    state: RefereeState, person: LedFollower, t: int, limit: int = MAX_INSTRUCTIONS
) -> SetUpRun:
    """Feed the person's events for each instruction until the set-up ends (or
    ``limit`` instructions were carried out, or the person has nothing to do)."""
    run = SetUpRun(state, t)
    while run.state.arranging is not None and run.instructions < limit:
        view = setup_view(run.state.arranging)
        evs = person.respond(run.state.leds, told_of(view), run.t)
        run.instructions += 1
        if not evs:
            break
        for ev in evs:
            run.state, effects = step(run.state, ev)
            run.decisions += _decisions(effects)
        run.events += evs
        run.t = evs[-1].t
    return run


def _decisions(effects: list[Effect]) -> list[Decision]:
    return [e for e in effects if isinstance(e, Decision)]


def mid_game(
    seats: int, seed: int, profile: str = "standard", turns: tuple[int, int] = (20, 120)
) -> Position:
    """A position from the middle of a random bot game (greedy bots): a target to set up."""
    rng = random.Random(seed)
    game = Game(seats, profile, seed, record=False)
    bots = [GreedyBot(random.Random(seed * 31 + s)) for s in range(seats)]
    for _ in range(rng.randint(*turns)):
        if game.over:
            break
        seat = game.to_play
        assert seat is not None
        game.play_turn(bots[seat])
    return game.position


def person_for(pos: Position, board: frozenset[str], rng: random.Random, **kw: Any) -> LedFollower:
    """A person at a board that really shows ``pos`` on the holes ``board`` (nest pawns
    in any of their nest's holes), with ``kw`` (mistakes, pace) for the follower."""
    truth = dict(colours(pos))
    for h in board:
        s = nest_seat(h)
        if s is not None:
            truth[h] = s
    return LedFollower(truth, rng, pos.topology.ring, **kw)


def simulated_set_up(setup: dict[str, Any], seed: int) -> list[HoleEvent]:
    """The hole events of a person who sets the board up for ``setup`` (a setup line
    that begins in the set-up mode) from the board it believes, doing only what the
    lights and the instruction line say (``keezbord run --simulate SEED --setup``)."""
    parsed = setup_from_dict(setup)
    pos = parsed.position
    shown = parsed.believed or Position.start(
        pos.seats, pos.profile.name, segment=pos.topology.segment, teams=pos.teams
    )
    board = parsed.board if parsed.board is not None else board_of(shown)
    state, _ = begin(parsed)
    person = person_for(shown, board, random.Random(seed))
    return carry_out(state, person, 1000).events
