"""Whose move gaps are right: the judge's leaf and the bot's against greedy play to the end
(issue 38, docs/analysis.md "Gaps against play to the end"). CPU-heavy: run it niced.

    nice -n 15 .venv/bin/python bench/bench_judge_truth.py run --deals 600 --jobs 2 \\
        --puzzles bench/results/puzzles-shipped-2026-12-05.jsonl --out truth-shipped.jsonl
    .venv/bin/python bench/bench_judge_truth.py report truth-shipped.jsonl [more files]
    nice .venv/bin/python bench/bench_judge_truth.py decision \\
        "NNT7T20/NNNT12/NNNN/NNNN 0 standard" --hand 5 --deals 5000 \\
        --moves "5 0:T7-T12" "5 0:T20-T25"
    nice -n 15 .venv/bin/python bench/bench_judge_truth.py advice --deals 1500 \\
        --out bench/results/truth-advice.jsonl
    nice -n 15 .venv/bin/python bench/bench_judge_truth.py homes --games 6 \\
        --out bench/results/truth-homes.jsonl

A decision is two moves of the seat to play: a puzzle's solution and its second best, or
two moves named. Each is played and the game then played to its end by the greedy bot
on every seat, on ``--deals`` deals consistent with what the seat knows (its hand; the
others' hands of the sizes known, holding no card seen this shuffle), the same deals for
both moves. The difference of the seat's team's wins is the first move's true gap *under
greedy play* (the scale the calibration is fitted on: greedy self-play), with its
standard error. Beside it, each leaf's gap for the same pair by the evaluator at 400
playouts a candidate (engine/alternatives.py ``only``): the hand-made leaf's as the judge
shows it (calibrated) and raw, and the fitted leaf's raw (its own fit needs no
temperature with 2 teams). ``report`` compares them: the means, the slope of the truth on
each leaf's gap, the correlation, the error beyond the truth's own noise, and the
decisions whose first move is truly better or truly worse.

``sample``: decisions of greedy 4-seat self-play games chosen by neither leaf (the turns
whose number is a multiple of ``--every``, with a choice and the hand known; seeds from
61,000): the move greedy played against another of its candidates drawn at random, with
the seat's own knowledge then. A yardstick of typical decisions (the puzzles are the
decisions a leaf calls clear), and the data a leaf fitted to decisions is fitted on
(bench/fit_leaf_decisions.py). Resumable.

``homes``: the turns of greedy 4-seat games (seeds from 62,000) where one candidate
brings a pawn home or deeper into its home and another does not: such a move against a
random other. The decisions a leaf fitted to positions gets backwards. Resumable.

``advice``: the hand-built positions of tests/engine/test_advice.py whose right move a
Keezen player knows, each that move against the best other by the fitted leaf (at 400
playouts a candidate, the seed of ``decision``): is the player's move truly better, and
which leaf says so.

The later rounds' deals are approximate: the stock keeps the cards seen (the seat does
not know which round of the shuffle it is in, so the game deals as from its first).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from keezbord.engine.alternatives import evaluate_moves
from keezbord.engine.board import Board
from keezbord.engine.bots import GreedyBot
from keezbord.engine.calibration import calibrate
from keezbord.engine.game import Game
from keezbord.engine.leaf import team_order
from keezbord.engine.notation import Move, parse_move
from keezbord.engine.position import Position
from keezbord.engine.puzzles import puzzle_seed
from keezbord.engine.rollout import FITTED_LEAF, GREEDY, HAND_LEAF
from keezbord.engine.search import Known

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_calibration import HAND_TEMPERATURE
from truth_decisions import (
    JUDGE_PLAYOUTS,
    SAMPLE_EVERY,
    Decision,
    advice_decisions,
    home_decisions,
    puzzle_decisions,
    sampled_decisions,
)

DEAL_SEED = 900_000  # the deals: Game seeds from here


def dealt(pos: Position, hand: Sequence[str], known: Known, deal: int) -> Game:
    """A game begun at ``pos`` on deal ``deal``: the seat to play holds ``hand``, the
    others hands of the sizes known, none holding a card seen this shuffle (each swapped
    with an unseen card of the stock, which keeps its size)."""
    seats = pos.seats
    sizes = list(known.hand_sizes) if known.hand_sizes else [len(hand)] * seats
    sizes[pos.turn] = len(hand)
    g = Game(seats, "standard", DEAL_SEED + deal)
    g.begin_at(pos, cards_left=sizes, given={pos.turn: list(hand)})
    seen = list(known.seen)
    for c in seen:
        for s in range(seats):
            if s != pos.turn and c in g.hands[s]:
                i = next((i for i, x in enumerate(g.stock) if x not in seen), None)
                if i is not None:
                    g.hands[s][g.hands[s].index(c)], g.stock[i] = g.stock[i], c
                break
    return g


def play_to_end(
    pos: Position,
    hand: Sequence[str],
    known: Known,
    card: str,
    move: Move,
    deal: int,
) -> bool:
    """``move`` with ``card`` played by the seat to play, then the game to its end by the
    greedy bot on every seat, on deal ``deal``: did the seat's team win?"""
    g = dealt(pos, hand, known, deal)
    seats = pos.seats
    g.play(card, move)
    bots = [GreedyBot(random.Random(deal * 10 + s)) for s in range(seats)]
    while (seat := g.to_play) is not None and len(g.history) < 20_000:
        g.exchange(bots)
        g.play_turn(bots[seat])
    return g.position.winner() == pos.team_of(pos.turn)


