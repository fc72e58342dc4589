"""Search over hidden hands: determinized flat Monte Carlo on the fast board.

Keezen hides the cards: a seat knows its own hand, the cards played and shown since the
last shuffle, the deck's make-up, how many cards everyone holds, and (profile
``partner_exchange``) the card it passed its partner. ``analyse`` samples the other seats'
hands consistently with that (``Known``), plays every candidate move out on the same
sampled deals (paired: card luck weighs on every candidate alike) with a cheap policy (the
greedy bot, rollout.py; variants there, off by default) for a few turns, scores the board
there, and keeps the better half of the candidates each pass (successive halving), so
the playouts go where the choice is close.

Everything is counted in *playouts* (one sampled deal played out after one candidate):
the engine never reads a clock, so the same seed and budget give the same answer; the
host turns milliseconds into playouts by measuring its machine (host/search_budget.py).

A playout stops after ``horizon`` turns, at the end of the round (hands are empty then;
the next deal is unknown to everyone) or when a team wins. Its value is a win chance for
every team, summing to 1 (leaf.py): a won playout 1 for the winner, an unfinished one the
softmax of the teams' board and card values (with two teams, the logistic curve of their
difference). A candidate keeps the sum per team (``shares``): its ``win`` is the seat's
team's, ``dist`` all of them.

Over 400 lines: sampling the hidden hands and the successive-halving search share the
knowledge record (``Known``) and its invariants; they are kept together.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .board import Board, FastMove, to_move
from .bots import CARD_KEEP, Choice, FastChoice, GreedyBot, evaluate_board
from .cards import ROUND_SIZES, deck
from .inference import DRAWS, Observed, pick_deal
from .leaf import team_order
from .notation import Move
from .position import Position
from .rollout import FITTED_LEAF, GREEDY, Greedy, Policy, playout

if TYPE_CHECKING:
    from .game import Game

# Candidates kept for playouts, best first by the greedy bot's own score (a 7 can have
# a hundred splits; the ones greedy ranks low are rarely close).
MAX_CANDIDATES = 12
DEFAULT_PLAYOUTS = 300


def play_horizon(seats: int) -> int:
    """The playouts' length when the search *plays* (SearchBot, ``keezbord engine``); the
    judge (``analyse``'s default: hints, coach, analysis) keeps its own. The same 2 x
    seats today: one turn a seat was measured on the ladder (docs/hints.md, issue 38) and
    not kept (57.5% of 146 games at a tiny equal time, 45.1% of 102 at equal playouts)."""
    return 2 * seats


# How the search's playouts are played and judged when it *plays* (SearchBot, ``keezbord
# engine``): the fitted leaf (leaf.fitted_chances, bench/fit_leaf.py), which won 137 of 226
# duplicate 4-seat games at 200 ms against the search as it was (docs/hints.md "A fitted leaf").
# The judge (hints, coach, analysis) plays greedy and judges with its own leaf
# (leaf.judge_chances), the one its chances are calibrated for.
PLAY_POLICY = FITTED_LEAF


# Cards each seat is taken to hold when nobody said (a position without its game): a
# round's first deal holds 5, its others 4.
GUESSED_HAND = 4


@dataclass(frozen=True, slots=True)
class Known:
    """What the seat to play knows of the cards besides its own hand.

    ``seen``: every card played or shown (discarded hands) since the last shuffle, by any
    seat, the seat's own included. ``hand_sizes``: cards each seat holds now (None: as
    many as the seat to play and at least GUESSED_HAND, for positions without a game).
    ``partner_has``: cards the partner is known to hold (the card passed to it this round
    and not played since). ``hands``: every seat's hand, for a searcher that sees them all
    (the ladder's ceiling, bench/bench_ladder.py); None for a seat that sees only its own.
    ``observed``: the other seats' decisions this round, in order (inference.py: weighed
    only by a bot asked to infer)."""

    seen: tuple[str, ...] = ()
    hand_sizes: tuple[int, ...] | None = None
    partner_has: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] | None = None
    observed: tuple[Observed, ...] = ()


@dataclass(slots=True)
class Candidate:
    """One root move with what its playouts found."""

    card: str
    move: FastMove
    greedy: float  # the greedy bot's score of the move (its one-ply evaluation)
    playouts: int = 0
    total: float = 0.0  # sum of the playouts' win chances of the seat's team
    lost: int = 0  # playouts in which the team lost a pawn to a capture
    won: int = 0  # playouts the team won outright
    shares: list[float] = field(default_factory=list)  # sums per team (leaf.team_order)

    @property
    def win(self) -> float:
        return self.total / self.playouts if self.playouts else 0.0

    @property
    def dist(self) -> tuple[float, ...]:
        """Every team's mean win chance (leaf.team_order; sums to 1), () unplayed."""
        if not self.playouts or not self.shares:
            return ()
        return tuple(v / self.playouts for v in self.shares)

    @property
    def lost_rate(self) -> float:
        return self.lost / self.playouts if self.playouts else 0.0

    def as_move(self) -> Move:
        return to_move(self.move)


