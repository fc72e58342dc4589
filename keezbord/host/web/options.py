"""The hub's options (what the commands and the tests set) and a game's table of hands
(hub.py opens them; opening.py the journal's latest game of a mode)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from keezbord.host.advisor import DEFAULT_COACH_MS, DEFAULT_HINT_MS
from keezbord.host.roles import Tokens, TokenStore
from keezbord.host.session import GameSession
from keezbord.host.sim.table import SimStore, SimTable

Mode = Literal["sim", "run"]


@dataclass
class HubOptions:
    mode: Mode = "sim"
    db: Path = Path("keezbord.sqlite")
    bot_speed: float = 1.0  # multiplies every bot delay (tests use less)
    think_ms: int = 700  # a bot's pause before it taps its card
    # The page's links (roles.py); None: every page is the referee (tests building a hub
    # by hand only: both commands always give tokens).
    tokens: Tokens | None = None
    token_store: TokenStore | None = None  # where new tokens are kept (run --state-dir)
    seed: int | None = None  # first game's seed (default random)
    tick_ms: int = 40
    health_ms: int = 1000  # how often the health is checked for a change to broadcast
    hint_ms: int = DEFAULT_HINT_MS  # search budgets (hints "full", "coach"), made playouts
    coach_ms: int = DEFAULT_COACH_MS  # once a process (host/advisor.py, search_budget.py)
    defaults: dict[str, Any] = field(default_factory=dict)  # new-game defaults
    public_url: str | None = None  # the page's address from outside (docs/remote.md)
    analysis_playouts: int | None = None  # a finished game analysed (web/analyst.py); 0: not
    analysis_jobs: int | None = None  # its processes (None: every core, parallel.py)


def table_of(store: SimStore, session: GameSession) -> SimTable | None:
    """The game's table of hands (the simulator's, or a real board's virtual deal), from
    ``store`` (closed if the game has none: its cards are real)."""
    info = store.load(session.game)
    if info is None:
        store.close()
        return None
    pos = session.state.pos
    return SimTable(info, pos.seats, pos.profile.name, store, session.game)
