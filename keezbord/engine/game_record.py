"""A game's record: its turns (``Turn``) and its outcome (``GameResult``). Values below
both game loops, the Position-based one (game.py) and the fast one (playout.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .notation import Move
from .position import Position


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of the game record: a card played with its move, or a discarded hand."""

    seat: int
    card: str | None  # None for a discard
    move: Move | None
    discarded: tuple[str, ...] = ()
    after: Position | None = None

    def __str__(self) -> str:
        if self.move is None:
            return f"{self.seat}: discard {' '.join(self.discarded) or '-'}"
        return f"{self.seat}: {self.move}"

    def text(self, _pos: object = None) -> str:
        """``str(turn)``; the ignored argument keeps older calls working."""
        return str(self)


class GameResult:
    """The outcome of a complete game. ``history`` (every turn with its position) is
    built on first use: the fast loop keeps only the moves and replays them."""

    __slots__ = ("_history", "_replay", "discards", "final", "rounds", "seed", "turns", "winner")

    def __init__(
        self,
        seed: int,
        winner: tuple[int, ...] | None,
        turns: int,
        discards: int,
        rounds: int,
        final: Position,
        history: tuple[Turn, ...] | Callable[[], tuple[Turn, ...]],
    ) -> None:
        self.seed = seed
        self.winner = winner
        self.turns = turns
        self.discards = discards
        self.rounds = rounds
        self.final = final
        self._history = history if isinstance(history, tuple) else None
        self._replay = None if isinstance(history, tuple) else history

    @property
    def history(self) -> tuple[Turn, ...]:
        if self._history is None:
            assert self._replay is not None
            self._history = self._replay()
        return self._history
