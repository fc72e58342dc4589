"""The fast game loop: a complete bot game on one mutable board (board.py).

Same deals, turn order, exchange and must-play as ``Game`` (game.py), the same random
draws in the same order, so the same seed and bots give the same game. Per turn the bot
picks a move tuple, the board makes it, and the win is checked only when a pawn has
entered a home; no ``Position`` is built until the game is over (the history is replayed
on demand).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from .board import Board, FastMove, to_move
from .bots import FastBot
from .deal import Table, deal_hands, next_holder, shuffled_deck
from .game_record import GameResult, Turn
from .inference import Observed
from .position import Position, TeamMode
from .search import Known

# One entry per turn: (seat, card, move) for a play, (seat, None, None, hand) for a
# discard.
Record = tuple[int, str | None, FastMove | None, tuple[str, ...]]


def play_fast(
    seats: int,
    profile: str,
    seed: int,
    bots: Sequence[FastBot],
    *,
    max_turns: int = 20_000,
    teams: TeamMode | None = None,
) -> GameResult:
    """Play one complete game between fast bots (one per seat); see ``play_game``."""
    rng = random.Random(seed)
    start = Position.start(seats, profile, teams=teams)
    board = Board(start)
    table = Table.first(seats, rng.randrange(seats))
    stock = shuffled_deck(seats, rng)
    hands, stock = deal_hands(table, stock)
    exchanging = start.profile.partner_exchange and start.teams == "pairs"
    seat = table.leader
    picks = [b.pick for b in bots]
    # Bots that search over hidden hands are told what their seat knows (search.Known).
    informed = [getattr(b, "pick_known", None) for b in bots]
    watch = any(f is not None for f in informed)
    seen: list[str] = []  # cards played or shown since the shuffle
    passed: list[list[str]] = [[] for _ in range(seats)]  # cards passed to each seat
    observed: list[tuple[int, Observed]] = []  # this round's decisions (inference.py)
    infer = any(getattr(b, "infer", False) for b in bots)  # a bot that weighs them
    record: list[Record] = []
    rounds = 1
    discards = 0
    winner: tuple[int, ...] | None = None
    while len(record) < max_turns:
        if exchanging:
            given = _exchange(board, hands, bots)
            if watch:
                passed = [[given[board.partner[s]]] for s in range(seats)]
            exchanging = False
        hand = hands[seat]
        ask = informed[seat]
        if ask is not None:
            partner = board.partner[seat] if board.pairs else -1
            known = _known(seen, hands, passed, partner)
            mine = tuple(o for s, o in observed if s != seat)
            choice = ask(board, seat, hand, replace(known, observed=mine) if mine else known)
        else:
            choice = picks[seat](board, seat, hand)
        if choice is None:
            record.append((seat, None, None, tuple(hand)))
            if watch:
                seen.extend(hand)
            hands[seat] = []
            discards += 1
        else:
            card, move = choice
            hand.remove(card)
            if watch:
                seen.append(card)
                if card in passed[seat]:
                    passed[seat].remove(card)
                if infer:
                    observed.append((seat, Observed(board.position(seat), card)))
            homed = board.homed
            board.make(move)
            record.append((seat, card, move, ()))
            if board.homed > homed:  # a pawn entered a home: the only way to win
                winner = board.winner()
                if winner is not None:
                    seat = (seat + 1) % seats
                    break
        nxt = next_holder(hands, seat)
        if nxt is None:  # the round is over: the next deal
            table = table.next_round()
            if table.round_no == 0:
                stock = shuffled_deck(seats, rng)
                seen = []
            hands, stock = deal_hands(table, stock)
            passed = [[] for _ in range(seats)]
            observed = []
            exchanging = start.profile.partner_exchange and start.teams == "pairs"
            rounds += 1
            nxt = table.leader
        seat = nxt
    final = board.position(seat)
    return GameResult(
        seed, winner, len(record), discards, rounds, final, lambda: replay(start, record)
    )


def _exchange(board: Board, hands: list[list[str]], bots: Sequence[FastBot]) -> list[str]:
    """Partners pass one card to each other, all at once (as ``Game.exchange``);
    returns the card each seat gave."""
    pos = board.position(0)
    given = [bots[s].give(pos.replace(turn=s), hands[s]) for s in range(board.seats)]
    for s, card in enumerate(given):
        hands[s].remove(card)
    for s, card in enumerate(given):
        hands[board.partner[s]].append(card)
    return given


def _known(seen: list[str], hands: list[list[str]], passed: list[list[str]], partner: int) -> Known:
    """What a seat knows: the cards seen this shuffle, everyone's hand size, and the
    card it passed its partner (if the partner has not played that rank since)."""
    return Known(
        tuple(seen), tuple(len(h) for h in hands), tuple(passed[partner]) if partner >= 0 else ()
    )


def replay(start: Position, record: Sequence[Record]) -> tuple[Turn, ...]:
    """The game record as ``Game.history`` has it, positions included."""
    board = Board(start)
    seats = start.seats
    out: list[Turn] = []
    for seat, card, move, hand in record:
        if move is None:
            out.append(Turn(seat, None, None, hand, after=board.position(seat)))
        else:
            assert card is not None
            board.make(move)
            out.append(Turn(seat, card, to_move(move), after=board.position((seat + 1) % seats)))
    return tuple(out)
