"""The bots by name, for self-play, the simulator and the command line: above every bot
(``bots.py``'s random and greedy ones, ``search.py``'s search bot built on them)."""

from __future__ import annotations

import random
from typing import Literal

from .bots import Bot, GreedyBot, RandomBot
from .search import DEFAULT_PLAYOUTS, SearchBot

BotKind = Literal["random", "greedy", "search"]
BOT_KINDS: tuple[BotKind, ...] = ("random", "greedy", "search")


def make_bot(kind: str, rng: random.Random, *, playouts: int | None = None) -> Bot:
    """A bot by name; ``playouts``: the search bot's budget a decision (search.py)."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return GreedyBot(rng)
    if kind == "search":
        return SearchBot(rng, DEFAULT_PLAYOUTS if playouts is None else playouts)
    raise ValueError(f"unknown bot {kind!r} (random, greedy or search)")
