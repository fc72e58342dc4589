"""What keeps a long game's positions small (docs/engine.md, "Positions a long game
keeps"): slots, a track cached only until dropped, one-hole looks that build no track,
rows shared with the position before, and a simulator game that keeps no record."""

from __future__ import annotations

import pickle
import random
import weakref
from pathlib import Path

import pytest
from engine_helpers import random_position

from keezbord.engine import Game, RandomBot
from keezbord.engine.position import EMPTY, Position
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def _has_track(pos: Position) -> bool:
    """A track cached on ``pos`` (in a slot; a dict once, before positions had slots)."""
    return hasattr(pos, "_track") or "track" in getattr(pos, "__dict__", {})


@pytest.mark.parametrize("seats", [2, 4, 6, 8])
def test_at_reads_one_hole_as_the_track_does(seats: int) -> None:
    rng = random.Random(seats)
    occupied = 0
    for _ in range(200):
        pos = Position.from_dict(random_position(rng, seats))
        fresh = Position.from_dict(pos.to_dict())  # no track built yet
        seen = [fresh.at(h) for h in range(pos.topology.ring)]
        assert not _has_track(fresh)  # at() built none
        assert seen == list(pos.track)
        occupied += sum(v != EMPTY for v in seen)
    assert occupied > 200


def test_a_dropped_track_is_rebuilt_the_same() -> None:
    pos = Position.from_text("NNST20/NNNT33/NT60H3H4/NNNN 0 standard")
    track = pos.track
    assert pos.track is track  # kept
    pos.drop_caches()
    pos.drop_caches()  # twice is harmless
    assert not _has_track(pos)
    assert pos.track == track and pos.at(0) == track[0] == 16  # seat 0 fresh on T0


def test_a_position_is_a_small_value() -> None:
    pos = Position.from_text("NNST20/NNNT33/NT60H3H4/NNNN 1 standard")
    assert not hasattr(pos, "__dict__")
    hash(pos), pos.track
    back = pickle.loads(pickle.dumps(pos))
    assert back == pos and hash(back) == hash(pos) and back.track == pos.track
    assert weakref.ref(pos)() is pos
    with pytest.raises(AttributeError):
        pos.turn = 2  # type: ignore[misc]


def test_the_referees_history_keeps_lean_positions(tmp_path: Path) -> None:
    """Positions behind the current one hold no track, and a move's position shares the
    rows it left alone with the one before."""
    game = simulate(8, "standard", 4, max_turns=120)
    session = GameSession.start(tmp_path / "j.db", game.setup)
    for ev in game.events:
        session.feed(ev)
        session.tick(ev.t)
    history = session.state.history
    assert len(history) > 60
    for rec in history[:-1]:
        assert not _has_track(rec.before) and not _has_track(rec.after)
    shared = sum(
        a is b
        for rec in history
        for a, b in zip(rec.before.pawns, rec.after.pawns, strict=True)
        if a == b
    )
    equal = sum(
        a == b for rec in history for a, b in zip(rec.before.pawns, rec.after.pawns, strict=True)
    )
    assert shared == equal
    session.close()


@pytest.mark.parametrize(
    ("seats", "profile", "seed"), [(4, "standard", 1), (6, "keezspel", 2), (8, "bordspel", 3)]
)
def test_a_game_without_record_plays_the_same(seats: int, profile: str, seed: int) -> None:
    games = [Game(seats, profile, seed), Game(seats, profile, seed, record=False)]
    bots = [[RandomBot(random.Random(seed * 31 + s)) for s in range(seats)] for _ in games]
    while not games[0].over and len(games[0].history) < 300:
        for g, b in zip(games, bots, strict=True):
            g.exchange(b)
            g.play_turn(b[g.to_play or 0])
        assert games[0].position == games[1].position and games[0].hands == games[1].hands
    kept, lean = games
    assert [(t.seat, t.card, t.move, t.discarded) for t in kept.history] == [
        (t.seat, t.card, t.move, t.discarded) for t in lean.history
    ]
    assert all(t.after is None for t in lean.history)
    kept.pop()
    with pytest.raises(IndexError, match="no record kept"):
        lean.pop()
