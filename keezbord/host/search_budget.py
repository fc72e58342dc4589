"""Time budgets for the search (engine/search.py), which counts only playouts.

The engine never reads a clock, so that the same seed and budget give the same game.
The host measures how many playouts a second this machine plays (on positions from a
seeded greedy game) and turns a time budget into a playout budget once, at start-up.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache

from keezbord.engine.board import Board
from keezbord.engine.bots import GreedyBot
from keezbord.engine.game import Game
from keezbord.engine.search import Known, analyse


def sample_decisions(
    seats: int = 4, profile: str = "standard", seed: int = 7, count: int = 8
) -> list[tuple[Board, int, list[str]]]:
    """Decisions met in a seeded greedy game (every 6th turn): board, seat, hand."""
    game = Game(seats, profile, seed)
    bots = [GreedyBot(random.Random(seed + s)) for s in range(seats)]
    out: list[tuple[Board, int, list[str]]] = []
    turn = 0
    while not game.over and len(out) < count:
        game.exchange(bots)
        seat = game.table.turn
        assert seat is not None
        if turn % 6 == 3 and game.hands[seat]:
            out.append((Board(game.position.replace(turn=seat)), seat, game.hand(seat)))
        game.play_turn(bots[seat])
        turn += 1
    return out


@lru_cache(maxsize=8)
def playouts_per_second(seats: int = 4, profile: str = "standard", seconds: float = 0.4) -> float:
    """Playouts a second on this machine, measured for about ``seconds``."""
    decisions = sample_decisions(seats, profile)
    done = 0
    t0 = time.perf_counter()
    i = 0
    while True:
        board, seat, hand = decisions[i % len(decisions)]
        done += analyse(board, seat, hand, Known(), playouts=40, rng=random.Random(i)).playouts
        i += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds and i >= len(decisions):
            return done / elapsed


def playouts_for_ms(ms: float, seats: int = 4, profile: str = "standard") -> int:
    """The playout budget that takes about ``ms`` milliseconds a decision here."""
    return max(1, round(playouts_per_second(seats, profile) * ms / 1000))
