"""Bots for self-play and hints: ``random`` and a greedy one-move-lookahead heuristic.

A bot is given the position (its seat to play) and its hand and answers with a card and
a move, or ``None`` to discard (only when no card of the hand has a legal move: the
caller checks must-play).

Both bots play on the fast board (board.py): ``pick(board, seat, hand)`` answers with a
move tuple, ``choose(pos, hand)`` wraps it for callers holding a ``Position``. Their
Position-based originals are kept as ``choose_positions`` (and ``evaluate``): the
benchmark measures against them and the tests hold both to the same choices.
``make_bot`` (bot_kinds.py, above the search bot too) makes any bot by name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Protocol, runtime_checkable

from .board import Board, FastMove, Undo, to_move
from .movegen import successor_positions, successors
from .notation import Move
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST, Position
from .scoring import distance_home

Choice = tuple[str, Move] | None
FastChoice = tuple[str, FastMove] | None


class Bot(Protocol):
    name: str

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice: ...

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        """The card to pass to the partner (profile ``partner_exchange``)."""
        ...


@runtime_checkable
class FastBot(Bot, Protocol):
    """A bot that also plays on the fast board (the game loop then never builds a
    Position per turn, nor generates the chosen card's moves a second time)."""

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice: ...

    def choose_positions(self, pos: Position, hand: Sequence[str]) -> Choice: ...


def _fast_choose(bot: FastBot, pos: Position, hand: Sequence[str]) -> Choice:
    choice = bot.pick(Board(pos), pos.turn, hand)
    return None if choice is None else (choice[0], to_move(choice[1]))


class RandomBot:
    """A random playable card, then a random legal move of it."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice:
        cards = list(dict.fromkeys(hand))
        self.rng.shuffle(cards)
        for card in cards:
            moves = board.moves(card, seat)
            if moves:
                return card, self.rng.choice(moves)
        return None

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        return _fast_choose(self, pos, hand)

    def choose_positions(self, pos: Position, hand: Sequence[str]) -> Choice:
        cards = sorted(set(hand), key=hand.index)
        self.rng.shuffle(cards)
        for card in cards:
            moves = list(successors(pos, card))
            if moves:
                return card, self.rng.choice(moves)[0]
        return None

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        return self.rng.choice(list(hand))


def greedy_candidates(
    board: Board, seat: int, hand: Sequence[str], rnd: Callable[[], float]
) -> Iterator[tuple[float, str, FastMove, Undo]]:
    """The greedy bot's candidates: each distinct position the hand's cards reach, once,
    with the first move leading there (as successor_positions, so the jitter draws stay
    those of ``GreedyBot.choose_positions``), as (score, card, move, undo). The score is
    the gain by ``evaluate_board`` less the card's keep value, plus a tie-breaking jitter
    drawn from ``rnd``. While the caller holds a candidate its move is made on ``board``
    (``undo`` its record: the beginner reads its mistakes there); it is unmade when the
    caller asks for the next one, or stops."""
    base = evaluate_board(board, seat)
    for card in dict.fromkeys(hand):
        keep = CARD_KEEP.get(card, 0.0)
        seen: set[tuple[tuple[int, ...], ...]] = set()
        for move in board.moves(card, seat):
            undo = board.make(move)
            try:
                rows = [sorted(r) for r in board.pawns]
                key = tuple(map(tuple, rows))
                if key not in seen:
                    seen.add(key)
                    score = evaluate_board(board, seat, rows) - base - keep
                    score += rnd() * 1e-3
                    yield score, card, move, undo
            finally:
                board.unmake(undo)


class GreedyBot:
    """Plays the move that most improves its team's position by a simple evaluation:
    pawns home and far along, opponents captured, the partner spared, the own start kept
    free for entering, pawns kept out of reach of opponents behind them. Among equal
    moves it keeps its most flexible cards (A, K, 4, 7, J) for later."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice:
        best: tuple[float, str, FastMove] | None = None
        for score, card, move, _ in greedy_candidates(board, seat, hand, self.rng.random):
            if best is None or score > best[0]:
                best = (score, card, move)
        return None if best is None else (best[1], best[2])

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        return _fast_choose(self, pos, hand)

    def choose_positions(self, pos: Position, hand: Sequence[str]) -> Choice:
        me = pos.turn
        base = evaluate(pos, me)
        best: tuple[float, str, Move] | None = None
        for card in sorted(set(hand), key=hand.index):
            for after, move in successor_positions(pos, card).items():
                # Tiny random jitter breaks ties without a fixed bias.
                score = evaluate(after, me) - base - CARD_KEEP.get(card, 0.0)
                score += self.rng.random() * 1e-3
                if best is None or score > best[0]:
                    best = (score, card, move)
        return None if best is None else (best[1], best[2])

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        # Pass the partner what helps it most to enter: an A or K if it has nest pawns.
        partner = pos.partner(pos.turn)
        if partner is not None and NEST in pos.pawns[partner]:
            for card in ("A", "K"):
                if card in hand:
                    return card
        return min(hand, key=lambda c: CARD_KEEP.get(c, 0.0))


# What a card is worth keeping in hand (subtracted when played).
CARD_KEEP: dict[str, float] = {"A": 3.0, "K": 3.0, "4": 2.0, "7": 2.0, "J": 1.5}


def evaluate(pos: Position, me: int) -> float:
    """Higher is better for ``me`` and its partner."""
    team = pos.team_of(me)
    ring = pos.topology.ring
    total = 0.0
    if pos.winner() == team:
        return 1e6
    for seat in range(pos.seats):
        value = 0.0
        for loc in pos.pawns[seat]:
            if loc > HOME:
                value += 100 + 3 * (loc - HOME)
            elif loc != NEST:
                d = distance_home(pos, seat, loc) or 0
                value += 30 + 50 * (ring - d) / ring
                if loc != FRESH:
                    value -= 8 * _threats(pos, seat, loc)
        start_occ = pos.track[pos.topology.start(seat)]
        if start_occ != EMPTY and start_occ % BLOCKADE == seat and NEST in pos.pawns[seat]:
            value -= 4  # its own pawn blocks its next entry
        total += value if seat in team else -value / max(1, pos.seats - len(team)) * len(team)
    return total


@lru_cache(maxsize=32)
def _progress(seats: int, segment: int) -> tuple[tuple[float, ...], ...]:
    """``evaluate``'s value of a track pawn per seat and hole (index ``ring``: fresh),
    computed by the same expression so that both evaluations agree to the bit."""
    ring = seats * segment
    out = []
    for seat in range(seats):
        start = seat * segment
        row = [30 + 50 * (ring - (start - t) % ring) / ring for t in range(ring)]
        row.append(30 + 50 * (ring - ring) / ring)
        out.append(tuple(row))
    return tuple(out)


def evaluate_board(board: Board, me: int, rows: list[list[int]] | None = None) -> float:
    """``evaluate`` on the fast board, to the same float: the same terms, added in the
    same order; the threat scan is a popcount of a precomputed window. ``rows``: the
    pawns sorted per seat, if the caller has them."""
    team = board.team[me]
    if board.winner() == team:
        return 1e6
    share = max(1, board.seats - len(team))
    total = 0.0
    for seat, value in enumerate(seat_values(board, rows)):
        total += value if seat in team else -value / share * len(team)
    return total


def opponent_masks(board: Board) -> list[int]:
    """Per seat, the track holes (a bitmask) of the pawns that are neither its own nor
    its partner's: the ones whose threat counts (``window[loc] & mask``)."""
    trk = board.trk
    partner = board.partner
    every = 0
    for m in trk:
        every |= m
    out = []
    for seat in range(board.seats):
        p = partner[seat]
        out.append(every ^ (trk[seat] if p < 0 else trk[seat] | trk[p]))
    return out


def seat_values(board: Board, rows: list[list[int]] | None = None) -> list[float]:
    """Each seat's own standing in ``evaluate``'s terms (pawns home and along, less the
    opponents' pawns in reach behind them, less a start its own pawn blocks): what a
    team's value is the sum of, whoever asks (search's leaf, engine/leaf.py)."""
    seats = board.seats
    ring = board.ring
    prog = _progress(seats, board.topology.segment)
    window = board.window
    occ = board.occ
    start = board.start
    masks = opponent_masks(board)
    if rows is None:
        rows = [sorted(r) for r in board.pawns]
    out: list[float] = []
    for seat in range(seats):
        opponents = masks[seat]
        row = rows[seat]
        pr = prog[seat]
        value = 0.0
        for loc in row:
            if loc > HOME:
                value += 100 + 3 * (loc - HOME)
            elif loc == FRESH:
                value += pr[ring]
            elif loc != NEST:
                value += pr[loc]
                value -= 8 * (window[loc] & opponents).bit_count()
        o = occ[start[seat]]
        if o != EMPTY and o % BLOCKADE == seat and row[0] == NEST:
            value -= 4  # its own pawn blocks its next entry
        out.append(value)
    return out


def _threats(pos: Position, seat: int, loc: int) -> int:
    """Opponent pawns 1 to 12 holes behind this pawn (a single card can reach it)."""
    ring = pos.topology.ring
    team = pos.team_of(seat)
    n = 0
    for back in range(1, 13):
        occ = pos.track[(loc - back) % ring]
        if occ != EMPTY and occ < BLOCKADE and occ not in team:
            n += 1
    return n


def greedy_move(pos: Position, card: str) -> Move | None:
    """The greedy bot's choice with this card (for hints), deterministic."""
    choice = GreedyBot(random.Random(0)).choose(pos, [card])
    return None if choice is None else choice[1]
