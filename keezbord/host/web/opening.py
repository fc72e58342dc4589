"""Opening a game for the hub (hub.py): the simulator's latest game resumed or a new one
started, a real board's latest game of its mode resumed or its setup started."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.host.journal import Journal, JournalError
from keezbord.host.session import GameSession
from keezbord.host.sim.table import HUMAN, SimStore, SimTable, sim_setup

if TYPE_CHECKING:
    from .hub import HubOptions


def latest_game(db: Path, mode: str) -> int:
    """The journal's latest game of ``mode``; JournalError (a ValueError) if none."""
    with Journal(db, readonly=True) as journal:
        gid = journal.latest_game(mode)
    if gid is None:
        raise JournalError(f"{db}: no {mode} game")
    return gid


def sim_session(
    options: HubOptions,
    seats: int,
    profile: str,
    kinds: list[str] | None,
    teams: str | None,
    hints: str,
    resume: bool,
    game: int | None,
) -> tuple[GameSession, SimTable]:
    """The simulator's session and table: ``game`` resumed, else the journal's latest
    simulator game, or a new one."""
    store = SimStore(options.db)
    session: GameSession | None = None
    if resume and options.db.exists():
        with contextlib.suppress(ValueError):
            session = GameSession.resume(
                options.db, game if game is not None else latest_game(options.db, "sim")
            )
    info = store.load(session.game) if session is not None else None
    if session is None or info is None:
        if session is not None:
            session.close()
        seed = options.seed if options.seed is not None else random.randrange(2**31)
        setup, info = sim_setup(seats, profile, seed, kinds or [HUMAN], teams=teams, hints=hints)
        session = GameSession.start(options.db, setup)
        store.save(session.game, info)
    pos = session.state.pos
    return session, SimTable(info, pos.seats, pos.profile.name, store, session.game)


def run_session(options: HubOptions, setup: dict[str, Any], resume: bool) -> GameSession:
    """A real board's session: the journal's latest game of ``setup``'s mode (a real
    board's by default), else ``setup`` started."""
    session = None
    if resume and options.db.exists():
        with contextlib.suppress(ValueError):
            session = GameSession.resume(
                options.db, latest_game(options.db, setup.get("mode", "run"))
            )
    return session if session is not None else GameSession.start(options.db, setup)
