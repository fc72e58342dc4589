"""A journal holding a finished simulator game (host/sim/games.py ``into_journal``), with
persons on seats 0 and 2 (their moves random: mistakes to try again), bots on 1 and 3."""

from __future__ import annotations

from pathlib import Path

from keezbord.host.sim.games import into_journal

KINDS = ["human", "random", "human", "random"]


def finished_sim_game(db: Path, seed: int = 4, kinds: list[str] | None = None) -> int:
    """The game's id in the journal ``db``."""
    return into_journal(db, seed, kinds or KINDS)
