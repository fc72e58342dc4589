"""The search's playouts (search.py): one sampled deal played on from a candidate move by
a cheap policy, to the horizon, the end of the round or a win, and judged (leaf.py).

The policy is the greedy bot (bots.GreedyBot.pick), re-written for this loop: the same
moves considered in the same order, the same evaluation (``evaluate_board``'s terms
added in its order), the same jitter draws, so the same choice for the same draws; what
it saves is per-move overhead (one inlined evaluation instead of two calls and a list
per move, the board's constants looked up once per playout, and no evaluation of the
position before the move: it is the same for every move of a turn, so leaving it out of
the score changes no comparison beyond float rounding, which the jitter's 1e-3 swamps).
bench/bench_playouts.py measures it and prints a fingerprint of the search's answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from .board import Board, FastMove
from .bots import (
    CARD_KEEP,
    _progress,  # the track values evaluate_board uses, bit for bit
)
from .deal import next_holder
from .leaf import fitted_chances, judge_chances, leaf_chances
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST

FastChoice = tuple[str, FastMove] | None
_ALL_HOME = 15  # board.py's home bitmask with every slot filled


class Greedy:
    """The greedy bot's choice on one board (its constants looked up once)."""

    __slots__ = ("board", "prog", "seat_range", "share", "side")

    def __init__(self, board: Board) -> None:
        self.board = board
        seats = board.seats
        self.prog = _progress(seats, board.topology.segment)
        self.seat_range = range(seats)
        # side[me][s]: seat s counts for me's team (+value) or against it (-value/share*n)
        self.side = tuple(tuple(s in board.team[me] for s in range(seats)) for me in range(seats))
        self.share = tuple(max(1, seats - len(board.team[me])) for me in range(seats))

    def value(self, me: int, rows: list[list[int]]) -> float:
        """``evaluate_board(board, me, rows)``, to the same float."""
        board = self.board
        if _ALL_HOME in board.home and board.winner() == board.team[me]:
            return 1e6
        trk = board.trk
        window = board.window
        occ = board.occ
        start = board.start
        partner = board.partner
        prog = self.prog
        ring = board.ring
        side = self.side[me]
        share = self.share[me]
        n = len(board.team[me])
        every = 0
        for m in trk:
            every |= m
        total = 0.0
        for s in self.seat_range:
            p = partner[s]
            opponents = every ^ (trk[s] if p < 0 else trk[s] | trk[p])
            row = rows[s]
            pr = prog[s]
            value = 0.0
            for loc in row:
                if loc > HOME:
                    value += 100 + 3 * (loc - HOME)
                elif loc == FRESH:
                    value += pr[ring]
                elif loc != NEST:
                    value += pr[loc]
                    value -= 8 * (window[loc] & opponents).bit_count()
            o = occ[start[s]]
            if o != EMPTY and o % BLOCKADE == s and row[0] == NEST:
                value -= 4
            total += value if side[s] else -value / share * n
        return total

    def pick(self, seat: int, hand: Sequence[str], rnd: Callable[[], float]) -> FastChoice:
        """``GreedyBot.pick`` with the bot's ``rng.random`` as ``rnd``."""
        board = self.board
        pawns = board.pawns
        make = board.make
        unmake = board.unmake
        value = self.value
        best_score = 0.0
        best: FastChoice = None
        # A move changes the rows of its parts' seats and its victims' (the undo names
        # them): the others stay sorted as they were. Only a 7 reaches one position by
        # two moves (two splits); any other card's moves all lead to distinct positions,
        # so only a 7's are checked for repeats (the jitter is drawn once a position).
        rows0 = [sorted(r) for r in pawns]
        for card in dict.fromkeys(hand):
            keep = CARD_KEEP.get(card, 0.0)
            seen: set[tuple[tuple[int, ...], ...]] | None = set() if card == "7" else None
            for move in board.moves(card, seat):
                undo = make(move)
                rows = rows0[:]
                for u in undo:
                    s = u[0]
                    rows[s] = sorted(pawns[s])
                    v = u[3] if len(u) == 5 else u[2]  # a victim, or a swap's other seat
                    if v >= 0:
                        rows[v] = sorted(pawns[v])
                if seen is not None:
                    key = tuple(map(tuple, rows))
                    if key in seen:
                        unmake(undo)
                        continue
                    seen.add(key)
                score = value(seat, rows) - keep
                score += rnd() * 1e-3
                if best is None or score > best_score:
                    best_score = score
                    best = (card, move)
                unmake(undo)
        return best

    def ranked(
        self, seat: int, hand: Sequence[str], rnd: Callable[[], float]
    ) -> list[tuple[float, str, FastMove]]:
        """Every distinct move with its greedy score (as ``pick`` scores it), best first."""
        board = self.board
        pawns = board.pawns
        out: list[tuple[float, str, FastMove]] = []
        for card in dict.fromkeys(hand):
            keep = CARD_KEEP.get(card, 0.0)
            seen: set[tuple[tuple[int, ...], ...]] = set()
            for move in board.moves(card, seat):
                undo = board.make(move)
                rows = [sorted(r) for r in pawns]
                key = tuple(map(tuple, rows))
                if key not in seen:
                    seen.add(key)
                    out.append((self.value(seat, rows) - keep + rnd() * 1e-3, card, move))
                board.unmake(undo)
        out.sort(key=lambda t: -t[0])
        return out

    def pick_ahead(
        self, seat: int, hands: list[list[str]], rnd: Callable[[], float], width: int
    ) -> FastChoice:
        """The seat's own later decision in a playout, searched one reply deep: of the
        greedy bot's ``width`` best moves, the one whose position after the next seat's
        greedy reply (the playout knows its sampled hand) is best for the seat's team."""
        ranked = self.ranked(seat, hands[seat], rnd)
        if len(ranked) <= 1:
            return None if not ranked else (ranked[0][1], ranked[0][2])
        board = self.board
        seats = board.seats
        nxt = -1
        for i in range(1, seats):
            s = (seat + i) % seats
            if hands[s]:
                nxt = s
                break
        if nxt < 0:
            return ranked[0][1], ranked[0][2]
        best: FastChoice = None
        best_score = 0.0
        for _, card, move in ranked[:width]:
            undo = board.make(move)
            if board.winner() is not None:
                board.unmake(undo)
                return card, move
            reply = self.pick(nxt, hands[nxt], rnd)
            undo2 = board.make(reply[1]) if reply is not None else None
            score = self.value(seat, [sorted(r) for r in board.pawns]) - CARD_KEEP.get(card, 0.0)
            if undo2 is not None:
                board.unmake(undo2)
            board.unmake(undo)
            if best is None or score > best_score:
                best, best_score = (card, move), score
        return best

    def pick_random(self, seat: int, hand: Sequence[str], rnd: Callable[[], float]) -> FastChoice:
        """A random playable card's random move (an exploring playout's choice)."""
        cards = list(dict.fromkeys(hand))
        k = int(rnd() * len(cards))
        for card in cards[k:] + cards[:k]:
            moves = self.board.moves(card, seat)
            if moves:
                return card, moves[int(rnd() * len(moves))]
        return None


