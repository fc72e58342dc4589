"""How the hub's first game is opened (hub.py's ``open_sim`` and ``open_run``): the
journal's latest game of the mode resumed, else a new one started, with its table of
hands (the simulator's, or a real board's virtual deal for seats far away)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any

from keezbord.engine.position import Position
from keezbord.host.session import GameSession
from keezbord.host.sim.table import HUMAN, SimInfo, SimStore, SimTable, sim_setup, sim_setup_at

from .options import HubOptions, latest_game, table_of

# A simulator game begun at a position: the position, and the hand of its seat on turn.
Start = tuple[Position, Sequence[str] | None]


def sim_game(
    options: HubOptions,
    seats: int,
    profile: str,
    kinds: list[str] | None,
    teams: str | None,
    hints: str,
    *,
    resume: bool,
    game: int | None,
    start: Start | None = None,
) -> tuple[GameSession, SimTable]:
    """The simulator's game: ``game``, else the journal's latest simulator game (if it
    has its table), else a new one dealt from ``options.seed`` (default random);
    ``start``: a new one begun at a position (``sim --setup``, the hand given to the
    seat on turn, if any), shown on the simulated board at once."""
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
        if start is not None:
            setup, info = sim_setup_at(start[0], seed, kinds or [HUMAN], hand=start[1], hints=hints)
        else:
            setup, info = sim_setup(
                seats, profile, seed, kinds or [HUMAN], teams=teams, hints=hints
            )
        session = GameSession.start(options.db, setup)
        store.save(session.game, info)
    pos = session.state.pos
    return session, SimTable(info, pos.seats, pos.profile.name, store, session.game)


def run_game(
    options: HubOptions, setup: dict[str, Any], *, resume: bool, deal: SimInfo | None
) -> tuple[GameSession, SimTable | None]:
    """A real board's game: the journal's latest game of ``setup``'s mode (a real
    board's by default), else ``setup`` started; ``deal``: a new game's virtual deal
    (seats far away, issue 28), which a resumed game finds in its own table."""
    session = None
    if resume and options.db.exists():
        with contextlib.suppress(ValueError):
            session = GameSession.resume(
                options.db, latest_game(options.db, setup.get("mode", "run"))
            )
    store = SimStore(options.db)
    if session is None:
        session = GameSession.start(options.db, setup)
        if deal is not None:
            store.save(session.game, deal)
    return session, table_of(store, session)
