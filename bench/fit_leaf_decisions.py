"""Fit the leaf to decisions played to the end, not only to who won from positions (issue
38, docs/analysis.md "A leaf fitted to decisions"). CPU-heavy: run it niced.

    nice .venv/bin/python bench/fit_leaf_decisions.py collect --out ends.pkl
    .venv/bin/python bench/fit_leaf_decisions.py fit ends.pkl --lam 1 0.1 0.03

The leaf (engine/leaf.py, a softmax of ``weights . features`` of each team) was fitted by
bench/fit_leaf.py to who went on to win from positions of greedy games. A position's
features and its winner are confounded by the cards behind them (a first pawn home on H1
is a sign of a poor hand, not a poor move), and the judge asks the leaf to weigh two
*moves*. The truth rows of bench/bench_judge_truth.py give, for hundreds of decisions,
how much more one move truly wins than the other under greedy play to the end. This
bench records, for each such decision, where the judge's own playouts end (each team's
features, or the winner: ``collect``, ``--playouts`` a move, the fitted leaf's playouts),
so that a leaf's gap for the decision is a function of its weights; ``fit`` then fits
the 4-seat weights to the true gaps, with the positions' likelihood (bench/fit_leaf.py's
samples, ``--games`` greedy games) weighed in by ``--lam`` to keep the leaf a win chance.
``--free`` adds a term the shipped leaf lacks: the pawns home with a free hole deeper in
(fit_leaf.py's ``home_terms``, recorded beside the shipped terms); ``--shut`` another:
a seat's pawns shut out of its home by its shallowest home pawn. ``--ordered`` keeps
the home ordered (``home_order``: H1 worth at least T61, each hole deeper at least the
one before), by a penalty from the nearest weights that keep it.

The split: the sampled decisions and the home decisions of even-numbered games and the
shipped puzzles are fitted on; those of odd-numbered games, the puzzles a fitted judge
would mine and the advice positions are held out. Printed for each: the mean gap
against the true one, the correlation, the rms error beyond the truth's noise, for the
hand-made leaf (its stored 400-playout gap), the shipped fitted weights and each fit,
with the held-out log loss of the positions and the fit's weights.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fit_leaf
import truth_decisions as sources

import keezbord.engine.rollout as rollout
import keezbord.engine.search as search
from keezbord.engine.alternatives import evaluate_moves
from keezbord.engine.board import Board
from keezbord.engine.leaf import FEATURES, JUDGE, TUNED, team_order
from keezbord.engine.puzzles import puzzle_seed

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parent.parent
# Truth rows and where their decisions come from.
PUZZLE_SETS = {
    # The set shipped until the judge's leaf (2026-12-06), whose rows truth-shipped holds.
    "truth-shipped.jsonl": RESULTS / "puzzles-shipped-2026-12-05.jsonl",
    "truth-fitted-judge.jsonl": RESULTS / "puzzles-fitted-judge.jsonl",
}
# An end of a playout: each team's features, and the winner's team index (None: unfinished).
End = tuple[list[list[float]], int | None]
# The bot's leaf's terms among the recorded ones (all of FEATURES but ``shut``).
SHIPPED = tuple(FEATURES.index(n) for n in fit_leaf.SHIPPED_TERMS)
Ends = tuple[str, int, list[list[End]]]  # decision id, the mover's team, ends per move


class Listener:
    """Records where the judge's playouts end, by wrapping the search's ``playout`` and
    the fitted leaf it calls, while in a ``with`` block (both restored on leaving it)."""

    def __init__(self) -> None:
        self.ends: list[tuple[str, Any, End]] = []
        self._last: End | None = None
        self._playout = search.playout  # type: ignore[attr-defined]
        self._leaf = rollout.fitted_chances  # type: ignore[attr-defined]

    def __enter__(self) -> Listener:
        rollout.fitted_chances = self._record_leaf  # type: ignore[attr-defined]
        search.playout = self._record_playout  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: object) -> None:
        rollout.fitted_chances = self._leaf  # type: ignore[attr-defined]
        search.playout = self._playout  # type: ignore[attr-defined]

    def _record_leaf(self, board: Board, hands: Sequence[Sequence[str]]) -> list[float]:
        w = board.winner()
        self._last = (
            fit_leaf.with_home_terms(board, hands),  # FEATURES, then the extra home terms
            None if w is None else team_order(board).index(w),
        )
        return self._leaf(board, hands)

    def _record_playout(self, *args: Any, **kw: Any) -> Any:
        self._last = None  # each playout ends in the leaf once: its own end, not the last's
        out = self._playout(*args, **kw)
        assert self._last is not None
        self.ends.append((args[2], args[3], self._last))  # card, fast move, its end
        return out


def record(decisions: Sequence[sources.Decision], playouts: int) -> list[Ends]:
    """Each decision's ends, per move, of the judge's playouts at ``playouts`` a move and
    bench_judge_truth's seed (so the shipped weights give back the stored ``fitted_raw``
    at its budget)."""
    out: list[Ends] = []
    with Listener() as listener:
        for name, pos, hand, known, moves, _deals in decisions:
            listener.ends.clear()
            ev = evaluate_moves(
                pos, hand, known, playouts=playouts, seed=puzzle_seed(name) + 5, only=moves,
                how=rollout.FITTED_LEAF,
            )  # fmt: skip
            # The evaluator's own move for each (a 7's parts may stand in another order).
            keys = []
            for card, move in moves:
                a = ev.find(card, move, pos)
                assert a is not None, name
                keys.append((a.card, a.fast))
            per = [[e for c, m, e in listener.ends if (c, m) == k] for k in keys]
            assert all(len(p) == playouts for p in per), name
            out.append((name, team_order(Board(pos)).index(pos.team_of(pos.turn)), per))
    return out


def checked(
    decisions: list[sources.Decision], rows: list[dict[str, Any]]
) -> list[sources.Decision]:
    """The decisions of ``rows`` (by id), each checked to weigh the moves its row names."""
    by_id = {d[0]: d for d in decisions}
    out = []
    for r in rows:
        d = by_id[r["id"]]
        if "moves" in r and r["moves"] != [str(m) for _c, m in d[4]]:
            raise SystemExit(f"{r['id']}: the row weighed {r['moves']}, made again otherwise")
        out.append(d)
    return out


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def game_of(row: dict[str, Any]) -> int:
    """The seed of the game a sampled decision came from ("g61004-t30": 61004)."""
    return int(row["id"].split("-")[0][1:])


def games_of(rows: list[dict[str, Any]], seed: int) -> int:
    """How many games from ``seed`` the rows' decisions came from."""
    return 1 + max(game_of(r) for r in rows) - seed


