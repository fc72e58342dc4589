"""The win chances' calibration: data, fit and held-out check (issue 38, docs/analysis.md,
"Calibrated win chances"). CPU-heavy: run it niced:

    nice -n 15 .venv/bin/python bench/bench_calibration.py run --minutes 35
    .venv/bin/python bench/bench_calibration.py fit      # SCALES for engine/calibration.py
    .venv/bin/python bench/bench_calibration.py check    # the held-out table, before and after
    .venv/bin/python bench/bench_calibration.py plot --data bench/results/calibration-8.jsonl \
        --svg docs/img/analysis-reliability.svg          # the held-out reliability plot
    nice .venv/bin/python bench/bench_calibration.py puzzles [--write]  # the shipped set again

(``fit``, ``check`` and ``plot`` read bench/results/calibration-PLAYOUTS.jsonl of the analysis's
budget unless ``--data`` names one: the shipped fit is ``--data
bench/results/calibration-8.jsonl``.)

``run`` plays seeded greedy self-play games (4, 6 and 8 seats with teams, 3 seats without,
profile standard) and, at a few decisions of each game drawn at random, asks the
evaluator of alternatives (engine/alternatives.py, the analysis's judge) for every team's
chance after the move made, at the analysis's budget (``judge.ANALYSIS_PLAYOUTS``, the
adaptive judgement's first pass: playouts a candidate), with
the analysis's seeds (judge_seed). One JSON line a game with who won (resumable: games in
the file are skipped; ``--minutes`` stops it cleanly). ``--full`` seat counts (4 by
default) evaluate every candidate (the best's chances too: the losses, for the
thresholds, which were chosen on 4 seats), the others the move made only (its chances
are the same numbers, at a fraction of the cost). The judge's leaf's files were made by
``run --playouts 8 --full '' --games 3000 --jobs 2`` (3,000 games a number of seats; then
``--games 12000 --stride 100000,100000,1,1``: 12,000 at 8 and 3 seats, for their curves),
``run --playouts 4 --full '' --stride 100000,1,100000,100000 --games 3000`` (6 seats
at their first pass) and ``run --playouts 100 --full 4 --stride 1,100000,100000,100000
--games 193`` (the losses; with the first game of each other number of seats: the
stride keeps game 0); the hand-made leaf's (``-hand``) by the same and ``run --playouts
100 --minutes 41`` (4 seats full; the first 3-seat games too).
``run --leaf fitted`` (or ``hand``) judges with the bot's fitted leaf (or the hand-made one
the judge had until 2026-12-06) instead of the judge's: calibration-PLAYOUTS-LEAF.jsonl.

Games whose number is 2 modulo 3 are held out: ``fit`` never sees them, ``check`` reports
on them only. ``fit`` fits one temperature per number of seats (calibration.py: each
team's raw chance raised to a power, renormalised), or for those in ``--curve`` (8 and 3
seats) a curve (a slope between each of calibration.KNOTS), by the least log loss over
every team's chance at every decision; ``check`` prints the reliability by decile
(equal-width bins of the chance shown) and the Brier score before and after, per number of
seats, and the loss thresholds carried to the calibrated scale (quantiles of the losses
kept).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from keezbord.engine.alternatives import evaluate_moves
from keezbord.engine.board import Board
from keezbord.engine.calibration import KNOTS, SCALES, Scale, brier, calibrate, reliability
from keezbord.engine.hand_record import bots_for, record_selfplay
from keezbord.engine.judge import ANALYSIS_PLAYOUTS, THRESHOLDS, judge_seed
from keezbord.engine.leaf import team_order
from keezbord.engine.puzzles import (
    BUDGETS,
    CHECK_PLAYOUTS,
    MARGIN,
    Puzzle,
    make_puzzle,
    only_move,
    puzzle_seed,
    recheck,
)
from keezbord.engine.rollout import LEAVES, Leaf, Policy

RESULTS = Path(__file__).parent / "results"
# The hand-made leaf's temperatures (the judge's leaf until 2026-12-06), fitted on the same
# games judged with it (calibration-8-hand.jsonl): what its chances were shown at.
HAND_TEMPERATURE = {3: 2.181, 4: 1.253, 6: 1.607, 8: 1.633}
SHIPPED = Path(__file__).parents[1] / "keezbord" / "host" / "puzzles" / "shipped.jsonl"
SEATS = (4, 6, 8, 3)
PER_GAME = {3: 8, 4: 8, 6: 6, 8: 6}  # decisions drawn a game
HELD_OUT = 2  # games whose number is this modulo 3
# The labels' thresholds as they were chosen on the raw scale (docs/analysis.md, "Calibration
# and label rates"): the calibrated ones keep the shares of decisions that reach them.
RAW_THRESHOLDS = (("blunder", 0.05), ("mistake", 0.03), ("inaccuracy", 0.02))


def budget() -> int:
    """The analysis's playouts a candidate: its adaptive judgement's first pass (at 6
    seats it is half of this, ``judge.seat_screen``: ``run --playouts 4`` makes those)."""
    return ANALYSIS_PLAYOUTS


def play_and_evaluate(job: tuple[int, int, int, bool, Leaf]) -> dict[str, Any]:
    seats, game, playouts, full, leaf = job
    seed = 38_000 + 1000 * seats + game
    t0 = time.perf_counter()
    rec = record_selfplay(seats, "standard", seed, bots_for(["greedy"] * seats, seed))
    teams = team_order(Board(rec.start))
    winner = teams.index(rec.winner) if rec.winner is not None else None
    decisions = rec.decisions
    pick = sorted(
        random.Random(seed).sample(range(len(decisions)), min(PER_GAME[seats], len(decisions)))
    )
    points = []
    for i in pick:
        t = decisions[i]
        assert t.card is not None and t.move is not None
        ev = evaluate_moves(
            t.pos,
            t.hand,
            t.known,
            playouts=playouts,
            seed=judge_seed(seed, t.index),
            include=(t.card, t.move) if full else None,
            only=None if full else ((t.card, t.move),),
            how=Policy(leaf=leaf),
        )
        mine = ev.find(t.card, t.move, t.pos)
        assert mine is not None and ev.best is not None
        mover = teams.index(t.pos.team_of(t.seat))
        row: list[Any] = [t.index, mover, len(ev.ranked), [round(v, 4) for v in mine.raw_dist]]
        if full:
            row.append([round(v, 4) for v in ev.best.raw_dist])
        points.append(row)
    return {
        "seats": seats,
        "game": game,
        "seed": seed,
        "playouts": playouts,
        "leaf": leaf,
        "turns": len(rec.turns),
        "winner": winner,
        "points": points,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def data_file(playouts: int, leaf: Leaf = "judge") -> Path:
    """The games evaluated at ``playouts`` a candidate with ``leaf`` (bench/results/; the
    judge's leaf's without a suffix)."""
    return RESULTS / f"calibration-{playouts}{'' if leaf == 'judge' else '-' + leaf}.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run(args: argparse.Namespace) -> None:
    playouts = args.playouts or budget()
    path = Path(args.out) if args.out else data_file(playouts, args.leaf)
    done = {(d["seats"], d["game"]) for d in load(path)}
    todo = [
        (s, g, playouts, s in args.full, args.leaf)
        for g in range(args.games)
        for s in SEATS
        if (s, g) not in done and g % args.stride[SEATS.index(s)] == 0
    ]
    print(
        f"{len(todo)} games to play ({len(done)} done), {playouts} playouts a candidate", flush=True
    )
    stop = time.monotonic() + 60 * args.minutes
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool, path.open("a") as f:
        for k, out in enumerate(pool.imap_unordered(play_and_evaluate, todo), 1):
            f.write(json.dumps(out, separators=(",", ":")) + "\n")
            f.flush()
            print(
                f"{k}/{len(todo)} {out['seats']} seats game {out['game']}: {out['seconds']} s "
                f"({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
            if time.monotonic() > stop:
                pool.terminate()
                break


# -- the fit and the check -----------------------------------------------------------------

Sample = tuple[list[float], int]  # (every team's raw chance, the winner's index)


def by_game(games: list[dict[str, Any]], seats: int, held_out: bool) -> list[list[Sample]]:
    """Every decision's (raw chances, winner) of the fitted or the held-out games, a list
    a game (decisions of one game are not independent: intervals resample games)."""
    return [
        [(p[3], g["winner"]) for p in g["points"]]
        for g in games
        if g["seats"] == seats
        and g["winner"] is not None
        and (g["game"] % 3 == HELD_OUT) == held_out
    ]


def samples(games: list[dict[str, Any]], seats: int, held_out: bool) -> list[Sample]:
    return [x for game in by_game(games, seats, held_out) for x in game]


def resample(per_game: list[list[Sample]], rng: random.Random) -> list[Sample]:
    """A bootstrap sample: as many games drawn with replacement."""
    return [x for _ in per_game for x in per_game[rng.randrange(len(per_game))]]


def log_loss(data: Sequence[Sample], scale: Scale) -> float:
    total = 0.0
    for dist, w in data:
        q = calibrate(dist, scale)[w]
        total -= math.log(max(q, 1e-6))
    return total / max(1, len(data))


def golden(loss: Callable[[float], float], lo: float, hi: float, steps: int = 40) -> float:
    """The least of a unimodal ``loss`` on [lo, hi], by golden-section search."""
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(steps):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    return (lo + hi) / 2


def fit_temperature(data: Sequence[Sample]) -> float:
    """The least log loss on [0.5, 4] (the loss is unimodal in the temperature: a
    one-parameter softmax)."""
    return round(golden(lambda t: log_loss(data, t), 0.5, 4.0), 3)


def curve_parts(raw: Any) -> list[Any]:
    """The curve's stretches of ``ln raw`` (a numpy array of raw chances), one array per
    slope: a curve's scores are ``sum(slope * part)``, calibration.score less a constant
    the same for every team (which the softmax ignores)."""
    import numpy as np

    with np.errstate(divide="ignore"):
        lp = np.log(np.asarray(raw, dtype=float))
    edges = [*(math.log(k) for k in KNOTS), 0.0]
    return [np.minimum(lp, edges[0])] + [
        np.clip(lp - edges[k - 1], 0.0, edges[k] - edges[k - 1]) for k in range(1, len(edges))
    ]


def fit_curve(data: Sequence[Sample], start: float, rounds: int = 30) -> tuple[float, ...]:
    """The curve of least log loss (calibration.KNOTS), from the temperature ``start``:
    one slope at a time by golden-section search, ``rounds`` times over (numpy). Every
    slope is at least 0, and at least 0.05 below a raw 0.15 (a raw 0 stays 0) and on
    every stretch that starts below 0.5 (two teams can share it: their order is kept)."""
    import numpy as np

    won = np.array([w for _, w in data])
    parts = curve_parts([d for d, _ in data])
    floor = [0.05 if k == 0 or KNOTS[k - 1] < 0.5 else 0.0 for k in range(len(parts))]

    def loss(slopes: Sequence[float]) -> float:
        sc = sum(a * x for a, x in zip(slopes, parts, strict=True))
        sc = sc - sc.max(axis=1, keepdims=True)
        q = np.exp(sc)
        q = q[np.arange(len(won)), won] / q.sum(axis=1)
        return float(-np.mean(np.log(np.maximum(q, 1e-6))))

    slopes = [start] * len(parts)
    for _ in range(rounds):
        for k in range(len(slopes)):

            def along(v: float, k: int = k) -> float:
                return loss([v if i == k else a for i, a in enumerate(slopes)])

            slopes[k] = golden(along, floor[k], 8.0)
    return tuple(round(a, 3) for a in slopes)


def misses(data: Sequence[Sample], scale: Scale) -> list[tuple[int, float]]:
    """The deciles (of 100 chances or more) whose share won is more than 3 points from
    the chance shown by ``scale``: (decile, off)."""
    return [
        (d, round(w - m, 3))
        for d, m, w, n in reliability(data, scale)
        if n >= 100 and abs(w - m) > 0.03
    ]


def describe(scale: Scale) -> str:
    if isinstance(scale, tuple):
        return f"curve {scale} at knots {KNOTS}"
    return f"temperature {scale}"


def short(scale: Scale) -> str:
    return "curve" if isinstance(scale, tuple) else f"T {scale}"


def fit(args: argparse.Namespace) -> None:
    """One temperature per number of seats, with a 95% interval (bootstrap over games);
    where the interval holds 1 the data cannot tell the fit from the raw chances, and the
    raw ones (1.0) are shipped. The numbers of seats in ``--curve`` get a curve instead
    (from that temperature): those whose upper deciles one power cannot bend, with games
    enough for six slopes."""
    games = load(Path(args.data) if args.data else data_file(budget()))
    fitted: dict[int, Scale] = {}
    for seats in SEATS:
        per_game = by_game(games, seats, held_out=False)
        data = [x for game in per_game for x in game]
        if not data:
            continue
        t = fit_temperature(data)
        rng = random.Random(38)
        boot = sorted(fit_temperature(resample(per_game, rng)) for _ in range(args.boot))
        lo, hi = boot[int(0.025 * len(boot))], boot[min(len(boot) - 1, int(0.975 * len(boot)))]
        fitted[seats] = t if not lo <= 1.0 <= hi else 1.0
        print(
            f"# {seats} seats: {len(data)} decisions of {len(per_game)} games, "
            f"temperature {t} (95% interval {lo}-{hi}), log loss {log_loss(data, t):.4f}, "
            f"fitted deciles off by more than 3 points {misses(data, t)}",
            file=sys.stderr,
        )
        if seats in args.curve:
            fitted[seats] = curve = fit_curve(data, t)
            print(
                f"#   curve {curve}: log loss {log_loss(data, curve):.4f}, fitted deciles "
                f"off by more than 3 points {misses(data, curve)}",
                file=sys.stderr,
            )
    print(
        "SCALES: Final[dict[int, Scale]] = {"
        + ", ".join(f"{k}: {v}" for k, v in sorted(fitted.items()))
        + "}"
    )


def check(args: argparse.Namespace) -> None:
    """The held-out games: Brier before and after, and the reliability by decile with a
    95% interval of the share won (bootstrap over games): "within" 3 points of the chance
    shown, "outside", or "too few" where the interval is wider than 3 points each way (or
    the decile holds under 100 chances)."""
    games = load(Path(args.data) if args.data else data_file(budget()))
    rng = random.Random(38)
    for seats in SEATS:
        per_game = by_game(games, seats, held_out=True)
        data = [x for game in per_game for x in game]
        if not data:
            continue
        k = len(data[0][0])
        t = SCALES.get(seats, 1.0)
        boots = [resample(per_game, rng) for _ in range(args.boot)]
        print(
            f"\n{seats} seats ({k} teams), held out: {len(per_game)} games, {len(data)} "
            f"decisions ({len(data) * k} team chances); {describe(t)}, budget "
            f"{games[0]['playouts']} playouts a candidate"
        )
        print(f"Brier before {brier(data, 1.0):.4f}, after {brier(data, t):.4f}")
        print(
            "| decile | before: n, rated, won | after: n, rated, won | off "
            "| 95% interval of won | verdict |"
        )
        print("|---|---|---|---|---|---|")
        before = {d: (m, w, n) for d, m, w, n in reliability(data, 1.0)}
        spread: dict[int, list[float]] = {}
        for b in boots:
            for d, _, w, _ in reliability(b, t):
                spread.setdefault(d, []).append(w)
        for d, m, w, n in reliability(data, t):
            ws = sorted(spread.get(d, [w]))
            lo, hi = ws[int(0.025 * len(ws))], ws[min(len(ws) - 1, int(0.975 * len(ws)))]
            off = w - m
            verdict = "within" if abs(off) <= 0.03 else "outside"
            if (hi - lo) / 2 > 0.03 or n < 100:
                verdict = "too few"
            was = before.get(d)
            bs = f"{was[2]}, {100 * was[0]:.1f}%, {100 * was[1]:.1f}%" if was else "-"
            print(
                f"| {10 * d}-{10 * d + 10}% | {bs} | {n}, {100 * m:.1f}%, {100 * w:.1f}% "
                f"| {100 * off:+.1f} | {100 * lo:.1f}-{100 * hi:.1f}% | {verdict} |"
            )
    # The losses come from the games whose every candidate was evaluated, whatever file:
    # the shares from the hand-made leaf's (the raw thresholds were chosen on its scale),
    # the losses at those shares from the judge's.
    every = [g for f in sorted(RESULTS.glob("calibration-*.jsonl")) for g in load(f)]
    losses(
        [g for g in every if g.get("leaf", "hand") == "hand"],
        [g for g in every if g.get("leaf") == "judge"],
    )


def _losses(games: list[dict[str, Any]], seats: int, calibrated: bool) -> list[float]:
    """Every decision's loss (the best candidate's chance less the move's, for the mover),
    sorted, of the games whose every candidate was evaluated; raw or as shown."""
    out = []
    t = SCALES.get(seats, 1.0) if calibrated else 1.0
    for g in games:
        if g["seats"] != seats:
            continue
        for p in g["points"]:
            if len(p) < 5 or p[2] < 2:
                continue
            mover = p[1]
            out.append(max(0.0, calibrate(p[4], t)[mover] - calibrate(p[3], t)[mover]))
    return sorted(out)


def losses(hand: list[dict[str, Any]], judge: list[dict[str, Any]]) -> None:
    """The thresholds carried over: the share of decisions losing at least each raw
    threshold by the hand-made leaf (the judge's until 2026-12-06, on whose raw scale the
    thresholds were chosen), and the judge's calibrated loss at that same share (the
    games whose every candidate was evaluated: 4 seats at 100 playouts)."""
    for seats in (4, 3):
        raw, cal = _losses(hand, seats, False), _losses(judge, seats, True)
        if not raw or not cal:
            continue
        print(
            f"\n{seats} seats: {len(raw)} decisions with a choice by the hand-made leaf, "
            f"{len(cal)} by the judge's (first judgement, greedy play)"
        )
        for name, at in RAW_THRESHOLDS:
            share = sum(1 for x in raw if x >= at) / len(raw)
            q = cal[min(len(cal) - 1, int((1 - share) * len(cal)))] if share > 0 else float("nan")
            print(
                f"  {name} raw {at}: {100 * share:.2f}% of decisions; "
                f"the judge's calibrated loss at that share {q:.4f} "
                f"(judge.THRESHOLDS: {dict(THRESHOLDS)[name]})"
            )


def recheck_one(line: str) -> tuple[str, str, str | None]:
    """A shipped puzzle put to the whole only-move test again, as mining made it (the
    judge's chances as they are now): (its id, the verdict, the new JSON line or None)."""
    p = Puzzle.from_json(json.loads(line))
    ev = only_move(
        p.position,
        p.hand,
        p.knowledge,
        budgets=BUDGETS,
        margin=MARGIN,
        seed=puzzle_seed(p.id) + 1,
    )
    if ev is None:
        return p.id, "no move clearly best", None
    if ev.best is not ev.find(p.card, p.solution, p.position):
        return p.id, "another move first", None
    if not recheck(p, CHECK_PLAYOUTS, margin=MARGIN):
        return p.id, "fails the suite's re-check", None
    again = make_puzzle(p.position, p.hand, p.knowledge, ev, p.source)
    return p.id, "kept", json.dumps(again.to_json())


def puzzles(args: argparse.Namespace) -> None:
    lines = [x for x in SHIPPED.read_text().splitlines() if x.strip()]
    with Pool(args.jobs) as pool:
        out = pool.map(recheck_one, lines)
    verdicts = Counter(v for _, v, _ in out)
    print(f"{len(lines)} shipped puzzles, margin {MARGIN}: {dict(verdicts)}")
    for pid, v, _ in out:
        if v != "kept":
            print(f"  {pid}: {v}")
    if args.write:
        SHIPPED.write_text("".join(x + "\n" for _, _, x in out if x is not None))
        print(f"wrote {SHIPPED}")


def plot(args: argparse.Namespace) -> None:
    """``check``'s held-out deciles, before and after, as the reliability plot
    (bench/reliability_svg.py), with 95% intervals of "won" from resampling the games."""
    from reliability_svg import Panel, Point, reliability_svg

    games = load(Path(args.data) if args.data else data_file(budget()))
    rng = random.Random(38)
    panels = []
    for seats in SEATS:
        per_game = by_game(games, seats, held_out=True)
        data = [x for game in per_game for x in game]
        if not data:
            continue
        t = SCALES.get(seats, 1.0)
        boots = [resample(per_game, rng) for _ in range(args.boot)]
        series = []
        for temp in (1.0, t):
            spread: dict[int, list[float]] = {}
            for b in boots:
                for d, _, w, _ in reliability(b, temp):
                    spread.setdefault(d, []).append(w)
            pts = []
            for d, m, w, n in reliability(data, temp):
                ws = sorted(spread.get(d, [w]))
                lo, hi = ws[int(0.025 * len(ws))], ws[min(len(ws) - 1, int(0.975 * len(ws)))]
                pts.append(Point(m, w, lo, hi, n))
            series.append(pts)
        k = len(data[0][0])
        title = f"{seats} seats ({k} teams{', no partners' if seats == 3 else ''})"
        before, after = brier(data, 1.0), brier(data, t)
        note = f"{len(per_game)} games, {short(t)}, Brier {before:.4f} → {after:.4f}"
        panels.append(Panel(title, note, series[0], series[1]))
    sub = (
        f"held-out greedy self-play games ({Path(args.data or '').name or 'default data'}), "
        f"{games[0]['playouts']} playouts a candidate; every team's chance at every decision"
    )
    Path(args.svg).write_text(reliability_svg(panels, sub))
    print(f"plot: {args.svg}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", help="default: bench/results/calibration-PLAYOUTS.jsonl")
    r.add_argument("--games", type=int, default=600, help="games per seat count at most")
    r.add_argument(
        "--stride",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 1, 1, 1],
        help="play every n-th game of 4,6,8,3 seats",
    )
    r.add_argument("--playouts", type=int, default=0, help="a candidate (default: the analysis's)")
    r.add_argument(
        "--full",
        type=lambda x: [int(n) for n in x.split(",") if n],
        default=[4],
        help="seat counts whose every candidate is evaluated (the losses); '' for none",
    )
    r.add_argument("--minutes", type=float, default=35.0)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument(
        "--leaf",
        choices=LEAVES,
        default="judge",
        help="what judges the playouts' ends: the judge's leaf, the bot's fitted one or the "
        "hand-made one (calibration-PLAYOUTS-LEAF.jsonl)",
    )
    for name in ("fit", "check", "plot"):
        q = sub.add_parser(name)
        q.add_argument("--data", help="default: the file of the analysis's budget")
        q.add_argument("--boot", type=int, default=40, help="bootstrap resamples of the games")
        if name == "fit":
            q.add_argument(
                "--curve",
                type=lambda x: [int(n) for n in x.split(",") if n],
                default=[8, 3],
                help="numbers of seats fitted with a curve (calibration.KNOTS), not one "
                "temperature; '' for none",
            )
        if name == "plot":
            q.add_argument("--svg", default="docs/img/analysis-reliability.svg")
    q = sub.add_parser("puzzles", help="re-check the shipped puzzles with the judge as it is")
    q.add_argument("--jobs", type=int, default=2)
    q.add_argument("--write", action="store_true", help="keep those that pass, numbers anew")
    args = p.parse_args()
    {"run": run, "fit": fit, "check": check, "plot": plot, "puzzles": puzzles}[args.cmd](args)


if __name__ == "__main__":
    main()
