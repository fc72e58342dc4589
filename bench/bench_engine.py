"""Rules-engine benchmark (issues 2 and 14). Prints figures; run on demand:

    .venv/bin/python bench/bench_engine.py [--positions 300] [--games 100]

Pinned to one core. Every fast-path figure is measured in the same run as the
Position-based path it replaced, over the same seeds and positions, and given as a ratio:

- complete self-play games per second: 4 seats (random bots), 6 and 8 seats, the greedy
  bot; then as `keezbord selfplay --json` reports it (its in-process `seconds`);
- legal moves per card on random mid-game positions (median and worst, µs) and the
  worst 7 splits we can construct;
- start-up time of `keezbord moves`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial

from keezbord.engine.board import Board
from keezbord.engine.bot_kinds import BOT_KINDS, make_bot
from keezbord.engine.cards import RANKS
from keezbord.engine.game import play_game, play_game_positions
from keezbord.engine.movegen import successors
from keezbord.engine.position import Position


def mid_game_positions(n: int, seed: int = 1) -> list[Position]:
    """Positions sampled from random self-play games, 40 to 200 turns in."""
    out: list[Position] = []
    rng = random.Random(seed)
    while len(out) < n:
        s = rng.randrange(10**6)
        result = play_game(
            4, "standard", s, [make_bot("random", random.Random(s + i)) for i in range(4)]
        )
        turns = [t.after for t in result.history[40:200] if t.after is not None]
        out.extend(rng.sample(turns, min(len(turns), 10)))
    return out[:n]


def time_call(fn: Callable[[], object], repeat: int = 5) -> float:
    """Best of ``repeat`` runs, in µs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1e6


def _all_successors(pos: Position, card: str) -> list[object]:
    return list(successors(pos, card))


def bench_movegen(positions: list[Position]) -> None:
    print(
        f"legal moves per card, {len(positions)} random mid-game positions (4 seats, "
        "standard); all moves listed, best of 5 per position, µs"
    )
    print(
        f"  {'card':>4} {'fast med':>9} {'worst':>7} {'Position med':>13} {'worst':>7} "
        f"{'ratio':>6} {'moves':>6}"
    )
    boards = [(Board(p), p.turn) for p in positions]
    for card in RANKS:
        fast = [time_call(partial(b.moves, card, s)) for b, s in boards]
        slow = [time_call(partial(_all_successors, p, card)) for p in positions]
        counts = [len(b.moves(card, s)) for b, s in boards]
        print(
            f"  {card:>4} {statistics.median(fast):9.1f} {max(fast):7.1f} "
            f"{statistics.median(slow):13.1f} {max(slow):7.1f} "
            f"{statistics.median(slow) / statistics.median(fast):5.1f}x "
            f"{statistics.mean(counts):6.1f}"
        )


def worst_seven() -> None:
    # Team play, the player's last own pawn one step from home and three home: any part
    # that brings it in hands the rest of the 7 to the partner's four pawns, spread out
    # so that every split is legal; the opponents' pawns stand in between to be captured.
    cases = {
        "own 4 free pawns, opponents spread (4 seats)": {
            "seats": 4,
            "pawns": [
                ["T2", "T9", "T23", "T40"],
                ["T5", "T30", "T45", "N"],
                ["T20", "T27", "T50", "T58"],
                ["T12", "T35", "N", "N"],
            ],
        },
        "last own pawn + 4 partner pawns (8 movable, 4 seats)": {
            "seats": 4,
            "pawns": [
                ["T62", "H2", "H3", "H4"],
                ["T5", "T30", "T45", "N"],
                ["T36", "T40", "T50", "T58"],
                ["T12", "T20", "N", "N"],
            ],
        },
        "last own pawn + 4 partner pawns (8 seats)": {
            "seats": 8,
            "pawns": [["T126", "H2", "H3", "H4"]]
            + [["N"] * 4] * 3
            + [["T70", "T80", "T90", "T100"]]
            + [["T10", "T40", "N", "N"]]
            + [["N"] * 4] * 2,
        },
        "own 4 pawns around their start, may_pass (keezspel)": {
            "seats": 4,
            "profile": "keezspel",
            "pawns": [
                ["T58", "T61", "T63", "T2"],
                ["T5", "T30", "T45", "N"],
                ["T20", "T27", "T50", "N"],
                ["T12", "T35", "N", "N"],
            ],
        },
    }
    print("worst 7 splits (all moves listed, best of 20)")
    for label, d in cases.items():
        pos = Position.from_dict({"profile": "standard", "turn": 0, **d})
        board = Board(pos)
        n = len(board.moves("7", 0))
        fast = time_call(partial(board.moves, "7", 0), 20)
        slow = time_call(partial(_all_successors, pos, "7"), 20)
        print(
            f"  {label}: {n} moves, fast {fast:.0f} µs, Position-based {slow:.0f} µs "
            f"({slow / fast:.1f}x)"
        )