def judge_pair(job: Decision) -> dict[str, Any]:
    """The truth and both leaves' gaps for one decision (a worker's share)."""
    name, pos, hand, known, moves, deals = job
    diffs = []
    won_first = 0
    for d in range(deals):
        a, b = (play_to_end(pos, hand, known, c, m, d) for c, m in moves)
        diffs.append(int(a) - int(b))
        won_first += int(a)
    mean = sum(diffs) / deals
    var = sum((x - mean) ** 2 for x in diffs) / max(1, deals - 1)
    row: dict[str, Any] = {
        "id": name,
        "truth": round(mean, 4),
        "se": round(math.sqrt(var / deals), 4),
        "won_first": round(won_first / deals, 4),
        "deals": deals,
    }
    row.update(leaf_gaps(job))
    return row


def leaf_gaps(job: Decision) -> dict[str, float]:
    """Each leaf's gap for the decision's pair, raw and as shown (the judge's playouts:
    to the end of the round at most, so the leaf judges what the round leaves). Shown:
    the hand-made and the fitted leaf's at the hand-made leaf's temperatures, as every
    row before the judge's leaf (2026-12-06) was; the judge's at its own."""
    name, pos, hand, known, moves, _ = job
    board = Board(pos)
    mine = team_order(board).index(pos.team_of(pos.turn))
    out = {}
    for leaf, how in (("hand", HAND_LEAF), ("fitted", FITTED_LEAF), ("judge", GREEDY)):
        ev = evaluate_moves(
            pos,
            hand,
            known,
            playouts=JUDGE_PLAYOUTS,
            seed=puzzle_seed(name) + 5,
            only=moves,
            how=how,
        )
        first, second = (ev.find(c, m, pos) for c, m in moves)
        assert first is not None and second is not None
        out[f"{leaf}_raw"] = round(first.raw_dist[mine] - second.raw_dist[mine], 4)
        if leaf == "judge":
            out[f"{leaf}_shown"] = round(first.win - second.win, 4)
        else:
            t = HAND_TEMPERATURE.get(board.seats, 1.0)
            shown = calibrate(first.raw_dist, t)[mine] - calibrate(second.raw_dist, t)[mine]
            out[f"{leaf}_shown"] = round(shown, 4)
    return out


def play_all(decisions: list[Decision], out: Path, jobs: int, limit: int = 0) -> None:
    """Each decision not yet in ``out`` (by id) played to the end, its row appended (with
    the two moves weighed) as it comes: an interrupted run resumes where it stopped."""
    done = set()
    if out.exists():
        done = {json.loads(x)["id"] for x in out.read_text().splitlines() if x.strip()}
    todo = [d for d in decisions if d[0] not in done]
    todo = todo[:limit] if limit else todo
    deals = todo[0][5] if todo else 0
    print(f"{len(todo)} decisions to play ({len(done)} done), {deals} deals each", flush=True)
    with Pool(jobs) as pool, out.open("a") as f:
        for k, (row, job) in enumerate(zip(pool.imap(judge_pair, todo), todo, strict=True), 1):
            row["moves"] = [str(m) for _c, m in job[4]]
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{k}/{len(todo)} {row['id']}: truth {row['truth']:+.3f}", flush=True)


def run(args: argparse.Namespace) -> None:
    play_all(
        puzzle_decisions(Path(args.puzzles), args.deals), Path(args.out), args.jobs, args.limit
    )


