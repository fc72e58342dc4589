"""Fit the search's leaf (engine/leaf.py's tuned weights) to who won greedy self-play games.

The leaf judges a playout that stops unfinished: each team's value from its seats' board
and cards, a softmax over the teams. Today's value (``bots.seat_values`` plus
``CARD_KEEP``, over 250) is hand-made. This script plays greedy games, takes boards at
random decisions with every hand as it is then, and fits the weights of ``leaf.FEATURES``
by maximum likelihood of the team that went on to win (a conditional logit: a softmax of
``w . features(team)`` over the teams), then prints the held-out log loss of the old leaf
and of the fit (every fifth game held out), and the weights as a Python tuple to paste
into ``leaf.TUNED[seats]`` (the shipped ones: 10,000 games at 4 seats, 5,000 at 6).

    nice -n 10 .venv/bin/python bench/fit_leaf.py --games 10000 --seats 4
    nice -n 10 .venv/bin/python bench/fit_leaf.py --games 5000 --seats 6
    nice -n 10 .venv/bin/python bench/fit_leaf.py --games 4000 --home-variants

``--home-variants`` fits the 4-seat leaf again with other terms for the pawns home (the
depth left out; the slack below a packed home instead; the pawns with a free hole
deeper in, instead of the depth or beside it) and prints, for each, the held-out log
loss and what it says of a first pawn home at H1 to H4 against the same pawn waiting
on T61 (docs/analysis.md, "The switch, tried").

numpy is a development dependency; the engine gets only the numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import keezbord.engine.playout as playout_mod
from keezbord.engine.board import Board, FastMove
from keezbord.engine.bots import GreedyBot
from keezbord.engine.leaf import FEATURES, leaf_chances, team_features, team_order
from keezbord.engine.position import HOME, Position

SEED = 900_000  # the games' seeds: SEED + seats * 100,000 + game
_live: list[list[list[str]]] = []  # the hands of the game being played (see _deal)
_real_deal = playout_mod.deal_hands  # type: ignore[attr-defined]


def _deal(table, stock):  # type: ignore[no-untyped-def]
    """deal_hands that keeps a reference to the hands play_fast plays from (it plays
    them in place), so a sampling bot sees every seat's cards."""
    hands, rest = _real_deal(table, stock)
    _live[:] = [hands]
    return hands, rest


Features = Callable[[Board, Sequence[Sequence[str]]], list[list[float]]]


class Sampler(GreedyBot):
    """The greedy bot that, at a decision with chance ``rate``, keeps the board's team
    features and the old leaf's chances (every hand as it is at that moment)."""

    def __init__(
        self,
        rng: random.Random,
        rate: float,
        out: list[tuple[list[list[float]], list[float]]],
        features: Features = team_features,
    ) -> None:
        super().__init__(rng)
        self.rate = rate
        self.out = out
        self.features = features

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> tuple[str, FastMove] | None:
        if self.rng.random() < self.rate and _live:
            hands = _live[0]
            self.out.append((self.features(board, hands), leaf_chances(board, hands)))
        return super().pick(board, seat, hand)


Sample = tuple[list[list[float]], list[float], int, int]


def collect(
    seats: int, games: int, seed: int, rate: float, features: Features = team_features
) -> list[Sample]:
    """Samples: (``features`` per team, the hand-made leaf's chances, the winning team's
    index, the game's number)."""
    rows: list[Sample] = []
    playout_mod.deal_hands = _deal  # type: ignore[attr-defined]
    try:
        _play(seats, games, seed, rate, rows, features)
    finally:
        playout_mod.deal_hands = _real_deal  # type: ignore[attr-defined]
    return rows


def _play(
    seats: int, games: int, seed: int, rate: float, rows: list[Sample], features: Features
) -> None:
    for g in range(games):
        out: list[tuple[list[list[float]], list[float]]] = []
        rng = random.Random(seed + g)
        bots = [Sampler(random.Random(rng.random()), rate, out, features) for _ in range(seats)]
        result = playout_mod.play_fast(seats, "standard", seed + g, bots)
        if result.winner is None:
            continue
        board = Board(result.final)
        win = team_order(board).index(result.winner)
        rows.extend((f, old, win, g) for f, old in out)


def home_terms(board: Board) -> list[list[float]]:
    """Per team (``team_order``): the slack of its homes below a packed home (the depth
    its home pawns would have at the far end, less their depth) and its home pawns with
    a free hole deeper in (the third home term tried, the pawns shut out of their home,
    is ``leaf.FEATURES``' ``shut``: the judge's leaf weighs it)."""
    per_seat = []
    for seat in range(board.seats):
        depths = [loc - HOME for loc in board.pawns[seat] if loc > HOME]
        packed = sum(4 - i for i in range(len(depths)))
        free = sum(1 for d in depths if any(e not in depths for e in range(d + 1, 5)))
        per_seat.append((packed - sum(depths), free))
    return [
        [float(sum(per_seat[s][i] for s in team)) for i in (0, 1)] for team in team_order(board)
    ]