def _games(seats: int, bot: str, games: int) -> tuple[float, float, float]:
    """Games/s on the fast path and on the Position path, and turns/game, over seeds
    0..games-1; each seed is played on both paths in turn, so that a change in the
    machine's load weighs on both alike."""
    turns = 0
    spent = {play_game: 0.0, play_game_positions: 0.0}
    for seed in range(games):
        for play in spent:
            bots = [make_bot(bot, random.Random(seed * 7 + i)) for i in range(seats)]
            t = time.perf_counter()
            r = play(seats, "standard", seed, bots)
            spent[play] += time.perf_counter() - t
        turns += r.turns
    return games / spent[play_game], games / spent[play_game_positions], turns / games


def bench_selfplay(games: int) -> None:
    print(
        "self-play, complete games on one core (standard; the same seeds and bots on "
        "both paths: the same games)"
    )
    print(
        f"  {'seats':>5} {'bot':>7} {'games':>5} {'fast g/s':>9} {'Position g/s':>13} "
        f"{'ratio':>6} {'turns/game':>10}"
    )
    for seats, bot, n in (
        (4, "random", games),
        (6, "random", games // 2),
        (8, "random", games // 4),
        (4, "greedy", games // 4),
        (8, "greedy", games // 10),
    ):
        n = max(n, 4)
        fast, slow, turns = _games(seats, bot, n)
        print(
            f"  {seats:>5} {bot:>7} {n:>5} {fast:9.1f} {slow:13.1f} {fast / slow:5.1f}x "
            f"{turns:10.0f}"
        )


def bench_selfplay_cli(games: int) -> None:
    exe = os.path.join(os.path.dirname(sys.executable), "keezbord")
    out = {}
    for engine in ("fast", "positions"):
        run = subprocess.run(
            [exe, "selfplay", "--games", str(games), "--json", "--engine", engine],
            check=True,
            capture_output=True,
            text=True,
        )
        out[engine] = json.loads(run.stdout)
    f, p = out["fast"], out["positions"]
    print(
        f"`keezbord selfplay --games {games} --json` (4 seats, random): fast "
        f"{f['games_per_second']} games/s ({f['seconds']} s), --engine positions "
        f"{p['games_per_second']} games/s ({p['seconds']} s): "
        f"{p['seconds'] / f['seconds']:.1f}x"
    )


def bench_startup(runs: int = 10) -> None:
    exe = os.path.join(os.path.dirname(sys.executable), "keezbord")
    pos = {
        "seats": 4,
        "pawns": [
            ["S", "T20", "N", "N"],
            ["T33", "N", "N", "N"],
            ["H4", "H3", "T60", "N"],
            ["N", "N", "N", "N"],
        ],
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(pos, f)
    # As installed: with bytecode (pip compiles on install). PYTHONDONTWRITEBYTECODE, if
    # set here, would make every run compile the modules again; one warm-up run writes
    # the bytecode, the runs after it are measured.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cmd = [exe, "moves", "--card", "7", f.name]
    figures = {}
    cpu = {}

    def child_cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (r.ru_utime + r.ru_stime) * 1000

    for label, run_env in (("with bytecode", env), ("compiling every run", None)):
        if run_env is env:
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times = []
        cpus = []
        for _ in range(runs):
            t = time.perf_counter()
            c = child_cpu()
            subprocess.run(
                cmd, check=True, stdout=subprocess.DEVNULL, env=run_env, cwd=tempfile.gettempdir()
            )
            times.append((time.perf_counter() - t) * 1000)
            cpus.append(child_cpu() - c)
        figures[label] = statistics.median(times)
        cpu[label] = statistics.median(cpus)
    base = []
    base_cpu = []
    for _ in range(runs):
        t = time.perf_counter()
        c = child_cpu()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
        base.append((time.perf_counter() - t) * 1000)
        base_cpu.append(child_cpu() - c)
    os.unlink(f.name)
    how = (
        "PYTHONDONTWRITEBYTECODE keeps it from being written"
        if "PYTHONDONTWRITEBYTECODE" in os.environ
        else "run as this shell runs it"
    )
    print(
        f"start-up: `keezbord moves --card 7 POS` median {figures['with bytecode']:.0f} ms "
        f"with bytecode, {figures['compiling every run']:.0f} ms {how} "
        f"(bare python -c pass: {statistics.median(base):.0f} ms)"
    )
    # CPU time (user + system) of the child: what a loaded machine's waits leave out.
    print(
        f"start-up CPU: `keezbord moves` median {cpu['with bytecode']:.0f} ms with bytecode, "
        f"{cpu['compiling every run']:.0f} ms as this shell runs it (bare python -c pass: "
        f"{statistics.median(base_cpu):.0f} ms)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--games", type=int, default=100)
    a = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    assert {"random", "greedy"} <= set(BOT_KINDS)  # the search bot: bench/bench_search.py
    bench_selfplay(a.games)
    bench_selfplay_cli(a.games)
    bench_movegen(mid_game_positions(a.positions))
    worst_seven()
    bench_startup()


if __name__ == "__main__":
    main()