def collect(args: argparse.Namespace) -> None:
    data: dict[str, tuple[list[dict[str, Any]], list[Ends]]] = {}
    for name, puzzles in PUZZLE_SETS.items():
        rows = rows_of(RESULTS / name)
        data[name] = (
            rows,
            record(checked(sources.puzzle_decisions(puzzles, 0), rows), args.playouts),
        )
    rows = rows_of(RESULTS / "truth-advice.jsonl")
    data["advice"] = (rows, record(checked(sources.advice_decisions(0), rows), args.playouts))
    rows = rows_of(RESULTS / "truth-sampled.jsonl")
    games = games_of(rows, sources.SAMPLE_SEED)
    sampled = sources.sampled_decisions(games, sources.SAMPLE_EVERY, 0)
    data["sampled"] = (rows, record(checked(sampled, rows), args.playouts))
    rows = rows_of(RESULTS / "truth-homes.jsonl")
    homes = sources.home_decisions(games_of(rows, sources.HOMES_SEED), 0)
    data["homes"] = (rows, record(checked(homes, rows), args.playouts))
    # The terms' order beside the data: a file recorded with other terms is refused.
    Path(args.out).write_bytes(pickle.dumps({"terms": fit_leaf.HOME_NAMES, "data": data}))
    print({k: len(v[1]) for k, v in data.items()}, "decisions recorded in", args.out)