@dataclass(slots=True)
class Analysis:
    """The candidates of one decision, best first (``ranked``), and the budget used."""

    seat: int
    ranked: list[Candidate] = field(default_factory=list)
    playouts: int = 0

    @property
    def best(self) -> Candidate | None:
        return self.ranked[0] if self.ranked else None

    @property
    def runner_up(self) -> Candidate | None:
        return self.ranked[1] if len(self.ranked) > 1 else None

    def of_move(self, card: str, move: FastMove) -> Candidate | None:
        for c in self.ranked:
            if c.card == card and c.move == move:
                return c
        return None


# -- sampling the hidden hands -----------------------------------------------------------


def unseen_pool(seats: int, hand: Sequence[str], known: Known) -> list[str]:
    """The cards the seat cannot see: the deck less its hand and the cards seen."""
    pool = Counter(deck(seats))
    pool.subtract(hand)
    pool.subtract(known.seen)
    return sorted(pool.elements())  # sorted: the sample depends on the seed alone


def sample_hands(
    seats: int, me: int, hand: Sequence[str], known: Known, partner: int, rng: random.Random
) -> list[list[str]]:
    """One deal of the hidden hands consistent with ``known`` (``partner`` < 0: none).
    The seat's own hand is as given, topped up with sampled cards if the caller knows
    only part of it (the referee knows only the card tapped). Every hand when ``known``
    holds them all (``Known.hands``): nothing is sampled."""
    if known.hands is not None:
        out = [list(h) for h in known.hands]
        out[me] = list(hand)
        return out
    sizes = known.hand_sizes or tuple(max(len(hand), GUESSED_HAND) for _ in range(seats))
    pool = unseen_pool(seats, hand, known)
    hands: list[list[str]] = [[] for _ in range(seats)]
    if partner >= 0:
        for c in known.partner_has:
            if c in pool:
                pool.remove(c)
                hands[partner].append(c)
    rng.shuffle(pool)
    need = sum(max(0, sizes[s] - len(hands[s])) for s in range(seats) if s != me)
    need += max(0, sizes[me] - len(hand))
    if need > len(pool):  # knowledge that does not add up (a hand-made position)
        extra = deck(seats)
        rng.shuffle(extra)
        pool += extra
    for s in range(seats):
        want = sizes[s] - len(hands[s]) if s != me else sizes[me] - len(hand)
        for _ in range(max(0, want)):
            hands[s].append(pool.pop())
    hands[me] = list(hand) + hands[me]
    return hands


# -- the search ----------------------------------------------------------------------------


def root_candidates(
    board: Board,
    seat: int,
    hand: Sequence[str],
    limit: int = MAX_CANDIDATES,
    include: tuple[str, FastMove] | None = None,
) -> list[Candidate]:
    """Each distinct position reachable with each card once (the first move to reach
    it, as the greedy bot sees them), best ``limit`` by the greedy score; ``include``:
    a move that must be among them (the coach judges the move played)."""
    base = evaluate_board(board, seat)
    seen: dict[tuple[str, tuple[tuple[int, ...], ...]], Candidate] = {}
    must: tuple[str, tuple[tuple[int, ...], ...]] | None = None
    for card in dict.fromkeys(hand):
        keep = CARD_KEEP.get(card, 0.0)
        for move in board.moves(card, seat):
            undo = board.make(move)
            rows = [sorted(r) for r in board.pawns]
            key = (card, tuple(map(tuple, rows)))
            if key not in seen:
                seen[key] = Candidate(card, move, evaluate_board(board, seat, rows) - base - keep)
            if include is not None and include == (card, move):
                must = key
            board.unmake(undo)
    out = sorted(seen.values(), key=lambda c: -c.greedy)[:limit]
    if must is not None and seen[must] not in out:
        out.append(seen[must])
    return out


def position_key(board: Board, move: FastMove) -> tuple[tuple[int, ...], ...]:
    """The pawns after ``move`` (the board is left as it was)."""
    undo = board.make(move)
    key = board.key()
    board.unmake(undo)
    return key


