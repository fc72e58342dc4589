"""How the hub's first game is opened (hub.py's ``open_sim`` and ``open_run``): the
journal's latest game of the mode resumed, else a new one started, with its table of
hands (the simulator's, or a real board's virtual deal for seats far away)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from keezbord.engine.position import Position
from keezbord.host.journal import Journal
from keezbord.host.session import GameSession
from keezbord.host.sim.table import HUMAN, SimInfo, SimStore, SimTable, sim_setup, sim_setup_at

from .options import HubOptions, table_of

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
    session: GameSession | None = None
    if resume and options.db.exists():
        session = resumed(options, game if game is not None else latest(options, "sim"))
    store = SimStore(options.db)  # (after: it would make the file, tables of its own only)
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
        session = resumed(options, latest(options, str(setup.get("mode", "run"))))
    store = SimStore(options.db)
    if session is None:
        session = GameSession.start(options.db, setup)
        if deal is not None:
            store.save(session.game, deal)
    return session, table_of(store, session)


def latest(options: HubOptions, mode: str) -> int | None:
    """The journal's latest game of ``mode``; None: none yet (a new game then)."""
    with Journal(options.db, readonly=True) as journal:
        return journal.latest_game(mode)


def resumed(options: HubOptions, game: int | None) -> GameSession | None:
    """``game`` resumed (None: no game to resume). Never a new game over a damaged one:
    a game that does not read at all raises DamagedGame (the command says the fix); a
    damaged input is set aside and the log says so once (session.damage: the page,
    the health, doctor)."""
    if game is None:
        return None
    session = GameSession.resume(options.db, game)
    if session.damage is not None:
        print(f"keezbord: {session.damage.line()}", flush=True)
    return session
