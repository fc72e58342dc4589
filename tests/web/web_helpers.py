"""Helpers shared by the web tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from keezbord.host.web.hub import Hub


def opening_seed(seat: int = 0, seats: int = 4) -> tuple[int, str]:
    """A deck seed whose first player is ``seat`` holding a card that brings a pawn out
    (A or K): a game the tests can open with a known move."""
    from keezbord.engine.game import Game

    for seed in range(1000):
        g = Game(seats, "standard", seed)
        if g.table.turn == seat:
            for card in ("K", "A"):
                if card in g.hands[seat]:
                    return seed, card
    raise AssertionError("no opening seed found")


def sim_hub_at(
    db: Path, seed: int, pawns: list[list[str]], kinds: list[str] | None = None, **opts: Any
) -> Callable[[], Hub]:
    """A simulator hub (4 seats, standard, dealt from ``seed``) whose game starts from
    ``pawns`` (location texts per seat: N, S, T<i>, H<k>), seat 0 to play: a capture or a
    7 split the tests can make at once."""
    from keezbord.host.session import GameSession
    from keezbord.host.sim.table import SimStore, SimTable, sim_setup
    from keezbord.host.web.hub import Hub, HubOptions

    def make() -> Hub:
        options = HubOptions(db=db, seed=seed, bot_speed=0.15, think_ms=300, **opts)
        setup, info = sim_setup(4, "standard", seed, kinds or ["human"] * 4)
        setup["position"] = {"seats": 4, "profile": "standard", "turn": 0, "pawns": pawns}
        session = GameSession.start(db, setup)
        store = SimStore(db)
        store.save(session.game, info)
        start = session.state.pos
        return Hub(session, options, SimTable(info, 4, "standard", store, session.game, start))

    return make
