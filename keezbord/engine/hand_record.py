"""A game as its players met it: every turn with the position before it, the hand the
player held (as far as it is known), what it knew of the other cards, and what it did.

The game analysis (analysis.py) and the puzzles (puzzles.py) read games in this form,
whatever they came from: self-play (``record_selfplay``, every hand known), the
simulator, or a real board's trace, where a hand is rebuilt afterwards from the cards
tapped later in the round and those shown at a discard (host/analysis/record.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, to_move
from .bot_kinds import make_bot
from .bots import Bot
from .game import Game
from .notation import Move
from .position import Position
from .search import Known, known_of_game


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn: a card played with its move (a decision), or a hand shown (a discard).

    ``hand``: the cards the player held before the turn, as far as they are known;
    ``hand_known`` False when that is not all of them (the game ended in the middle of
    the round, or a card went unread): a decision is then judged among the moves of
    the card played only. ``deal``: (shuffle, round) of the turn."""

    index: int  # the turn's number in the game, from 0
    seat: int
    pos: Position  # before the turn, pos.turn == seat
    hand: tuple[str, ...]
    hand_known: bool
    known: Known
    card: str | None  # None: a discard
    move: Move | None
    deal: tuple[int, int]
    shown: tuple[str, ...] = ()  # a discard's hand

    @property
    def decision(self) -> bool:
        return self.card is not None


@dataclass(frozen=True, slots=True)
class GameRecord:
    start: Position
    turns: tuple[TurnRecord, ...]
    winner: tuple[int, ...] | None
    source: str = ""  # where it came from, for the reader ("selfplay seed 3", "game 12")

    @property
    def decisions(self) -> tuple[TurnRecord, ...]:
        return tuple(t for t in self.turns if t.decision)


class _Remembering:
    """A bot that also remembers the card it passed its partner this round."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.gave: str | None = None

    def choose(self, pos: Position, hand: Sequence[str]) -> object:
        return self.bot.choose(pos, hand)

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        self.gave = self.bot.give(pos, hand)
        return self.gave


def record_selfplay(
    seats: int,
    profile: str,
    seed: int,
    bots: Sequence[Bot],
    *,
    max_turns: int = 5_000,
    source: str | None = None,
) -> GameRecord:
    """A bot game with every turn recorded. A bot that searches over hidden hands
    (``pick_known``) is told what its seat knows, as in ``play_game``; the others play
    as ``Game.play_turn`` lets them."""
    game = Game(seats, profile, seed)
    start = game.position
    givers = [_Remembering(b) for b in bots]
    turns: list[TurnRecord] = []
    deal = (-1, -1)
    while not game.over and len(turns) < max_turns:
        now = (game.table.shuffle_no, game.table.round_no)
        if now != deal:
            deal = now
            for g in givers:
                g.gave = None
        game.exchange(givers)  # type: ignore[arg-type]
        seat = game.table.turn
        assert seat is not None
        pos = game.position.replace(turn=seat)
        hand = tuple(game.hands[seat])
        known = known_of_game(game, seat, givers[seat].gave)
        bot = bots[seat]
        ask = getattr(bot, "pick_known", None)
        if ask is not None:
            choice = ask(Board(pos), seat, list(hand), known)
            if choice is None:
                game.discard()
            else:
                game.play(choice[0], to_move(choice[1]))
        else:
            game.play_turn(bot)
        last = game.history[-1]
        turns.append(
            TurnRecord(
                len(turns),
                seat,
                pos,
                hand,
                True,
                known,
                last.card,
                last.move,
                deal,
                last.discarded,
            )
        )
    return GameRecord(
        start,
        tuple(turns),
        game.position.winner(),
        source if source is not None else f"selfplay {seats} seats {profile} seed {seed}",
    )


def bots_for(kinds: Sequence[str], seed: int, playouts: int | None = None) -> list[Bot]:
    """One bot per seat by kind (bot_kinds.make_bot), each seeded from ``seed``."""
    rng = random.Random(seed)
    return [make_bot(k, random.Random(rng.random()), playouts=playouts) for k in kinds]
