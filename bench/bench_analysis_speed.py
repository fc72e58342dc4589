"""How fast the game analysis is, and whether its labels hold at a ten times larger budget
(issue 38, docs/analysis.md "Time"). CPU-heavy: run it niced.

    nice -n 10 .venv/bin/python bench/bench_analysis_speed.py reference --out REF.jsonl
    nice -n 10 .venv/bin/python bench/bench_analysis_speed.py measure --ref REF.jsonl
    nice -n 10 .venv/bin/python bench/bench_analysis_speed.py jobs --jobs 2

The games: the conformance traces (../shared/conformance/games) and self-play games cut at
their first 200 decisions (greedy on all four seats; random on seats 0 and 2 against
greedy, which makes mistakes to label; and one of 6 seats, random against greedy, for
the 6-seat first pass, judge.SCREEN_SHARE).

``reference`` judges every decision with a choice the way the analysis did before issue
38 (every candidate played out evenly, ``--playouts`` each, 1,000 by default: ten times
the old default), seeded apart from the analysis (``--seed``), one JSON line a decision,
resumable. ``measure`` analyses every game at the default budget (or ``--playouts``),
prints the CPU time (process time: the machine is shared) per game and per decision,
scaled to a 200-decision game, and the share of decisions whose label (none, ?!, ?, ??)
agrees with the reference's, with a 95% Wilson interval: over every decision (a forced
move agrees by construction) and over the decisions with a choice. ``jobs`` times the
analysis of the longest self-play game with ``--jobs`` processes against one (wall time)
and checks that the rows are the same.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench_search import wilson

from keezbord.engine.hand_record import GameRecord, bots_for, record_selfplay

CONFORMANCE = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance" / "games"
SELFPLAY = {  # name -> (kinds of seats 0..3, seed)
    "greedy-80000": (["greedy"] * 4, 80_000),
    "random-80001": (["random", "greedy", "random", "greedy"], 80_001),
    "greedy-80002": (["greedy"] * 4, 80_002),
    # 6 seats (3 teams): the judge's budget is tuned apart for them (adaptive_judge.py)
    "random6-80003": (["random", "greedy"] * 3, 80_003),
}
CUT = 200  # decisions of a self-play game


def games(names: list[str] | None = None) -> Iterator[tuple[str, GameRecord]]:
    """The games by name (``names``: these, in this order; None: all)."""
    from keezbord.host.analysis.record import game_record, read_trace

    traces = {p.name.split("-")[0]: p for p in sorted(CONFORMANCE.glob("*.trace.jsonl"))}
    for name in names or [*traces, *SELFPLAY]:
        if name in traces:
            setup, events = read_trace(traces[name])
            yield name, game_record(setup, events, source=traces[name].name)
            continue
        kinds, seed = SELFPLAY[name]
        rec = record_selfplay(len(kinds), "standard", seed, bots_for(kinds, seed))
        last = rec.decisions[:CUT][-1].index
        yield (
            name,
            GameRecord(
                rec.start, tuple(t for t in rec.turns if t.index <= last), rec.winner, rec.source
            ),
        )


def _reference_one(job: tuple[str, int, int, int]) -> dict[str, Any]:
    from keezbord.engine.judge import judge_even, judge_seed, label_of

    name, index, playouts, seed = job
    turn = _TURNS[(name, index)]
    assert turn.card is not None and turn.move is not None
    t0 = time.process_time()
    from keezbord.engine.alternatives import evaluate_moves

    cards = None if turn.hand_known else [turn.card]
    look = evaluate_moves(
        turn.pos, turn.hand, turn.known, playouts=0, cards=cards, include=(turn.card, turn.move)
    )
    if len(look.ranked) <= 1:
        return {
            "game": name,
            "index": index,
            "candidates": len(look.ranked),
            "loss": 0.0,
            "label": None,
            "best": str(turn.move),
            "win": None,
            "cpu": 0.0,
        }
    v = judge_even(
        turn.pos,
        turn.hand,
        turn.known,
        turn.card,
        turn.move,
        hand_known=turn.hand_known,
        playouts=playouts,
        seed=judge_seed(seed, index),
    )
    return {
        "game": name,
        "index": index,
        "candidates": len(v.first.ranked),
        "loss": round(v.loss, 4),
        "label": label_of(v.loss),
        "best": str(v.best.move),
        "win": round(v.win, 4),
        "cpu": round(time.process_time() - t0, 2),
    }


_TURNS: dict[tuple[str, int], Any] = {}


def reference(args: argparse.Namespace) -> None:
    path = Path(args.out)
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            d = json.loads(line)
            done.add((d["game"], d["index"]))
    todo = []
    for name, rec in games(args.games):
        for t in rec.decisions:
            _TURNS[(name, t.index)] = t
            if (name, t.index) not in done:
                todo.append((name, t.index, args.playouts, args.seed))
    print(f"{len(todo)} decisions to judge ({len(done)} done), {args.jobs} processes", flush=True)
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool, path.open("a") as f:  # forked: the workers have _TURNS
        for k, out in enumerate(pool.imap_unordered(_reference_one, todo), 1):
            f.write(json.dumps(out) + "\n")
            f.flush()
            if k % 20 == 0:
                print(f"{k}/{len(todo)} ({time.perf_counter() - t0:.0f} s)", flush=True)


def _load(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    out = {}
    for line in path.read_text().splitlines():
        d = json.loads(line)
        out[(d["game"], d["index"])] = d
    return out


def measure(args: argparse.Namespace) -> None:
    from keezbord.engine import judge
    from keezbord.engine.analysis import Row, iter_rows

    ref = _load(Path(args.ref)) if args.ref else {}
    # (Before issue 38 the analysis had no ANALYSIS_PLAYOUTS: 100 a candidate, evenly.)
    playouts = args.playouts or getattr(judge, "ANALYSIS_PLAYOUTS", 100)
    names = args.games or sorted({g for g, _ in ref}) or None
    agree = total = agree_c = total_c = 0
    conf: dict[tuple[str | None, str | None], int] = {}
    cpu_all = dec_all = 0.0
    for name, rec in games(names):
        t0 = time.process_time()
        rows = [r for r in iter_rows(rec, playouts=playouts, seed=args.seed) if isinstance(r, Row)]
        cpu = time.process_time() - t0
        if args.save:
            with Path(args.save).open("a") as f:
                for r in rows:
                    line = {"game": name, "index": r.index, "label": r.label, "loss": r.loss}
                    f.write(json.dumps(line) + "\n")
        cpu_all += cpu
        dec_all += len(rows)
        a = n = 0
        for r in rows:
            d = ref.get((name, r.index))
            if d is None:
                continue
            n += 1
            theirs: str | None = d["label"]
            a += theirs == r.label
            conf[(theirs, r.label)] = conf.get((theirs, r.label), 0) + 1
            if d["candidates"] > 1:
                total_c += 1
                agree_c += theirs == r.label
        agree += a
        total += n
        print(
            f"{name}: {len(rows)} decisions, CPU {cpu:.1f} s ({1000 * cpu / len(rows):.0f} ms a "
            f"decision, {200 * cpu / len(rows):.1f} s per 200), labels agree {a}/{n}",
            flush=True,
        )
    print(
        f"all: {dec_all:.0f} decisions, CPU {cpu_all:.1f} s, "
        f"{200 * cpu_all / max(1, dec_all):.1f} s per 200 decisions "
        f"(playouts {playouts}, seed {args.seed})"
    )
    if total:
        lo, hi = wilson(agree, total)
        print(
            f"labels agree with the reference: {agree}/{total} = {agree / total:.1%} "
            f"(95% {lo:.1%}-{hi:.1%})"
        )
        lo, hi = wilson(agree_c, total_c)
        print(
            f"  decisions with a choice: {agree_c}/{total_c} = {agree_c / max(1, total_c):.1%} "
            f"(95% {lo:.1%}-{hi:.1%})"
        )
        flagged = [(x, y) for (x, y), k in conf.items() for _ in range(k) if x is not None]
        kept = sum(x == y for x, y in flagged)
        lo, hi = wilson(kept, len(flagged))
        print(
            f"  decisions the reference labels: {kept}/{len(flagged)} the same label "
            f"(95% {lo:.1%}-{hi:.1%}); labelled or not: "
            f"{sum(k for (x, y), k in conf.items() if (x is None) == (y is None))}/{total}"
        )
        names_ = [None, "inaccuracy", "mistake", "blunder"]
        print(
            "  reference (rows) against this budget (columns): "
            + " ".join(f"{x!s:>10}" for x in names_)
        )
        for x in names_:
            print(f"  {x!s:>10} " + " ".join(f"{conf.get((x, y), 0):>10}" for y in names_))


def agree(args: argparse.Namespace) -> None:
    """The agreement of labels saved by ``measure --save`` with the reference."""
    ref = _load(Path(args.ref))
    rows = _load(Path(args.rows))
    both = [(ref[k], rows[k]) for k in rows if k in ref]
    same = sum(a["label"] == b["label"] for a, b in both)
    chosen = [(a, b) for a, b in both if a["candidates"] > 1]
    same_c = sum(a["label"] == b["label"] for a, b in chosen)
    flagged = [(a, b) for a, b in both if a["label"] is not None]
    same_f = sum(a["label"] == b["label"] for a, b in flagged)
    for what, k, n in (
        ("every decision", same, len(both)),
        ("with a choice", same_c, len(chosen)),
        ("labelled by the reference", same_f, len(flagged)),
    ):
        lo, hi = wilson(k, n)
        print(f"{what}: {k}/{n} = {k / max(1, n):.1%} (95% {lo:.1%}-{hi:.1%})")


def jobs(args: argparse.Namespace) -> None:
    """One game analysed with one process and with ``--jobs``: wall and CPU time (the
    workers' too), and whether the rows are the same."""
    import os

    from keezbord.host.analysis.parallel import analyse_rows

    name, rec = next(games([args.game]))
    out = {}
    for n in (1, args.jobs):
        t0, c0 = time.perf_counter(), os.times()
        rows = [r.to_json() for r in analyse_rows(rec, seed=args.seed, jobs=n)]
        wall, c1 = time.perf_counter() - t0, os.times()
        cpu = (c1.user + c1.system + c1.children_user + c1.children_system) - (
            c0.user + c0.system + c0.children_user + c0.children_system
        )
        out[n] = rows
        print(
            f"{name}, {len(rec.decisions)} decisions, --jobs {n}: wall {wall:.1f} s, CPU "
            f"{cpu:.1f} s (load average {os.getloadavg()[0]:.1f})",
            flush=True,
        )
    print("the same rows" if out[1] == out[args.jobs] else "ROWS DIFFER")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("reference")
    r.add_argument("--out", default="bench-analysis-reference.jsonl")
    r.add_argument("--playouts", type=int, default=400)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--games", nargs="*", default=None)
    m = sub.add_parser("measure")
    m.add_argument("--ref", default=None, help="a reference file (agreement is measured)")
    m.add_argument("--playouts", type=int, default=None, help="default: the analysis's")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--games", nargs="*", default=None)
    m.add_argument("--save", default=None, help="append each decision's label to this file")
    a = sub.add_parser("agree")
    a.add_argument("rows")
    a.add_argument("--ref", required=True)
    j = sub.add_parser("jobs")
    j.add_argument("--jobs", type=int, default=2)
    j.add_argument("--game", default="greedy-80000")
    j.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    {"reference": reference, "measure": measure, "agree": agree, "jobs": jobs}[args.cmd](args)


if __name__ == "__main__":
    main()