def decision(args: argparse.Namespace) -> None:
    pos = Position.from_text(args.position)
    hand = tuple(args.hand.split(","))
    moves = []
    for text in args.moves:
        card = text.split(" ", 1)[0]
        moves.append((card, parse_move(text, pos.topology)))
    sizes = tuple(len(hand) if s == pos.turn else 5 for s in range(pos.seats))
    row = judge_pair(("decision", pos, hand, Known((), sizes), moves, args.deals))
    print(json.dumps(row))


def homes(args: argparse.Namespace) -> None:
    play_all(home_decisions(args.games, args.deals), Path(args.out), args.jobs)


def sample(args: argparse.Namespace) -> None:
    play_all(sampled_decisions(args.games, args.every, args.deals), Path(args.out), args.jobs)


def advice(args: argparse.Namespace) -> None:
    play_all(advice_decisions(args.deals), Path(args.out), args.jobs)


def _stats(rows: list[dict[str, Any]], key: str) -> str:
    g = [r[key] for r in rows]
    t = [r["truth"] for r in rows]
    n = len(rows)
    mg, mt = sum(g) / n, sum(t) / n
    slope = sum(a * b for a, b in zip(g, t, strict=True)) / max(1e-12, sum(a * a for a in g))
    cov = sum((a - mg) * (b - mt) for a, b in zip(g, t, strict=True))
    sg = math.sqrt(sum((a - mg) ** 2 for a in g))
    st = math.sqrt(sum((b - mt) ** 2 for b in t))
    corr = cov / (sg * st) if sg and st else float("nan")
    mse = sum((a - b) ** 2 for a, b in zip(g, t, strict=True)) / n
    noise = sum(r["se"] ** 2 for r in rows) / n
    excess = math.sqrt(max(0.0, mse - noise))
    return f"| {key} | {mg:.4f} | {slope:.2f} | {corr:.2f} | {math.sqrt(mse):.4f} | {excess:.4f} |"


def report(args: argparse.Namespace) -> None:
    for name in args.files:
        rows = [json.loads(x) for x in Path(name).read_text().splitlines() if x.strip()]
        if not rows:
            continue
        n = len(rows)
        mt = sum(r["truth"] for r in rows) / n
        better = sum(1 for r in rows if r["truth"] - 1.96 * r["se"] > 0)
        worse = sum(1 for r in rows if r["truth"] + 1.96 * r["se"] < 0)
        se = math.sqrt(sum(r["se"] ** 2 for r in rows)) / n
        print(f"\n{name}: {n} decisions, {rows[0]['deals']} deals each")
        print(f"truth: mean gap {mt:.4f} (se {se:.4f}); first move truly better in {better}, ")
        print(f"truly worse in {worse} (95%), the rest cannot tell")
        print("| leaf gap | mean | slope of truth on it | correlation | rms error | beyond noise |")
        print("|---|---|---|---|---|---|")
        for key in ("hand_shown", "hand_raw", "fitted_raw"):
            print(_stats(rows, key))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="puzzles' solution against their second best")
    # The set truth-shipped.jsonl was played for: the one shipped until 2026-12-06.
    r.add_argument("--puzzles", default="bench/results/puzzles-shipped-2026-12-05.jsonl")
    r.add_argument("--out", required=True)
    r.add_argument("--deals", type=int, default=600)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--limit", type=int, default=0, help="at most this many (0: all)")
    d = sub.add_parser("decision", help="two moves of one position")
    d.add_argument("position")
    d.add_argument("--hand", required=True, help="the seat's cards, commas between")
    d.add_argument("--moves", nargs=2, required=True)
    d.add_argument("--deals", type=int, default=5000)
    m = sub.add_parser("sample", help="decisions of greedy games chosen by neither leaf")
    m.add_argument("--out", required=True)
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--every", type=int, default=SAMPLE_EVERY)
    m.add_argument("--deals", type=int, default=600)
    m.add_argument("--jobs", type=int, default=2)
    h = sub.add_parser("homes", help="a move home (or deeper) against one that is not")
    h.add_argument("--out", required=True)
    h.add_argument("--games", type=int, default=4)
    h.add_argument("--deals", type=int, default=600)
    h.add_argument("--jobs", type=int, default=2)
    a = sub.add_parser("advice", help="tests/engine/test_advice.py's known right moves")
    a.add_argument("--out", required=True)
    a.add_argument("--deals", type=int, default=1500)
    a.add_argument("--jobs", type=int, default=2)
    p = sub.add_parser("report")
    p.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    cmds = {
        "run": run,
        "decision": decision,
        "sample": sample,
        "homes": homes,
        "advice": advice,
        "report": report,
    }
    cmds[args.cmd](args)


if __name__ == "__main__":
    main(sys.argv[1:])
