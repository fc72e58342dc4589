"""The game analysis, measured (issue 27, docs/analysis.md). CPU-heavy: run it niced, in
the background (hours on two shared cores at the defaults):

    nice .venv/bin/python bench/bench_analysis.py run --out bench-analysis.jsonl
    .venv/bin/python bench/bench_analysis.py report bench-analysis.jsonl --svg rel.svg
    nice .venv/bin/python bench/bench_analysis.py time     # 200 decisions, one core

``run`` plays seeded 4-seat games and analyses them, one JSON line a game (resumable:
games already in the file are skipped), on two processes:

- per bot (random, greedy, search at 100 and at 1,000 playouts a decision; at least 50
  games each): the bot on seats 0 and 2 against greedy on 1 and 3 (greedy: all four),
  every other decision of its seats analysed at the default budget, the losses kept;
- every decision of every game (these and more greedy games: at least 300 in all) also
  analysed at a small budget, with who won: the calibration.

``report`` prints the label rates per 100 decisions for each bot at the thresholds in
engine/analysis.py (and at other thresholds, to choose them), the reliability of the win
chances (rated 30/50/70%: how often the team won, with a 95% Wilson interval) and writes
the raw chances' reliability plot as an SVG (the shipped
docs/img/analysis-reliability.svg, before and after calibration, is bench_calibration.py
``plot``'s). ``time`` analyses the first 200 decisions of a greedy
game at the default budget, pinned to one core.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench_search import wilson

from keezbord.engine.analysis import THRESHOLDS, decision_accuracy, iter_rows, label_of
from keezbord.engine.hand_record import GameRecord, bots_for, record_selfplay
from keezbord.engine.judge import ANALYSIS_PLAYOUTS as DEFAULT_PLAYOUTS

SMALL = 10  # playouts a candidate for the calibration
BOTS = {  # name -> (kinds of seats 0..3, playouts of a search bot)
    "random": (["random", "greedy", "random", "greedy"], None),
    "greedy": (["greedy"] * 4, None),
    "search100": (["search", "greedy", "search", "greedy"], 100),
    "search1000": (["search", "greedy", "search", "greedy"], 1000),
    "calibration": (["greedy"] * 4, None),  # more greedy games, analysed small only
}
TESTED = (0, 2)


def play_and_analyse(job: tuple[str, int]) -> dict[str, Any]:
    bot, seed = job
    kinds, playouts = BOTS[bot]
    t0 = time.perf_counter()
    rec = record_selfplay(4, "standard", seed, bots_for(kinds, seed, playouts))
    t_play = time.perf_counter() - t0
    out: dict[str, Any] = {"bot": bot, "seed": seed, "winner": rec.winner, "turns": len(rec.turns)}
    t0 = time.perf_counter()
    small = [r for r in iter_rows(rec, playouts=SMALL, seed=seed) if hasattr(r, "win")]
    out["small"] = [[r.seat, round(r.win, 4), round(r.loss, 4)] for r in small]  # type: ignore[union-attr]
    t_small = time.perf_counter() - t0
    t0 = time.perf_counter()
    if bot != "calibration":
        # Every other decision of the bot's seats: the rates stay unbiased, at half the cost.
        mine = [t for t in rec.turns if t.seat in TESTED and t.card is not None]
        tested = GameRecord(rec.start, tuple(mine[::2]), rec.winner, rec.source)
        rows = [
            r for r in iter_rows(tested, playouts=DEFAULT_PLAYOUTS, seed=seed) if hasattr(r, "loss")
        ]
        out["tested"] = [[r.seat, round(r.loss, 4), r.candidates] for r in rows]  # type: ignore[union-attr]
    out["seconds"] = {
        "play": round(t_play, 1),
        "small": round(t_small, 1),
        "default": round(time.perf_counter() - t0, 1),
    }
    return out


def jobs(games: dict[str, int], seed: int) -> Iterator[tuple[str, int]]:
    for i, (bot, n) in enumerate(games.items()):
        for g in range(n):
            yield bot, seed + 10_000 * i + g


def run(args: argparse.Namespace) -> None:
    path = Path(args.out)
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            d = json.loads(line)
            done.add((d["bot"], d["seed"]))
    games = {
        "random": args.games,
        "greedy": args.games,
        "search100": args.games,
        "search1000": args.games,
        "calibration": args.calibration,
    }
    todo = [j for j in jobs(games, args.seed) if j not in done]
    # The slow ones first, so both processes stay busy to the end.
    todo.sort(key=lambda j: j[0] != "search1000")
    print(
        f"{len(todo)} games to play and analyse ({len(done)} done), {args.jobs} processes",
        flush=True,
    )
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool, path.open("a") as f:
        for k, out in enumerate(pool.imap_unordered(play_and_analyse, todo), 1):
            f.write(json.dumps(out) + "\n")
            f.flush()
            print(
                f"{k}/{len(todo)} {out['bot']} seed {out['seed']}: {out['seconds']} "
                f"({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )


def report(args: argparse.Namespace) -> None:
    games = [json.loads(line) for line in Path(args.file).read_text().splitlines()]
    print(f"{len(games)} games")
    print(
        "\nlabel rates per 100 decisions of the bot (seats 0 and 2), default budget "
        f"({DEFAULT_PLAYOUTS} playouts a candidate):"
    )
    names = [n for n, _ in reversed(THRESHOLDS)]
    print(
        f"{'bot':<12} {'games':>5} {'decisions':>9} "
        + " ".join(f"{n:>10}" for n in names)
        + "   per 100 choices: "
        + " ".join(f"{n[:4]:>5}" for n in names)
    )
    for bot in ("random", "greedy", "search100", "search1000"):
        mine = [g for g in games if g["bot"] == bot]
        rows = [r for g in mine for r in g.get("tested", [])]
        if not rows:
            continue
        labels = [label_of(r[1]) for r in rows]
        choices = [label_of(r[1]) for r in rows if r[2] > 1]
        per = [100 * labels.count(n) / len(rows) for n in names]
        per_c = [100 * choices.count(n) / max(1, len(choices)) for n in names]
        print(
            f"{bot:<12} {len(mine):>5} {len(rows):>9} "
            + " ".join(f"{x:>10.2f}" for x in per)
            + "   "
            + " ".join(f"{x:>5.2f}" for x in per_c)
        )
    print("\nlosses at or above each level, per 100 decisions (to choose the thresholds):")
    levels = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.08, 0.10, 0.15)
    print(f"{'bot':<12} " + " ".join(f"{x:>6.3f}" for x in levels))
    for bot in ("random", "greedy", "search100", "search1000"):
        rows = [r for g in games if g["bot"] == bot for r in g.get("tested", [])]
        if rows:
            print(
                f"{bot:<12} "
                + " ".join(
                    f"{100 * sum(r[1] >= x for r in rows) / len(rows):>6.2f}" for x in levels
                )
            )
    print("\naccuracy (the mean over the decisions with a choice, engine/analysis.py):")
    for bot in ("random", "greedy", "search100", "search1000"):
        rows = [r for g in games if g["bot"] == bot for r in g.get("tested", []) if r[2] > 1]
        if rows:
            acc = sum(decision_accuracy(r[1]) for r in rows) / len(rows)
            print(f"  {bot:<12} {acc:5.1f}% over {len(rows)} choices")
    # Calibration: every decision at the small budget, the team's chance against the result.
    points: list[tuple[float, bool, str]] = []
    for g in games:
        win = g["winner"]
        for seat, p, _loss in g["small"]:
            points.append((p, win is not None and seat in win, g["bot"]))
    print(f"\ncalibration: {len(points)} decisions of {len(games)} games, at {SMALL} playouts")
    for target in (0.3, 0.5, 0.7):
        sel = [w for p, w, _ in points if abs(p - target) < 0.05]
        k = sum(sel)
        lo, hi = wilson(k, len(sel))
        print(
            f"  rated {target:.0%} (±5): {len(sel)} decisions, won {k / max(1, len(sel)):.1%} "
            f"(95% {lo:.1%}-{hi:.1%})"
        )
    greedy = [(p, w) for p, w, b in points if b in ("greedy", "calibration")]
    for target in (0.3, 0.5, 0.7):
        sel = [w for p, w in greedy if abs(p - target) < 0.05]
        rate = sum(sel) / max(1, len(sel))
        print(f"  greedy games only, rated {target:.0%}: {len(sel)}, won {rate:.1%}")
    bins = []
    for b in range(10):
        sel = [w for p, w, _ in points if b / 10 <= p < (b + 1) / 10 or (b == 9 and p == 1.0)]
        mean_p = sum(
            p for p, _, _ in points if b / 10 <= p < (b + 1) / 10 or (b == 9 and p == 1.0)
        ) / max(1, len(sel))
        lo, hi = wilson(sum(sel), len(sel))
        bins.append((mean_p, sum(sel) / max(1, len(sel)), lo, hi, len(sel)))
        print(
            f"  {b / 10:.1f}-{(b + 1) / 10:.1f}: {len(sel):6} decisions, "
            f"mean rating {mean_p:.3f}, won {bins[-1][1]:.3f}"
        )
    secs = [g["seconds"] for g in games]
    spent = {k: sum(s[k] for s in secs) for k in ("play", "small", "default")}
    print(
        f"\ntime: play {spent['play']:.0f} s, small {spent['small']:.0f} s, default "
        f"{spent['default']:.0f} s (the sum over both processes, a loaded machine)"
    )
    if args.svg:
        Path(args.svg).write_text(reliability_svg(bins, len(points), len(games)))
        print(f"plot: {args.svg}")


def reliability_svg(bins: list[tuple[float, float, float, float, int]], n: int, games: int) -> str:
    """The reliability plot: rating (x) against how often the team won (y), with the
    95% intervals, and the diagonal a perfect rating follows."""
    w, h, left, bottom, top, right = 420, 400, 56, 50, 40, 16

    def x(v: float) -> float:
        return left + (w - left - right) * v

    def y(v: float) -> float:
        return h - bottom - (h - bottom - top) * v

    blue = "#0072b2"
    mid = (h - bottom + top) / 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="#fff"/>',
        f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
        "Reliability of the analysis' win chances</text>",
        f'<text x="{w / 2}" y="34" text-anchor="middle" fill="#555">'
        f"{n} decisions of {games} games, {SMALL} playouts a candidate</text>",
    ]
    for v in (0, 0.2, 0.4, 0.6, 0.8, 1.0):
        out.append(f'<line x1="{x(v)}" y1="{y(0)}" x2="{x(v)}" y2="{y(1)}" stroke="#eee"/>')
        out.append(f'<line x1="{x(0)}" y1="{y(v)}" x2="{x(1)}" y2="{y(v)}" stroke="#eee"/>')
        out.append(f'<text x="{x(v)}" y="{y(0) + 16}" text-anchor="middle">{v:.0%}</text>')
        out.append(f'<text x="{x(0) - 6}" y="{y(v) + 4}" text-anchor="end">{v:.0%}</text>')
    out.append(
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#999" '
        'stroke-dasharray="4 3"/>'
    )
    out.append(
        f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">'
        "rated win chance of the team after the move</text>"
    )
    out.append(
        f'<text x="14" y="{mid}" text-anchor="middle" transform="rotate(-90 14 {mid})">'
        "how often the team won</text>"
    )
    pts = []
    for mp, won, lo, hi, k in bins:
        if k == 0:
            continue
        out.append(
            f'<line x1="{x(mp):.1f}" y1="{y(lo):.1f}" x2="{x(mp):.1f}" y2="{y(hi):.1f}" '
            f'stroke="{blue}" stroke-width="2"/>'
        )
        out.append(f'<circle cx="{x(mp):.1f}" cy="{y(won):.1f}" r="4" fill="{blue}"/>')
        pts.append(f"{x(mp):.1f},{y(won):.1f}")
    out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{blue}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def time_200(args: argparse.Namespace) -> None:
    """The first 200 decisions of a greedy game analysed at the default budget, on one core.

    ``--every K`` times every K-th of them and scales by K (each decision is seeded by its
    turn, so it costs the same whichever others are analysed with it): on a loaded
    machine the full run takes long. The CPU time of the process is what one unloaded
    core would take (near enough); the wall time is shown too."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    from keezbord.host.search_budget import playouts_per_second

    for seed in range(args.seed, args.seed + 50):
        rec = record_selfplay(4, "standard", seed, bots_for(["greedy"] * 4, seed))
        if len(rec.decisions) >= 200:
            break
    picked = {t.index for t in rec.decisions[:200][:: args.every]}
    cut = GameRecord(
        rec.start, tuple(t for t in rec.turns if t.index in picked), rec.winner, rec.source
    )
    rate0 = playouts_per_second(4, "standard", 1.0)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = [r for r in iter_rows(cut, playouts=DEFAULT_PLAYOUTS, seed=0) if hasattr(r, "loss")]
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    rate1 = playouts_per_second.__wrapped__(4, "standard", 1.0)
    k = args.every
    print(
        f"{len(rows)} of the first 200 decisions (every {k}) of greedy game seed {seed} at "
        f"{DEFAULT_PLAYOUTS} playouts a candidate, on one core: CPU {cpu:.1f} s, wall "
        f"{elapsed:.1f} s; for all 200: CPU {k * cpu:.0f} s, wall {k * elapsed:.0f} s. The "
        f"machine played {rate0:.0f} playouts/s (wall) before and {rate1:.0f} after "
        "(search_budget's measure; 2,100 unloaded)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", default="bench-analysis.jsonl")
    r.add_argument("--games", type=int, default=50, help="games per bot")
    r.add_argument("--calibration", type=int, default=100, help="more greedy games (small budget)")
    r.add_argument("--seed", type=int, default=70_000)
    r.add_argument("--jobs", type=int, default=2)
    p = sub.add_parser("report")
    p.add_argument("file")
    p.add_argument("--svg", default=None)
    t = sub.add_parser("time")
    t.add_argument("--seed", type=int, default=80_000)
    t.add_argument("--every", type=int, default=1, help="time every n-th decision, scale by n")
    args = ap.parse_args()
    {"run": run, "report": report, "time": time_200}[args.cmd](args)


if __name__ == "__main__":
    main()
