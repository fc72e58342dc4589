"""Rules-engine benchmark (issue 2). Prints figures; run on demand:

    .venv/bin/python bench/bench_engine.py [--positions 300] [--games 100]

- legal-move generation per card on random mid-game positions (median and worst, µs);
- the worst 7 split we can construct;
- complete four-seat self-play games per second on one core (standard, random bots);
- start-up time of `keezbord moves`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from keezbord.engine.bots import make_bot
from keezbord.engine.cards import RANKS
from keezbord.engine.game import play_game
from keezbord.engine.movegen import successors
from keezbord.engine.position import Position


def mid_game_positions(n: int, seed: int = 1) -> list[Position]:
    """Positions sampled from random self-play games, 40 to 200 turns in."""
    out: list[Position] = []
    rng = random.Random(seed)
    while len(out) < n:
        s = rng.randrange(10**6)
        result = play_game(4, "standard", s, [make_bot("random", random.Random(s + i))
                                              for i in range(4)])
        turns = [t.after for t in result.history[40:200] if t.after is not None]
        out.extend(rng.sample(turns, min(len(turns), 10)))
    return out[:n]


def time_call(fn: object, repeat: int = 5) -> float:
    """Best of ``repeat`` runs, in µs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t)
    return best * 1e6


def bench_movegen(positions: list[Position]) -> None:
    print(f"legal-move generation, {len(positions)} random mid-game positions (4 seats, "
          "standard); all moves listed, best of 5 per position")
    print(f"  {'card':>4} {'median µs':>10} {'worst µs':>10} {'moves (avg)':>12}")
    for card in RANKS:
        times = [time_call(lambda p=p, c=card: list(successors(p, c))) for p in positions]
        counts = [len(list(successors(p, card))) for p in positions]
        print(f"  {card:>4} {statistics.median(times):10.1f} {max(times):10.1f} "
              f"{statistics.mean(counts):12.1f}")


def worst_seven() -> None:
    # Team play, the player's last own pawn one step from home and three home: any part
    # that brings it in hands the rest of the 7 to the partner's four pawns, spread out
    # so that every split is legal; the opponents' pawns stand in between to be captured.
    cases = {
        "own 4 free pawns, opponents spread (4 seats)": {
            "seats": 4, "pawns": [["T2", "T9", "T23", "T40"], ["T5", "T30", "T45", "N"],
                                  ["T20", "T27", "T50", "T58"], ["T12", "T35", "N", "N"]]},
        "last own pawn + 4 partner pawns (8 movable, 4 seats)": {
            "seats": 4, "pawns": [["T62", "H2", "H3", "H4"], ["T5", "T30", "T45", "N"],
                                  ["T36", "T40", "T50", "T58"], ["T12", "T20", "N", "N"]]},
        "last own pawn + 4 partner pawns (8 seats)": {
            "seats": 8, "pawns": [["T126", "H2", "H3", "H4"]] + [["N"] * 4] * 3 +
            [["T70", "T80", "T90", "T100"]] + [["T10", "T40", "N", "N"]] + [["N"] * 4] * 2},
        "own 4 pawns around their start, may_pass (keezspel)": {
            "seats": 4, "profile": "keezspel",
            "pawns": [["T58", "T61", "T63", "T2"], ["T5", "T30", "T45", "N"],
                      ["T20", "T27", "T50", "N"], ["T12", "T35", "N", "N"]]},
    }
    print("worst 7 splits (all moves listed, best of 20)")
    for label, d in cases.items():
        pos = Position.from_dict({"profile": "standard", "turn": 0, **d})
        n = len(list(successors(pos, "7")))
        us = time_call(lambda pos=pos: list(successors(pos, "7")), 20)
        print(f"  {label}: {n} moves, {us:.0f} µs")


def bench_selfplay(games: int) -> None:
    t = time.perf_counter()
    turns = 0
    for seed in range(games):
        r = play_game(4, "standard", seed, [make_bot("random", random.Random(seed * 7 + i))
                                            for i in range(4)])
        turns += r.turns
    dt = time.perf_counter() - t
    print(f"self-play: {games} four-seat games (standard, random bots) in {dt:.2f} s: "
          f"{games / dt:.1f} games/s, {turns / dt:.0f} turns/s, {turns / games:.0f} turns/game")


def bench_startup(runs: int = 10) -> None:
    exe = os.path.join(os.path.dirname(sys.executable), "keezbord")
    pos = {"seats": 4, "pawns": [["S", "T20", "N", "N"], ["T33", "N", "N", "N"],
                                 ["H4", "H3", "T60", "N"], ["N", "N", "N", "N"]]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(pos, f)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([exe, "moves", "--card", "7", f.name], check=True,
                       stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - t) * 1000)
    base = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        base.append((time.perf_counter() - t) * 1000)
    os.unlink(f.name)
    print(f"start-up: `keezbord moves --card 7 POS` median {statistics.median(times):.0f} ms "
          f"(bare python -c pass: {statistics.median(base):.0f} ms)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--games", type=int, default=100)
    a = ap.parse_args()
    bench_movegen(mid_game_positions(a.positions))
    worst_seven()
    bench_selfplay(a.games)
    bench_startup()


if __name__ == "__main__":
    main()
