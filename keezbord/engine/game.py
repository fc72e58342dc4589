"""A complete game with real hands: deals, turns, must-play, discards, partner
exchange and the win. Used by self-play and the simulator; deterministic given a seed.
``push``/``pop`` play and take back turns as python-chess's board does; a taken-back move
leaves the game as the referee's undo leaves the table (tests/engine/test_game_undo.py).

``play_game`` runs bots on the fast board (playout.py) when they can; the Position-based
loop is kept as ``play_game_positions`` (the benchmark's reference, the tests hold the
two to identical games). Both loops record their games with the values of
game_record.py (``Turn``, ``GameResult``, importable from here too), below them both."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .board import Board, to_move
from .bots import Bot, FastBot, FastChoice
from .cards import ROUND_SIZES
from .deal import Table, deal_hands, shuffled_deck
from .game_record import GameResult as GameResult
from .game_record import Turn as Turn
from .movegen import apply, playable_cards
from .notation import IllegalMoveError, Move, parse_move
from .playout import play_fast
from .position import Position, TeamMode


class MustPlayError(ValueError):
    """A discard while the hand holds a card with a legal move."""


class _Undo:
    """What ``pop`` needs to take a turn back: the state before it. The hands and the stock
    are kept by reference (a deal replaces them, never changes them in place) and the
    random state only when the turn led to a shuffle, so a long game's undo stack stays
    small."""

    __slots__ = (
        "exchange_pending",
        "hand",
        "hands",
        "position",
        "rng_state",
        "seat",
        "stock",
        "table",
    )

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.hand = tuple(game.hands[seat])
        self.hands = game.hands
        self.stock = game.stock
        self.position = game.position
        self.table = game.table
        self.exchange_pending = game._exchange_pending
        self.rng_state: tuple[Any, ...] | None = None


class Game:
    """Mutable game driver around immutable positions; the whole game (dealer, every
    shuffle) follows from ``seed``."""

    def __init__(
        self,
        seats: int,
        profile: str = "standard",
        seed: int = 0,
        *,
        teams: TeamMode | None = None,
        segment: int = 16,
        dealer: int | None = None,
        record: bool = True,
    ) -> None:
        """``record`` False: keep nothing for ``pop`` and no position in ``history``
        (a game only played forward, such as the simulator's hands, which it replays to
        take back: a long game then holds no copy of every hand, shuffle state and
        position; the history still says who played or showed which cards)."""
        self.seed = seed
        self._record = record
        self.rng = random.Random(seed)
        self.position = Position.start(seats, profile, segment=segment, teams=teams)
        self.history: list[Turn] = []
        if dealer is None:
            dealer = self.rng.randrange(seats)
        self.table = Table.first(seats, dealer)
        self.stock = shuffled_deck(seats, self.rng)
        self.hands: list[list[str]] = []
        self._exchange_pending = False
        self._undo: list[_Undo] = []
        self._deal()

    # -- state --------------------------------------------------------------------------

    @property
    def to_play(self) -> int | None:
        return None if self.over else self.table.turn

    @property
    def over(self) -> bool:
        return self.position.winner() is not None

    @property
    def exchange_pending(self) -> bool:
        """Partners still have to pass each other a card before this round's first play
        (profile ``partner_exchange``)."""
        return self._exchange_pending

    def hand(self, seat: int) -> list[str]:
        return list(self.hands[seat])

    def playable(self, seat: int | None = None) -> list[str]:
        s = self._seat(seat)
        return playable_cards(self.position.replace(turn=s), self.hands[s])

    # -- actions ------------------------------------------------------------------------

    def play(self, card: str, move: Move | str) -> Position:
        """The seat to play plays ``card`` from its hand with ``move`` (a Move or its
        notation); IllegalMoveError when it holds no such card or the move is not legal."""
        seat = self._seat(None)
        if card not in self.hands[seat]:
            raise IllegalMoveError(f"seat {seat} holds no {card}")
        pos = self.position.replace(turn=seat)
        if isinstance(move, str):
            move = parse_move(move, pos.topology)
        after = apply(pos, card, move)
        return self._commit(seat, card, move, after)

    def push(self, card: str, move: Move | str) -> Position:
        """``play``, by python-chess's name: ``pop`` takes it back."""
        return self.play(card, move)

    def pop(self) -> Turn:
        """Take back the last turn (a move or a discard) and return it: position, hands,
        turn, deal and shuffle are as before it. The referee takes back only a move (a
        discarded hand has been shown and thrown in); for a move the two agree."""
        if not self._undo:
            why = "no turns played" if self._record else "no record kept"
            raise IndexError(f"pop from a game with {why}")
        u = self._undo.pop()
        turn = self.history.pop()
        if u.rng_state is not None:
            self.rng.setstate(u.rng_state)
        self.hands = u.hands
        self.hands[u.seat] = list(u.hand)
        self.stock = u.stock
        self.position = u.position
        self.table = u.table
        self._exchange_pending = u.exchange_pending
        return turn

    def _commit(self, seat: int, card: str, move: Move, after: Position) -> Position:
        if self._record:
            self._undo.append(_Undo(self, seat))
        self.hands[seat].remove(card)
        self.table = self.table.played(seat)
        self.position = after
        self.history.append(Turn(seat, card, move, after=after if self._record else None))
        self._advance()
        return after

    def discard(self) -> None:
        seat = self._seat(None)
        can = self.playable(seat)
        if can:
            raise MustPlayError(f"seat {seat} must play: {can[0]} has a legal move")
        self._discard(seat)

    def _discard(self, seat: int) -> None:
        if self._record:
            self._undo.append(_Undo(self, seat))
        after = self.position if self._record else None
        self.history.append(Turn(seat, None, None, tuple(self.hands[seat]), after=after))
        self.hands[seat] = []
        self.table = self.table.discarded(seat)
        self._advance()

    def play_turn(self, bot: Bot) -> Turn:
        """Let a bot take the turn of the seat to play. A fast bot chooses on the fast
        board and its move is played as chosen: it came from the legal moves, so it is
        neither generated nor checked a second time."""
        seat = self._seat(None)
        pick = getattr(bot, "pick", None)  # a FastBot (a runtime protocol check is slow)
        if pick is None:
            return self.play_turn_positions(bot)
        board = Board(self.position)
        fast: FastChoice = pick(board, seat, self.hands[seat])
        if fast is None:
            self._discard(seat)  # the bot tried every card of the hand
        else:
            board.make(fast[1])
            self._commit(
                seat, fast[0], to_move(fast[1]), board.position((seat + 1) % self.position.seats)
            )
        return self.history[-1]

    def play_turn_positions(self, bot: Bot) -> Turn:
        """The Position-based turn (the reference the fast path is measured against)."""
        seat = self._seat(None)
        choose = getattr(bot, "choose_positions", bot.choose)
        choice = choose(self.position.replace(turn=seat), self.hands[seat])
        if choice is None:
            self.discard()
        else:
            self.play(*choice)
        return self.history[-1]

    # -- internals ----------------------------------------------------------------------

    def _seat(self, seat: int | None) -> int:
        if seat is not None:
            return seat
        if self.over or self.table.turn is None:
            raise IllegalMoveError("the game is over")
        return self.table.turn

    def _advance(self) -> None:
        if self.over:
            return
        if self.table.round_over:
            self.table = self.table.next_round()
            if self.table.round_no == 0:
                if self._undo:
                    self._undo[-1].rng_state = self.rng.getstate()
                self.stock = shuffled_deck(self.position.seats, self.rng)
            self._deal()
        turn = self.table.turn
        assert turn is not None
        self.position = self.position.replace(turn=turn)

    def _deal(self) -> None:
        self.hands, self.stock = deal_hands(self.table, self.stock)
        self.position = self.position.replace(turn=self.table.leader)
        self._exchange_pending = (
            self.position.profile.partner_exchange and self.position.teams == "pairs"
        )

    def begin_at(
        self,
        pos: Position,
        cards_left: Sequence[int] | None = None,
        given: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        """Begin this game's first round at ``pos`` (a position set up, its seat to play
        on turn), before any card is played: each seat holds ``cards_left[seat]`` cards
        (default the round's size), a seat of ``given`` exactly those cards and the rest
        dealt from what is left of this seed's shuffled deck. ValueError for a hand the
        deck cannot give or a seat on turn with no cards."""
        seats = self.position.seats
        if pos.seats != seats or self.history:
            raise ValueError("begin_at: a position for this table, before the first play")
        held = {int(s): list(cards) for s, cards in (given or {}).items()}
        left = tuple(cards_left) if cards_left is not None else self.table.cards_left
        if len(left) != seats or any(not 0 <= n <= ROUND_SIZES[0] for n in left):
            raise ValueError(f"cards held: one count a seat, 0 to {ROUND_SIZES[0]}")
        deck = self.stock + [c for hand in reversed(self.hands) for c in reversed(hand)]
        for seat, cards in held.items():
            if not 0 <= seat < seats or len(cards) != left[seat]:
                raise ValueError(f"seat {seat}'s hand: {left[seat]} cards")
            for card in cards:
                if card not in deck:
                    raise ValueError(f"the deck holds no more {card!r} for seat {seat}")
                deck.remove(card)
        if left[pos.turn] == 0:
            raise ValueError(f"seat {pos.turn} is on turn but holds no cards")
        hands = [held.get(s, []) for s in range(seats)]
        for i in range(seats):  # the rest dealt from the leader on, as deal_hands does
            s = (pos.turn + i) % seats
            while len(hands[s]) < left[s]:
                hands[s].append(deck.pop())
        self.hands, self.stock = hands, deck
        self.table = replace(self.table, cards_left=left, turn=pos.turn)
        self.position = pos
        if held or left != (self.table.round_size,) * seats:
            self._exchange_pending = False  # mid-round: this round's exchange is past

    def exchange(self, bots: Sequence[Bot]) -> None:
        """Partners pass one card to each other face down (profile partner_exchange),
        all at once at the start of the round."""
        if not self._exchange_pending:
            return
        self._exchange_pending = False
        pos = self.position
        given = [bots[s].give(pos.replace(turn=s), self.hands[s]) for s in range(pos.seats)]
        for s, card in enumerate(given):
            self.hands[s].remove(card)
        for s, card in enumerate(given):
            partner = pos.partner(s)
            assert partner is not None
            self.hands[partner].append(card)


def play_game(
    seats: int,
    profile: str,
    seed: int,
    bots: Sequence[Bot],
    *,
    max_turns: int = 20_000,
    teams: TeamMode | None = None,
) -> GameResult:
    """Play one complete game between bots (one per seat): on the fast board when every
    bot can play there, else through ``Game``."""
    fast = [b for b in bots if isinstance(b, FastBot)]
    if len(fast) == len(bots):
        return play_fast(seats, profile, seed, fast, max_turns=max_turns, teams=teams)
    return play_game_positions(seats, profile, seed, bots, max_turns=max_turns, teams=teams)


def play_game_positions(
    seats: int,
    profile: str,
    seed: int,
    bots: Sequence[Bot],
    *,
    max_turns: int = 20_000,
    teams: TeamMode | None = None,
) -> GameResult:
    """The Position-based game loop: every turn through ``Game`` with the bots'
    Position-based choice (the reference the fast path is measured and tested against)."""
    game = Game(seats, profile, seed, teams=teams)
    rounds = 1
    last_round = (game.table.shuffle_no, game.table.round_no)
    while not game.over and len(game.history) < max_turns:
        game.exchange(bots)
        game.play_turn_positions(bots[game._seat(None)])
        now = (game.table.shuffle_no, game.table.round_no)
        if now != last_round:
            rounds += 1
            last_round = now
    return GameResult(
        seed,
        game.position.winner(),
        len(game.history),
        sum(1 for t in game.history if t.card is None),
        rounds,
        game.position,
        tuple(game.history),
    )
