"""An all-bot simulator game cut off in the middle of a bot's turn (the power, Ctrl-C)
goes on when it is resumed: the bot plays the card it had tapped, and the pawns it had in
hand are put back first (they used to keep the game waiting for ever)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from web_helpers import run_async

from keezbord.host.events import CardTap, HoleEvent
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate
from keezbord.host.sim.table import SimInfo, SimStore, sim_setup
from keezbord.host.web.hub import Hub, HubOptions

SEATS, SEED = 4, 5


def _cut_off(db: Path, moves: int, then: int) -> tuple[int, str, int]:
    """A journal of a random-bot simulator game: ``moves`` moves, then the next turn's
    card tap and ``then`` of its hole events (then the power goes). Its seat and card,
    and the moves made (a tap may settle the move before it)."""
    game = simulate(SEATS, "standard", SEED, max_turns=400)
    kinds = ["random"] * SEATS
    setup, _ = sim_setup(SEATS, "standard", SEED, kinds)
    assert setup["dealer"] == game.setup["dealer"]
    session = GameSession.start(db, setup)
    events = list(game.events)
    i = 0
    while len(session.state.history) < moves:
        session.feed(events[i])
        session.tick(events[i].t)
        i += 1
    while not isinstance(events[i], CardTap):  # on to the next card
        session.feed(events[i])
        i += 1
    assert len(session.state.history) == moves
    tap = events[i]
    assert isinstance(tap, CardTap) and tap.card is not None
    session.feed(tap)
    for ev in events[i + 1 : i + 1 + then]:
        assert isinstance(ev, HoleEvent)
        session.feed(ev)
    seat = session.state.seat
    assert seat is not None and session.state.card == tap.card
    assert bool(session.state.lifted) == (then > 0)
    gid, done = session.game, len(session.state.history)
    session.close()  # the power goes: nothing more is written
    store = SimStore(db)
    store.save(gid, SimInfo(SEED, kinds, None))
    store.close()
    return seat, tap.card, done


async def _resume_and_watch(db: Path, seconds: float) -> Hub:
    opts = HubOptions(mode="sim", db=db, bot_speed=0.05, think_ms=100, seed=SEED)
    hub = Hub.open_sim(opts, seats=SEATS, kinds=["random"] * SEATS, resume=True)
    await hub.start()
    try:
        await asyncio.sleep(seconds)
    finally:
        await hub.stop()  # closes the journal too
    return hub


@pytest.mark.parametrize("then", [0, 1])  # the card tapped; and a pawn lifted too
def test_a_bot_turn_cut_off_goes_on_after_a_resume(tmp_path: Path, then: int) -> None:
    db = tmp_path / "cut.sqlite"
    moves = 12
    seat, card, done = _cut_off(db, moves, then)
    hub = run_async(lambda: _resume_and_watch(db, 6.0))
    history = hub.session.state.history
    assert len(history) >= done + 3, "the game did not go on"
    # The cut-off turn was finished by its bot, with the card it had tapped.
    assert (history[done].seat, history[done].card) == (seat, card)
    assert hub.session.state.flag is None
