"""Opponents for people: the named levels, from a first-game beginner to the strongest
(issue 38, section 5; docs/hints.md "Levels", with each level's Elo on the ladder).

A level is a bot and its budget: ``beginner`` (beginner.py: greedy's choices with the
mistakes people make in their first games), ``casual`` (the greedy bot: one move ahead,
no mistakes on purpose), ``club`` (the search at a small budget) and ``strong`` (the
search at its default budget). The page's words for each: static/levels.js.

``DEFAULT_LEVEL`` is the level of a newcomer's first game: ``casual``. In a team game the
newcomer's partner is a bot of the same level; a casual partner makes no mistake on
purpose (a beginner partner sends the newcomer's own pawns back), its moves are sensible
examples, and it is the weakest level that does not play badly on purpose (the searching
levels win most games against it). ``beginner`` is for a first game one wants to win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .beginner import BeginnerBot
from .bot_kinds import BOT_KINDS, make_bot
from .bots import Bot


@dataclass(frozen=True, slots=True)
class Level:
    name: str  # the level's name on the command line and in a seat list
    nl: str
    en: str
    bot: str  # "beginner" or a bot_kinds kind
    playouts: int | None  # the search's budget a decision (None: the bot does not search)
    elo: int  # on the 4-seat ladder, casual = 0 (docs/hints.md "Levels"; the page shows it)


LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner", "Beginner", "beginner", None, -226),
    Level("casual", "Huiskamer", "Casual", "greedy", None, 0),
    Level("club", "Club", "Club", "search", 30, 154),
    Level("strong", "Sterk", "Strong", "search", 300, 292),
)
LEVEL_NAMES: tuple[str, ...] = tuple(lv.name for lv in LEVELS)
DEFAULT_LEVEL = "casual"
# Every name a seat's bot may be given: the bots by kind and the levels.
BOT_NAMES: tuple[str, ...] = (*BOT_KINDS, *(n for n in LEVEL_NAMES if n not in BOT_KINDS))


def level(name: str) -> Level:
    """The level by name; ValueError with the names for any other."""
    for lv in LEVELS:
        if lv.name == name:
            return lv
    raise ValueError(f"unknown level {name!r} ({', '.join(LEVEL_NAMES)})")


def level_bot(name: str, rng: random.Random) -> Bot:
    """The bot of a level."""
    lv = level(name)
    if lv.bot == "beginner":
        return BeginnerBot(rng)
    return make_bot(lv.bot, rng, playouts=lv.playouts)


def named_bot(name: str, rng: random.Random, *, playouts: int | None = None) -> Bot:
    """A bot by kind (bot_kinds.make_bot, ``playouts`` for the search) or by level."""
    if name in BOT_KINDS:
        return make_bot(name, rng, playouts=playouts)
    if name in LEVEL_NAMES:
        return level_bot(name, rng)
    raise ValueError(f"unknown bot {name!r} (one of {', '.join(BOT_NAMES)})")
