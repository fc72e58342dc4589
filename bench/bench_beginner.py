"""How often the beginner level makes each of its mistakes (engine/beginner.py), and how
it fares, in seeded games against the casual level (the greedy bot) on the fast board,
each deal played twice with the seats swapped (docs/hints.md, "Levels").

    nice -n 10 .venv/bin/python bench/bench_beginner.py [--deals 30]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keezbord.engine.beginner import MISTAKE_KINDS, MISTAKES, BeginnerBot
from keezbord.engine.board import Board
from keezbord.engine.bots import FastChoice, GreedyBot
from keezbord.engine.game import play_game


class Counting(BeginnerBot):
    """The beginner, counting its decisions and mistakes."""

    made: ClassVar[Counter[str | None]] = Counter()

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice:
        choice = super().pick(board, seat, hand)
        if choice is not None:
            Counting.made[self.last_mistake] += 1
        return choice


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    won = 0
    for d in range(args.deals):
        seed = args.seed + d
        for rot in (0, 1):
            bots = [
                Counting(random.Random(seed * 10 + s))
                if s % 2 == rot
                else GreedyBot(random.Random(seed * 10 + s))
                for s in range(4)
            ]
            result = play_game(4, "standard", seed, bots)
            won += result.winner is not None and result.winner[0] % 2 == rot
    games = 2 * args.deals
    moves = sum(Counting.made.values())
    print(f"beginner against casual, 4 seats: won {won} of {games} ({100 * won / games:.1f}%)")
    print(f"{moves} moves, {moves - Counting.made[None]} with a mistake:")
    for kind in MISTAKE_KINDS:
        n = Counting.made[kind]
        print(f"  {kind:<16} rate {MISTAKES[kind]:.2f}: {n} ({100 * n / moves:.1f}% of moves)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