def with_home_terms(board: Board, hands: Sequence[Sequence[str]]) -> list[list[float]]:
    """``team_features`` and ``home_terms`` side by side (``HOME_NAMES``)."""
    return [a + b for a, b in zip(team_features(board, hands), home_terms(board), strict=True)]


HOME_NAMES = (*FEATURES, "slack", "free")
# The terms the bot's leaf was fitted with (``shut`` came later, for the judge's).
SHIPPED_TERMS = tuple(n for n in FEATURES if n != "shut")
NO_DEPTH = tuple(n for n in SHIPPED_TERMS if n != "deep")
HOME_VARIANTS = {
    "shipped terms": SHIPPED_TERMS,
    "slack for depth": (*NO_DEPTH, "slack"),
    "free for depth": (*NO_DEPTH, "free"),
    "no depth": NO_DEPTH,
    "free beside depth": (*SHIPPED_TERMS, "free"),
}


def door_boards() -> dict[str, np.ndarray]:
    """Red's team's terms (``with_home_terms``, less the other team's: to weigh with a
    2-team leaf) with a pawn on T20 and one more on T61 or at H1..H4, nothing else out
    (what a leaf says of entering home against waiting at the door)."""
    empty: list[list[str]] = [[] for _ in range(4)]
    out = {}
    for h in ("T61", "H1", "H2", "H3", "H4"):
        board = Board(Position.from_text(f"NNT20{h}/NNNN/NNNN/NNNN 0 standard"))
        f = with_home_terms(board, empty)
        out[h] = np.array(f[0]) - np.array(f[1])
    return out


def home_against_door(w: np.ndarray, boards: dict[str, np.ndarray], idx: list[int]) -> str:
    door = float(boards["T61"][idx] @ w)
    return " ".join(f"{h} {float(boards[h][idx] @ w) - door:+.3f}" for h in boards if h != "T61")


def home_variants(games: int, seed: int, rate: float) -> None:
    """Each ``HOME_VARIANTS`` fitted on the same 4-seat samples: held-out log loss, and
    the value of a first pawn home at H1..H4 less that of the pawn waiting on T61."""
    boards = door_boards()
    rows = collect(4, games, seed + 400_000, rate, with_home_terms)
    x_all = np.array([r[0] for r in rows], dtype=float)
    y = np.array([r[2] for r in rows])
    test = np.array([r[3] for r in rows]) % 5 == 0
    print(f"4 seats: {len(rows)} samples of {games} games, {test.sum()} held out")
    for name, cols in HOME_VARIANTS.items():
        idx = [HOME_NAMES.index(c) for c in cols]
        w = fit(x_all[~test][:, :, idx], y[~test])
        loss = log_loss(chances(x_all[test][:, :, idx], w), y[test])
        home = home_against_door(w, boards, idx)
        print(f"  {name:>17}: held-out log loss {loss:.4f}; first pawn home less on T61: {home}")


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 60) -> np.ndarray:
    """Newton's method for the conditional logit: x[n, team, feature], y[n] the winner."""
    n, _teams, k = x.shape
    w = np.zeros(k)
    for _ in range(steps):
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        xbar = (p[:, :, None] * x).sum(axis=1)
        grad = (x[np.arange(n), y] - xbar).sum(axis=0) - l2 * n * w
        # Hessian: -sum_n (sum_t p x x^T - xbar xbar^T)
        outer = np.einsum("nt,ntj,ntk->jk", p, x, x) - xbar.T @ xbar
        hess = -outer - l2 * n * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-np.log(np.clip(p[np.arange(len(y)), y], 1e-12, 1.0)).mean())


def chances(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    z = x @ w
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000, help="games per seat count")
    ap.add_argument("--seats", type=int, nargs="+", default=[4])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--rate", type=float, default=0.05, help="decisions sampled")
    ap.add_argument("--home-variants", action="store_true", help="other terms for pawns home")
    args = ap.parse_args()
    if args.home_variants:
        home_variants(args.games, args.seed, args.rate)
        return 0
    for seats in args.seats:
        t0 = time.process_time()
        rows = collect(seats, args.games, args.seed + seats * 100_000, args.rate)
        x = np.array([r[0] for r in rows], dtype=float)
        old = np.array([r[1] for r in rows], dtype=float)
        y = np.array([r[2] for r in rows])
        game = np.array([r[3] for r in rows])
        test = game % 5 == 0  # every fifth game held out, whole
        # The bot's terms only (``shut`` came later, for the judge's leaf: 0 here).
        cols = [FEATURES.index(n) for n in SHIPPED_TERMS]
        w = np.zeros(len(FEATURES))
        w[cols] = fit(x[~test][:, :, cols], y[~test])
        print(
            f"{seats} seats: {len(rows)} samples of {args.games} games "
            f"({time.process_time() - t0:.0f} s CPU), {test.sum()} held out"
        )
        print(
            f"  log loss held out: old leaf {log_loss(old[test], y[test]):.4f}, "
            f"fit {log_loss(chances(x[test], w), y[test]):.4f}, "
            f"even {float(np.log(x.shape[1])):.4f}"
        )
        for name, v in zip(FEATURES, w, strict=True):
            print(f"  {name:>10} {v:+.5f}")
        print("  TUNED =", tuple(round(float(v), 5) for v in w))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