def analyse(
    board: Board,
    seat: int,
    hand: Sequence[str],
    known: Known | None = None,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    rng: random.Random | None = None,
    horizon: int | None = None,
    limit: int = MAX_CANDIDATES,
    include: tuple[str, FastMove] | None = None,
    single: bool = True,
    how: Policy = GREEDY,
) -> Analysis:
    """Rank the seat's moves with the hand by playouts on sampled deals (see the module
        doc). ``include``: a move ranked whatever its greedy score; ``single``: play a
        lone choice out too (to say how it stands); ``how``: the playouts' policy (rollout.py,
    the greedy bot unless asked). The board is left as it was."""
    rng = rng or random.Random(0)
    known = known or Known()
    cands = root_candidates(board, seat, hand, limit, include)
    result = Analysis(seat, cands)
    if len(cands) <= 1 or playouts <= 0:
        if cands and playouts > 0 and single:
            play_out(board, seat, hand, known, cands, max(1, playouts // 4), rng, horizon, how)
            result.playouts = cands[0].playouts
        return result
    alive = list(cands)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    left = playouts
    for r in range(rounds):
        if len(alive) == 1:
            break
        per = max(1, (left // (rounds - r)) // len(alive))
        play_out(board, seat, hand, known, alive, per, rng, horizon, how)
        left -= per * len(alive)
        alive.sort(key=lambda c: -c.win)
        alive = alive[: max(1, (len(alive) + 1) // 2)] if r < rounds - 1 else alive
    result.playouts = sum(c.playouts for c in cands)
    # Survivors first (best mean first), then the candidates dropped earlier.
    survivors = {id(c) for c in alive}
    result.ranked = sorted(cands, key=lambda c: (id(c) not in survivors, -c.win))
    return result


def play_out(
    board: Board,
    seat: int,
    hand: Sequence[str],
    known: Known,
    cands: Sequence[Candidate],
    deals: int,
    rng: random.Random,
    horizon: int | None,
    how: Policy = GREEDY,
) -> None:
    """``deals`` sampled deals, every candidate played out on each (with the same
    random draws for the policy)."""
    seats = board.seats
    partner = board.partner[seat] if board.pairs else -1
    h = horizon if horizon is not None else 2 * seats
    team = board.team[seat]
    mine = team_order(board).index(team)
    greedy = Greedy(board)
    for _ in range(deals):
        hands = sample_hands(seats, seat, hand, known, partner, rng)
        if known.observed and known.hands is None:
            more = [sample_hands(seats, seat, hand, known, partner, rng) for _ in range(DRAWS - 1)]
            hands = pick_deal([hands, *more], known.observed, rng)
        policy_seed = rng.random()
        for c in cands:
            # The same draws for every candidate (the greedy bot's jitter).
            rnd = random.Random(policy_seed).random
            chances, lost, won = playout(greedy, seat, c.card, c.move, hands, h, rnd, how)
            c.playouts += 1
            c.total += chances[mine]
            if not c.shares:
                c.shares = [0.0] * len(chances)
            for i, v in enumerate(chances):
                c.shares[i] += v
            c.lost += lost
            c.won += won


# -- the bot -----------------------------------------------------------------------------


class SearchBot:
    """Plays the move ``analyse`` ranks first, with ``playouts`` playouts a decision.
    Given what the game knows (``pick_known``: the loops in playout.py and game.py pass
    it), it samples the hidden hands consistently; without it, from the whole deck."""

    name = "search"

    def __init__(
        self,
        rng: random.Random,
        playouts: int = DEFAULT_PLAYOUTS,
        horizon: int | None = None,
        *,
        infer: bool = False,
    ) -> None:
        self.rng = rng
        self.playouts = playouts
        self.horizon = horizon
        self.infer = infer  # weigh the sampled deals by the others' choices (inference.py)
        self.name = "search-infer" if infer else "search"
        self._greedy = GreedyBot(rng)

    def pick_known(
        self, board: Board, seat: int, hand: Sequence[str], known: Known | None
    ) -> FastChoice:
        if known is not None and known.observed and not self.infer:
            known = replace(known, observed=())
        a = analyse(
            board,
            seat,
            hand,
            known,
            playouts=self.playouts,
            rng=random.Random(self.rng.random()),
            horizon=self.horizon if self.horizon is not None else play_horizon(board.seats),
            single=False,
            how=PLAY_POLICY,
        )
        best = a.best
        return None if best is None else (best.card, best.move)

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice:
        return self.pick_known(board, seat, hand, None)

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        choice = self.pick(Board(pos), pos.turn, hand)
        return None if choice is None else (choice[0], to_move(choice[1]))

    def choose_positions(self, pos: Position, hand: Sequence[str]) -> Choice:
        return self.choose(pos, hand)

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        return self._greedy.give(pos, hand)


def known_of_game(game: Game, seat: int, gave: str | None = None) -> Known:
    """What ``seat`` knows in a ``Game``: the cards played and shown since the last
    shuffle (the history walked back to it: a shuffle's cards are all played or shown
    before the next), everyone's hand size, and ``gave``, the card it passed its partner
    this round (profile ``partner_exchange``), unless the partner has played that rank
    since."""
    seats = game.position.seats
    per_shuffle = len(deck(seats))
    bounds = {sum(ROUND_SIZES[:r]) * seats for r in range(len(ROUND_SIZES))}
    used = 0
    seen: list[str] = []
    round_start = 0
    for i, turn in enumerate(game.history):
        if used >= per_shuffle:
            used, seen = 0, []
        if used in bounds:
            round_start = i
        if turn.card is not None:
            seen.append(turn.card)
            used += 1
        else:
            seen.extend(turn.discarded)
            used += len(turn.discarded)
    if used >= per_shuffle:
        seen, round_start = [], len(game.history)
    elif used in bounds:
        round_start = len(game.history)
    partner = game.position.partner(seat)
    has: tuple[str, ...] = ()
    if (
        gave is not None
        and partner is not None
        and not any(t.seat == partner and t.card == gave for t in game.history[round_start:])
    ):
        has = (gave,)
    return Known(tuple(seen), tuple(len(h) for h in game.hands), has)
