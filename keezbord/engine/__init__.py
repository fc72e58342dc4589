"""The rules of Keezen: pure Python, no I/O, no dependencies, deterministic given a seed.

The public names, python-chess style::

    from keezbord.engine import Position, legal_moves, apply, explain

``__all__`` lists them; each is imported from its module on first use, so importing one
name does not load the whole engine (``keezbord moves`` must start fast). Everything
else is reached through its module (``keezbord.engine.movegen.candidates``).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .bot_kinds import make_bot
    from .bots import Bot, GreedyBot, RandomBot
    from .cards import RANKS, UnknownCardError, parse_card
    from .deal import Table
    from .describe import describe_move
    from .explain import Reason, explain, no_move_reason
    from .game import Game, MustPlayError, play_game
    from .game_record import GameResult, Turn
    from .movegen import apply, has_legal_move, is_legal, legal_moves, playable_cards, successors
    from .notation import IllegalMoveError, InvalidMoveError, Move, Step, Swap, parse_move
    from .position import Position
    from .position_error import InvalidPositionError
    from .profiles import PROFILES, Profile, UnknownProfileError, get_profile
    from .scoring import nk_score
    from .text import Text
    from .topology import Hole, Topology, TopologyError

# public name -> the module that defines it
_WHERE: dict[str, str] = {
    "Position": "position",
    "InvalidPositionError": "position_error",
    **dict.fromkeys(("Topology", "Hole", "TopologyError"), "topology"),
    **dict.fromkeys(("RANKS", "parse_card", "UnknownCardError"), "cards"),
    **dict.fromkeys(
        ("Move", "Step", "Swap", "parse_move", "InvalidMoveError", "IllegalMoveError"), "notation"
    ),
    **dict.fromkeys(
        ("successors", "legal_moves", "has_legal_move", "playable_cards", "apply", "is_legal"),
        "movegen",
    ),
    **dict.fromkeys(("explain", "no_move_reason", "Reason"), "explain"),
    "describe_move": "describe",
    **dict.fromkeys(("Profile", "PROFILES", "get_profile", "UnknownProfileError"), "profiles"),
    **dict.fromkeys(("Game", "MustPlayError", "play_game"), "game"),
    **dict.fromkeys(("Turn", "GameResult"), "game_record"),
    "Table": "deal",
    **dict.fromkeys(("Bot", "RandomBot", "GreedyBot"), "bots"),
    "make_bot": "bot_kinds",
    "nk_score": "scoring",
    "Text": "text",
}

__all__ = [
    "PROFILES",
    "RANKS",
    "Bot",
    "Game",
    "GameResult",
    "GreedyBot",
    "Hole",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "MustPlayError",
    "Position",
    "Profile",
    "RandomBot",
    "Reason",
    "Step",
    "Swap",
    "Table",
    "Text",
    "Topology",
    "TopologyError",
    "Turn",
    "UnknownCardError",
    "UnknownProfileError",
    "apply",
    "describe_move",
    "explain",
    "get_profile",
    "has_legal_move",
    "is_legal",
    "legal_moves",
    "make_bot",
    "nk_score",
    "no_move_reason",
    "parse_card",
    "parse_move",
    "play_game",
    "playable_cards",
    "successors",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # found once: later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


class _Package(types.ModuleType):
    """``explain`` names both a module and its function. Importing a submodule sets it as
    an attribute of its package, which would hide the function behind the module once
    anything imports ``keezbord.engine.explain``; the function wins, as it would after an
    eager ``from .explain import explain`` (the module stays in ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in __all__ and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