def _nest_count(board: Board, team: tuple[int, ...]) -> int:
    return sum(board.pawns[s].count(NEST) for s in team)


# The leaves (leaf.py): the judge's (hints, coach, analysis), the bot's fitted one, and
# the hand-made one both were measured against (kept for the benches).
Leaf = Literal["judge", "fitted", "hand"]
LEAVES: tuple[Leaf, ...] = ("judge", "fitted", "hand")


@dataclass(frozen=True, slots=True)
class Policy:
    """How a playout plays on (the default: the greedy bot for every seat, as always).
    ``explore``: the chance a turn plays a random move instead (epsilon-greedy);
    ``ahead``: the seat's own later turns of the round searched one reply deep over the
    greedy bot's ``ahead`` best moves (0: greedy, ``Greedy.pick_ahead``); ``leaf``: what
    judges an unfinished playout, one of ``LEAVES``."""

    explore: float = 0.0
    ahead: int = 0
    leaf: Leaf = "judge"

    def __post_init__(self) -> None:
        if self.leaf not in LEAVES:  # a typo would fall through to another leaf
            raise ValueError(f"no leaf {self.leaf!r}: one of {', '.join(LEAVES)}")


# The judge's playouts: the greedy bot plays on, the judge's leaf judges.
GREEDY = Policy()
# The bot's playouts: the same, judged by the bot's fitted leaf (search.PLAY_POLICY).
FITTED_LEAF = Policy(leaf="fitted")
HAND_LEAF = Policy(leaf="hand")


def playout(
    policy: Greedy,
    me: int,
    card: str,
    move: FastMove,
    deal: list[list[str]],
    horizon: int,
    rnd: Callable[[], float],
    how: Policy = GREEDY,
) -> tuple[list[float], int, int]:
    """Play ``card``'s ``move`` for ``me``, then ``horizon`` turns of the round by the
    policy (its jitter drawn from ``rnd``; ``how``: the variant); (every team's win
    chance, leaf.team_order; 1 if ``me``'s team lost a pawn to a capture; 1 if it won).
    The board is restored."""
    board = policy.board
    team = board.team[me]
    hands = [list(h) for h in deal]
    hands[me].remove(card)
    undos = [board.make(move)]
    nests0 = _nest_count(board, team)
    winner = board.winner()
    seat = me
    pick = policy.pick
    for _ in range(horizon):
        if winner is not None:
            break
        nxt = next_holder(hands, seat)
        if nxt is None:
            break  # the round is over
        seat = nxt
        if how is GREEDY:
            choice = pick(seat, hands[seat], rnd)
        elif how.explore and rnd() < how.explore:
            choice = policy.pick_random(seat, hands[seat], rnd)
        elif how.ahead and seat == me:
            choice = policy.pick_ahead(seat, hands, rnd, how.ahead)
        else:
            choice = pick(seat, hands[seat], rnd)
        if choice is None:
            hands[seat] = []
            continue
        hands[seat].remove(choice[0])
        homed = board.homed
        undos.append(board.make(choice[1]))
        if board.homed > homed:
            winner = board.winner()
    lost = 1 if _nest_count(board, team) > nests0 else 0
    if how.leaf == "judge":
        chances = judge_chances(board, hands)
    elif how.leaf == "fitted":
        chances = fitted_chances(board, hands)
    else:
        chances = leaf_chances(board, hands)
    for u in reversed(undos):
        board.unmake(u)
    return chances, lost, 1 if winner == team else 0
