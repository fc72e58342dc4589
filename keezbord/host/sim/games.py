"""Complete games played by bots, rendered as sensor traces: for tests, the benchmark
and the simulator. Each turn: a card tapped (sometimes first a card with no legal move,
which the referee must reject), the move rendered by physical.py; a hand with no playable
card is shown as a discard."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from keezbord.engine.bots import RandomBot
from keezbord.engine.game import Game
from keezbord.engine.movegen import has_legal_move
from keezbord.host.events import CardTap, Discard, Event
from keezbord.host.referee import board_of

from .physical import apply_events, events_for_move


@dataclass
class SimGame:
    setup: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    moves: list[tuple[int, str, tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    discards: int = 0
    rejected: int = 0
    winner: tuple[int, ...] | None = None


def simulate(
    seats: int, profile: str, seed: int, *, max_turns: int = 400, quick_taps: float = 0.2
) -> SimGame:
    """A bot game of ``seats`` under ``profile`` as a trace, with what the referee must
    decide: every move (seat, card, pawns after), discards, rejected cards, the winner.
    ``quick_taps``: how often the next card comes before the settle time has passed."""
    rng = random.Random(seed)
    game = Game(seats, profile, seed)
    bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(seats)]
    sim = SimGame(
        {"type": "setup", "seats": seats, "profile": profile, "dealer": game.table.dealer}
    )
    board = board_of(game.position)
    t = 1000
    while not game.over and len(game.history) < max_turns:
        game.exchange(bots)
        seat = game.table.turn
        assert seat is not None
        pos = game.position.replace(turn=seat)
        hand = game.hand(seat)
        dead = [c for c in hand if not has_legal_move(pos, c)]
        turn = game.play_turn(bots[seat])
        if turn.move is None:
            sim.events.append(Discard(t, turn.discarded))
            sim.discards += 1
            t += rng.randint(800, 2000)
            continue
        if dead and rng.random() < 0.3:
            sim.events.append(CardTap(t, rng.choice(dead)))
            sim.rejected += 1
            t += rng.randint(300, 900)
        assert turn.card is not None and turn.after is not None
        sim.events.append(CardTap(t, turn.card))
        evs = events_for_move(pos, turn.move, turn.after, rng, t, board)
        sim.events.extend(evs)
        board = apply_events(board, evs)
        sim.moves.append((seat, turn.card, turn.after.pawns))
        t = evs[-1].t if evs else t
        t += rng.randint(50, 490) if rng.random() < quick_taps else rng.randint(600, 2500)
    sim.winner = game.position.winner()
    return sim


def into_journal(
    db: Path, seed: int, kinds: Sequence[str], *, seats: int = 4, profile: str = "standard"
) -> int:
    """``simulate``'s game played into the journal ``db`` as the simulator would have
    played it: a simulator game (``mode`` sim, the seat kinds and seed in its ``web_sim``
    record; the same deals, so its hands are the table's), over when the trace ends. Its
    id. For tests and the benchmarks: a finished game to open, analyse or mine."""
    from keezbord.host.session import GameSession

    from .table import SimStore, sim_setup

    setup, info = sim_setup(seats, profile, seed, kinds)
    game = simulate(seats, profile, seed, max_turns=5000, quick_taps=0.0)
    session = GameSession.start(db, setup)
    for ev in game.events:
        session.feed(ev)
    session.tick(session.state.now + 1000)  # the last move settles
    gid = session.game
    session.close()
    store = SimStore(db)
    store.save(gid, info)
    store.close()
    return gid
