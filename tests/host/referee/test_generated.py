"""Random complete bot games rendered as a person's hands would play them (bounces,
slides, counting, pauses, captures in any order, swaps) must be refereed exactly: every
intended move accepted in order, nothing else. Random wrong placements are never
accepted, always flagged, and putting them right resumes play."""

from __future__ import annotations

import random

import pytest
from engine_helpers import PROFILE_GAMES

from keezbord.engine.bots import RandomBot
from keezbord.engine.game import Game
from keezbord.engine.movegen import successors
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, Discard, HoleEvent, Tick
from keezbord.host.referee.recognize import board_sig, pos_sig
from keezbord.host.referee.replay import run
from keezbord.host.referee.state import Config, Decision, Sig
from keezbord.host.referee.step import new_game, step
from keezbord.host.referee.trace import setup_from_dict
from keezbord.host.sim.games import simulate
from keezbord.host.sim.physical import events_for_move

CASES = PROFILE_GAMES


@pytest.mark.parametrize(("seats", "profile", "seed"), CASES)
def test_generated_game_is_refereed_exactly(seats: int, profile: str, seed: int) -> None:
    sim = simulate(seats, profile, seed, max_turns=150)
    decisions: list[Decision] = []
    state = None
    for state, effects in run(setup_from_dict(sim.setup), sim.events):  # noqa: B007
        decisions += [e for e in effects if isinstance(e, Decision)]
    assert state is not None
    moves = [d for d in decisions if d.type == "move"]
    assert [(d.data["seat"], d.data["move"].split()[0]) for d in moves] == [
        (s, c) for s, c, _ in sim.moves
    ]
    flags = ("illegal", "second_card", "ambiguous")
    assert [d.type for d in decisions if d.type in flags] == []
    assert sum(1 for d in decisions if d.type == "discard" and d.data["ok"]) == sim.discards
    assert sum(1 for d in decisions if d.type == "card_rejected") == sim.rejected
    if sim.moves:
        assert state.pos.pawns == sim.moves[-1][2]
    assert state.winner == sim.winner


def _wrong_board(
    pos: Position, board: frozenset[str], legal: set[Sig], rng: random.Random
) -> tuple[str, str] | None:
    """A pawn of the seat to play moved to a random empty hole that no legal move gives."""
    seat = pos.controlled_seat(pos.turn)
    mine = sorted(h for h in board if h[0] == "T" and _owner(pos, h) == seat)
    empty = [f"T{i}" for i in range(pos.topology.ring) if f"T{i}" not in board]
    if not mine or not empty:
        return None
    for _ in range(20):
        src, dst = rng.choice(mine), rng.choice(empty)
        sig = (pos_sig(pos)[0] - {src} | {dst}, pos_sig(pos)[1])
        if sig not in legal:
            return src, dst
    return None


def _owner(pos: Position, hole: str) -> int | None:
    occ = pos.track[int(hole[1:])]
    return None if occ < 0 else occ % 16


@pytest.mark.parametrize("seed", range(6))
def test_wrong_placements_are_flagged_and_recoverable(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(4, "standard", 100 + seed)
    bots = [RandomBot(random.Random(seed * 7 + s)) for s in range(4)]
    state, _ = new_game(game.position, game.table.dealer, Config())
    t = 1000
    checked = 0
    while not game.over and len(game.history) < 60:
        seat = game.table.turn
        assert seat is not None
        pos = game.position.replace(turn=seat)
        turn = game.play_turn(bots[seat])
        if turn.move is None:
            state, _ = step(state, Discard(t, turn.discarded))
            t += 1000
            continue
        assert turn.card is not None and turn.after is not None
        state, _ = step(state, CardTap(t, turn.card))
        legal = {pos_sig(a) for _, a in successors(pos, turn.card)}
        wrong = _wrong_board(pos, state.sensed, legal, rng) if rng.random() < 0.5 else None
        if wrong is not None:
            src, dst = wrong
            effects: list[object] = []
            for wrong_e in (
                HoleEvent(t + 100, "lift", src),
                HoleEvent(t + 300, "place", dst),
                Tick(t + 3400),
            ):
                state, eff = step(state, wrong_e)
                effects += eff
            ds = [e for e in effects if isinstance(e, Decision)]
            assert [d for d in ds if d.type == "move"] == []
            flags = [d for d in ds if d.type == "illegal"]
            assert len(flags) == 1 and [dst, src] in flags[0].data["restore"]
            state, _ = step(state, HoleEvent(t + 3500, "lift", dst))
            state, _ = step(state, HoleEvent(t + 3600, "place", src))
            state, eff = step(state, Tick(t + 4200))
            assert state.flag is None
            assert board_sig(state.sensed, 4) == pos_sig(pos)
            assert not [e for e in eff if isinstance(e, Decision) and e.type == "move"]
            checked += 1
            t += 4300
        evs = events_for_move(pos, turn.move, turn.after, rng, t, state.sensed)
        for e in evs:
            state, _ = step(state, e)
        t = (evs[-1].t if evs else t) + 1500
        state, _ = step(state, Tick(t))
        assert state.history and state.history[-1].after.pawns == turn.after.pawns
        t += 100
    assert [(r.seat, r.card, r.after.pawns) for r in state.history] == [
        (h.seat, h.card, h.after.pawns) for h in game.history if h.move and h.after
    ]
    assert checked > 0
