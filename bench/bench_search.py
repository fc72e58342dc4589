"""Search-bot and hint benchmark (issue 15). Prints figures; run on demand:

    .venv/bin/python bench/bench_search.py --deals 50 --playouts 60
    .venv/bin/python bench/bench_search.py --deals 200 --budget-ms 200   # about an hour

- duplicate match, four seats, standard: every seeded deal is played twice with the
  teams' seats swapped (search on 0+2 against greedy on 1+3, then the other way round),
  so card luck weighs on both teams alike; the search team's win rate with a 95% Wilson
  interval over games, and per deal pair (won both / split / lost both); two processes;
- playouts per second (the host's measurement, search_budget.py);
- the time of a hint (``advise``, the whole hand) at the budget: median and p95;
- the leaf's calibration: the evaluation squashed to a win chance against who won;
- the coach in greedy-against-greedy games: how often it would speak per move at several
  thresholds of the win-chance gap, and the smallest threshold giving fewer than one
  remark in ten moves.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from multiprocessing import Pool

from keezbord.engine.advice import advise, regret
from keezbord.engine.board import Board, to_move
from keezbord.engine.bots import Choice, FastChoice, GreedyBot, evaluate_board
from keezbord.engine.game import Game, play_game
from keezbord.engine.leaf import SCALE
from keezbord.engine.position import Position
from keezbord.engine.search import Known, SearchBot, analyse
from keezbord.host.search_budget import playouts_per_second, sample_decisions


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of ``wins`` of ``n`` (a half win counts as half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def _deal(args: tuple[int, int]) -> tuple[int, int, int]:
    """One deal played twice; (search wins, games, turns)."""
    seed, playouts = args
    wins = turns = 0
    for swap in (0, 1):
        bots: list[SearchBot | GreedyBot] = []
        for s in range(4):
            rng = random.Random(seed * 1000 + 10 * swap + s)
            search = (s % 2 == 0) != bool(swap)
            bots.append(SearchBot(rng, playouts) if search else GreedyBot(rng))
        r = play_game(4, "standard", seed, bots)
        turns += r.turns
        if r.winner is not None and isinstance(bots[r.winner[0]], SearchBot):
            wins += 1
    return wins, 2, turns


def match(deals: int, playouts: int, seed: int, procs: int) -> None:
    t0 = time.perf_counter()
    results: list[tuple[int, int, int]] = []
    print(
        f"duplicate match, 4 seats standard, search ({playouts} playouts a decision) "
        f"against greedy, {deals} deals x 2 games, {procs} processes",
        flush=True,
    )
    with Pool(procs) as pool:
        jobs = [(seed + d, playouts) for d in range(deals)]
        for r in pool.imap_unordered(_deal, jobs):
            results.append(r)
            if len(results) % 10 == 0 or len(results) == deals:
                _report(results, time.perf_counter() - t0)


def _report(results: list[tuple[int, int, int]], elapsed: float) -> None:
    """The tally so far (printed as it goes: an interrupted run still says something)."""
    deals = len(results)
    wins = sum(w for w, _, _ in results)
    games = sum(g for _, g, _ in results)
    both = sum(1 for w, _, _ in results if w == 2)
    none = sum(1 for w, _, _ in results if w == 0)
    lo, hi = wilson(wins, games)
    print(
        f"  after {deals} deals ({games} games, {elapsed:.0f} s): search team won "
        f"{wins}/{games} = {100 * wins / games:.1f}% (95% interval "
        f"{100 * lo:.1f}-{100 * hi:.1f}%); deal pairs won both {both}, split "
        f"{deals - both - none}, lost both {none}",
        flush=True,
    )


def hint_times(playouts: int, n: int) -> None:
    decisions = sample_decisions(4, "standard", seed=11, count=n)
    times = []
    for i, (board, seat, hand) in enumerate(decisions):
        pos = board.position(seat)
        t = time.perf_counter()
        advise(pos, hand, Known(), playouts=playouts, seed=i)
        times.append(1000 * (time.perf_counter() - t))
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"hint (advise, whole hand, {playouts} playouts) over {len(times)} decisions: "
        f"median {statistics.median(times):.0f} ms, p95 {p95:.0f} ms"
    )


class _Chosen:
    """A bot whose choice is already made (the greedy bot's draw is spent once)."""

    name = "chosen"

    def __init__(self, choice: FastChoice) -> None:
        self.choice = choice

    def pick(self, board: Board, seat: int, hand: Sequence[str]) -> FastChoice:
        return self.choice

    def choose(self, pos: Position, hand: Sequence[str]) -> Choice:
        c = self.choice
        return None if c is None else (c[0], to_move(c[1]))

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        return hand[0]


def coach_rate(games: int, playouts: int) -> None:
    thresholds = (0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15, 0.20)
    gaps: list[float] = []
    for g in range(games):
        game = Game(4, "standard", 500 + g)
        bots = [GreedyBot(random.Random(g * 10 + s)) for s in range(4)]
        while not game.over and len(game.history) < 400:
            game.exchange(bots)
            seat = game.table.turn
            assert seat is not None
            hand = game.hand(seat)
            board = Board(game.position.replace(turn=seat))
            choice = bots[seat].pick(board, seat, hand)
            if choice is not None:
                a = analyse(
                    board,
                    seat,
                    hand,
                    Known(),
                    playouts=playouts,
                    rng=random.Random(len(game.history)),
                    include=choice,
                )
                gaps.append(regret(a, choice[0], choice[1], board)[0])
            game.play_turn(_Chosen(choice))  # the choice judged, as picked
    print(
        f"coach in greedy-vs-greedy games: {games} games, {len(gaps)} moves, "
        f"{playouts} playouts a judgement"
    )
    best = None
    for th in thresholds:
        rate = sum(1 for x in gaps if x >= th) / max(1, len(gaps))
        print(f"  threshold {th:.3f}: speaks after {100 * rate:.1f}% of moves")
        if best is None and rate < 0.1:
            best = th
    print(f"  smallest threshold with fewer than one remark in ten moves: {best}")


def calibration(games: int) -> None:
    """Does the leaf's win chance mean what it says? The evaluation every 8th turn of
    greedy games against who won, squashed at several scales: log loss, and the win
    rate per tenth of predicted chance at the scale in use."""
    data: list[tuple[float, int]] = []
    for g in range(games):
        game = Game(4, "standard", 9000 + g)
        bots = [GreedyBot(random.Random(g * 7 + s)) for s in range(4)]
        vals: list[float] = []
        while not game.over and len(game.history) < 600:
            game.exchange(bots)
            if len(game.history) % 8 == 0:
                vals.append(evaluate_board(Board(game.position), 0))
            seat = game.table.turn
            assert seat is not None
            game.play_turn(bots[seat])
        w = game.position.winner()
        if w is not None:
            data += [(v, int(0 in w)) for v in vals]
    print(f"leaf calibration over {games} greedy games ({len(data)} positions):")
    for scale in (100.0, 150.0, SCALE, 400.0):
        loss = 0.0
        buckets: dict[int, list[int]] = {}
        for v, y in data:
            p = 1 / (1 + math.exp(-max(-50.0, min(50.0, v / scale))))
            b = buckets.setdefault(min(9, int(p * 10)), [0, 0])
            b[0] += y
            b[1] += 1
            p = min(max(p, 1e-6), 1 - 1e-6)
            loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        line = f"  scale {scale:.0f}: log loss {loss / max(1, len(data)):.4f}"
        if scale == SCALE:
            line += "; won per predicted tenth: " + ", ".join(
                f"{k / 10:.1f}: {w / n:.2f} ({n})" for k, (w, n) in sorted(buckets.items())
            )
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--playouts", type=int, default=None)
    ap.add_argument("--budget-ms", type=float, default=None)
    ap.add_argument("--seed", type=int, default=20_000)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--hints", type=int, default=40, help="decisions timed for the hint")
    ap.add_argument("--coach-games", type=int, default=4)
    ap.add_argument("--calib-games", type=int, default=150)
    ap.add_argument("--skip-match", action="store_true")
    args = ap.parse_args()
    rate = playouts_per_second()
    print(f"playouts per second (4 seats, standard, one core): {rate:.0f}")
    playouts = args.playouts
    if playouts is None:
        ms = args.budget_ms if args.budget_ms is not None else 50.0
        playouts = max(1, round(rate * ms / 1000))
        print(f"budget {ms:.0f} ms a decision = {playouts} playouts on this machine")
    if args.calib_games > 0:
        calibration(args.calib_games)
    if args.hints > 0:
        hint_times(playouts, args.hints)
    if args.coach_games > 0:
        coach_rate(args.coach_games, playouts)
    if not args.skip_match:
        match(args.deals, playouts, args.seed, args.procs)


if __name__ == "__main__":
    main()
