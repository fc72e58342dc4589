"""A journal holding a finished simulator game, as if the simulator had just played it:
the trace of a seeded bot game (host/sim/games.py) fed through a session, with the
simulator's record of the seat kinds, so a hub resumes it over and analyses it."""

from __future__ import annotations

from pathlib import Path

from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate
from keezbord.host.sim.table import SimStore, sim_setup

# Persons on seats 0 and 2 (their moves random: mistakes to try again), bots on 1 and 3.
KINDS = ["human", "random", "human", "random"]


def finished_sim_game(db: Path, seed: int = 4, kinds: list[str] | None = None) -> int:
    """The game's id in the journal ``db``."""
    setup, info = sim_setup(4, "standard", seed, kinds or KINDS)
    game = simulate(4, "standard", seed, max_turns=2000, quick_taps=0.0)
    session = GameSession.start(db, setup)
    for ev in game.events:
        session.feed(ev)
    session.tick(session.state.now + 1000)
    assert session.state.over
    gid = session.game
    session.close()
    store = SimStore(db)
    store.save(gid, info)
    store.close()
    return gid