def sig(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-z))
    return out


class Decisions:
    """4-seat decisions as arrays: each unfinished end's feature difference (the mover's
    team less the other), its weight in its decision's gap (+-1 / ends of its move) and
    its decision's index, and each decision's finished ends' share of the gap."""

    def __init__(
        self,
        rows: list[dict[str, Any]],
        diff: np.ndarray,
        coef: np.ndarray,
        owner: np.ndarray,
        const: np.ndarray,
    ) -> None:
        self.rows, self.diff, self.coef, self.owner, self.const = rows, diff, coef, owner, const
        self.truth = np.array([r["truth"] for r in rows])
        self.noise = float(np.mean([r["se"] ** 2 for r in rows])) if rows else 0.0

    @classmethod
    def recorded(
        cls, rows: list[dict[str, Any]], ends: list[Ends], cols: Sequence[int] = SHIPPED
    ) -> Decisions:
        """From ``record``'s ends and their truth rows; ``cols``: the recorded terms the
        leaf weighs (fit_leaf.HOME_NAMES' indices)."""
        by_id = {r["id"]: r for r in rows}
        kept: list[dict[str, Any]] = []
        diffs: list[list[float]] = []
        coef: list[float] = []
        owner: list[int] = []
        const: list[float] = []
        for name, mine, per in ends:
            if any(len(f) != 2 for move in per for f, _w in move):
                continue  # 2 teams only: the weights fitted here are the 4-seat ones
            c = 0.0
            for side, move in zip((1.0, -1.0), per, strict=True):
                for feats, won in move:
                    if won is not None:
                        c += side * (won == mine) / len(move)
                    else:
                        diffs.append(
                            [a - b for a, b in zip(feats[mine], feats[1 - mine], strict=True)]
                        )
                        coef.append(side / len(move))
                        owner.append(len(kept))
            const.append(c)
            kept.append(by_id[name])
        diff = np.array(diffs, dtype=float).reshape(-1, len(fit_leaf.HOME_NAMES))[:, cols]
        return cls(kept, diff, np.array(coef), np.array(owner, dtype=int), np.array(const))

    def __len__(self) -> int:
        return len(self.rows)

    def gaps(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every decision's gap by the leaf of weights ``w``, and its gradient."""
        p = sig(self.diff @ w)
        n = len(self)
        g = self.const + np.bincount(self.owner, self.coef * p, minlength=n)
        grad = np.zeros((n, len(w)))
        np.add.at(grad, self.owner, (self.coef * p * (1 - p))[:, None] * self.diff)
        return g, grad

    def subset(self, keep: Callable[[dict[str, Any]], bool]) -> Decisions:
        idx = [i for i, r in enumerate(self.rows) if keep(r)]
        where = np.full(len(self), -1)
        where[idx] = np.arange(len(idx))
        mask = np.isin(self.owner, idx)
        return Decisions(
            [self.rows[i] for i in idx],
            self.diff[mask],
            self.coef[mask],
            where[self.owner[mask]],
            self.const[idx],
        )

    @classmethod
    def joined(cls, parts: list[Decisions]) -> Decisions:
        offsets = np.cumsum([0] + [len(d) for d in parts[:-1]])
        return cls(
            [r for d in parts for r in d.rows],
            np.concatenate([d.diff for d in parts]),
            np.concatenate([d.coef for d in parts]),
            np.concatenate([d.owner + o for d, o in zip(parts, offsets, strict=True)]),
            np.concatenate([d.const for d in parts]),
        )

    def stats(self, g: np.ndarray) -> str:
        corr = float(np.corrcoef(g, self.truth)[0, 1])
        mse = float(np.mean((g - self.truth) ** 2))
        beyond = math.sqrt(max(0.0, mse - self.noise))
        return f"mean {g.mean():.3f}, corr {corr:.2f}, beyond noise {beyond:.3f}"


def positions(games: int, cols: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """bench/fit_leaf.py's 4-seat samples: team 0's terms ``cols`` less team 1's, whether
    team 0 won, and whether the game is held out (every fifth)."""
    seed = fit_leaf.SEED + 4 * 100_000  # its 4-seat games
    rows = fit_leaf.collect(4, games, seed, 0.05, fit_leaf.with_home_terms)
    x = np.array([r[0] for r in rows], dtype=float)
    won = np.array([float(r[2] == 0) for r in rows])
    held = np.array([r[3] % 5 == 0 for r in rows])
    return (x[:, 0] - x[:, 1])[:, cols], won, held


def log_loss(diff: np.ndarray, won: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(sig(diff @ w), 1e-12, 1 - 1e-12)
    return float(-(won * np.log(p) + (1 - won) * np.log(1 - p)).mean())


def shipped_weights(terms: int) -> np.ndarray:
    """The shipped 4-seat weights, 0 for a term they lack."""
    w = np.zeros(terms)
    w[: len(SHIPPED)] = [TUNED[4][i] for i in SHIPPED]
    return w


def home_order(cols: Sequence[int]) -> np.ndarray:
    """Rows ``c`` with ``c . w >= 0`` for a leaf whose home is ordered: a first pawn at H1
    worth at least the same pawn at the door (T61), each hole deeper at least the one
    before (fit_leaf.door_boards), and each further pawn home adding at least as much
    as the one before (``home2``'s weight not below 0)."""
    boards = fit_leaf.door_boards()
    holes = ["T61", "H1", "H2", "H3", "H4"]
    rows = [boards[b][list(cols)] - boards[a][list(cols)] for a, b in itertools.pairwise(holes)]
    home2 = np.zeros(len(cols))
    home2[list(cols).index(FEATURES.index("home2"))] = 1.0
    return np.array([*rows, home2])


ORDER_PENALTY = 1000.0  # on the square of each ordering's shortfall: it ends below 1e-3


def feasible(w: np.ndarray, order: np.ndarray, rounds: int = 100) -> np.ndarray:
    """``w`` moved the least way onto ``order @ w >= 0`` (cyclic projections onto each
    row's half-space): the ordered fit starts there, not against a steep penalty."""
    w = w.copy()
    for _ in range(rounds):
        for row in order:
            short = float(row @ w)
            if short < 0:
                w -= short / float(row @ row) * row
    return w


def fit_weights(
    dec: Decisions,
    diff: np.ndarray,
    won: np.ndarray,
    lam: float,
    order: np.ndarray | None = None,
    steps: int = 3000,
) -> np.ndarray:
    """Least squares of the decisions' gaps on their truth, plus ``lam`` times the
    positions' log loss; Adam from the shipped weights. ``order``: ``home_order``'s rows,
    kept by a penalty on their shortfall."""
    w = shipped_weights(diff.shape[1])
    if order is not None:
        w = feasible(w, order)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for i in range(1, steps + 1):
        g, grad_g = dec.gaps(w)
        grad = 2 * ((g - dec.truth) @ grad_g) / len(dec)
        grad += lam * ((sig(diff @ w) - won) @ diff) / len(won)
        if order is not None:
            short = np.minimum(0.0, order @ w)
            grad += 2 * ORDER_PENALTY * (short @ order)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.01 * (m / (1 - 0.9**i)) / (np.sqrt(v / (1 - 0.999**i)) + 1e-8)
    return w


def fit(args: argparse.Namespace) -> None:
    stored = pickle.loads(Path(args.ends).read_bytes())
    if not isinstance(stored, dict) or stored.get("terms") != fit_leaf.HOME_NAMES:
        raise SystemExit(f"{args.ends}: recorded with other terms than {fit_leaf.HOME_NAMES}")
    data = stored["data"]
    extra = [name for name in ("free", "shut") if getattr(args, name)]
    cols = [*SHIPPED, *(fit_leaf.HOME_NAMES.index(name) for name in extra)]
    sets = {k: Decisions.recorded(rows, ends, cols) for k, (rows, ends) in data.items()}

    sampled, homes = sets.pop("sampled"), sets.pop("homes")
    held: dict[str, Decisions] = {
        "sampled, odd games": sampled.subset(lambda r: game_of(r) % 2 == 1),
        "homes, odd games": homes.subset(lambda r: game_of(r) % 2 == 1),
        "puzzles a fitted judge mines": sets["truth-fitted-judge.jsonl"],
        "advice positions": sets["advice"],
    }
    train = {
        "sampled, even games": sampled.subset(lambda r: game_of(r) % 2 == 0),
        "homes, even games": homes.subset(lambda r: game_of(r) % 2 == 0),
        "shipped puzzles": sets["truth-shipped.jsonl"],
    }
    both = Decisions.joined(list(train.values()))
    diff, won, held_pos = positions(args.games, cols)
    shipped = shipped_weights(len(cols))
    # The judge's shipped weights (leaf.JUDGE), where these columns are its terms.
    judge = np.array([JUDGE[c] for c in cols]) if sorted(cols) == list(range(len(JUDGE))) else None
    print(f"positions: {len(won)} of {args.games} greedy games, {held_pos.sum()} held out")
    for name, d in {**train, **held}.items():
        hand = np.array([r["hand_raw"] for r in d.rows])
        print(f"{name} ({len(d)} decisions): hand-made leaf {d.stats(hand)}")
        print(f"{'':>{len(name)}}   the bot's fitted leaf {d.stats(d.gaps(shipped)[0])}")
        if judge is not None:
            print(f"{'':>{len(name)}}   the judge's leaf {d.stats(d.gaps(judge)[0])}")
    loss = log_loss(diff[held_pos], won[held_pos], shipped)
    boards = fit_leaf.door_boards()
    print(f"held-out positions' log loss, the bot's weights: {loss:.4f}")
    print(f"  a first pawn home less on T61: {fit_leaf.home_against_door(shipped, boards, cols)}")
    for lam in args.lam:
        order = home_order(cols) if args.ordered else None
        w = fit_weights(both, diff[~held_pos], won[~held_pos], lam, order)
        loss = log_loss(diff[held_pos], won[held_pos], w)
        print(f"\nlam {lam}: held-out positions' log loss {loss:.4f}")
        print(f"  a first pawn home less on T61: {fit_leaf.home_against_door(w, boards, cols)}")
        for name, d in {**train, **held}.items():
            print(f"  {name}: {d.stats(d.gaps(w)[0])}")
        print("  weights:", tuple(round(float(x), 5) for x in w))
        print(advice_gaps(held["advice positions"], shipped, w))


def advice_gaps(d: Decisions, shipped: np.ndarray, w: np.ndarray) -> str:
    """Each advice position's gap by the weights ``w`` beside the truth, the hand-made
    leaf's and the bot's weights' (the known right moves, one by one)."""
    mine, ship = d.gaps(w)[0], d.gaps(shipped)[0]
    return "\n".join(
        f"    {r['id'][:38]:38} truth {r['truth']:+.3f} +- {r['se']:.3f}, hand-made "
        f"{r['hand_raw']:+.3f}, the bot's {b:+.3f}, this fit {a:+.3f}"
        for r, a, b in zip(d.rows, mine, ship, strict=True)
    )


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--out", required=True)
    c.add_argument("--playouts", type=int, default=sources.JUDGE_PLAYOUTS)
    f = sub.add_parser("fit")
    f.add_argument("ends")
    f.add_argument("--lam", type=float, nargs="+", default=[1.0, 0.1, 0.03])
    f.add_argument("--games", type=int, default=4000)
    f.add_argument("--free", action="store_true", help="the pawns home with a free hole deeper in")
    f.add_argument("--shut", action="store_true", help="the pawns shut out of their home")
    f.add_argument("--ordered", action="store_true", help="a home ordered by construction")
    args = ap.parse_args(argv)
    {"collect": collect, "fit": fit}[args.cmd](args)


if __name__ == "__main__":
    main(sys.argv[1:])
