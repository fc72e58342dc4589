"""The ladder: bots as processes speaking the engine protocol (docs/engine-protocol.md)
play duplicate matches; win rates with 95% intervals and an Elo for every bot
(docs/hints.md, "The ladder"). CPU-heavy: run it niced.

    nice -n 10 .venv/bin/python bench/bench_ladder.py run --seats 4 --deals 50 \\
        --movetime 50 --match greedy:search-b80f2dd,search-b80f2dd:search --results ladder.jsonl
    .venv/bin/python bench/bench_ladder.py report ladder.jsonl

Rungs: ``random``, ``greedy``, ``search-b80f2dd`` (the search as it was at commit b80f2dd,
run from a git worktree of that commit through bench/engine_pinned.py, so it never
drifts; the worktree is made at ``--pinned`` when missing), ``search`` (today's),
``search-infer`` (today's search weighing the deals it samples by the others' choices this
round, engine/inference.py) and ``ceiling`` (today's search told every hand). Each rung
is its own process.

Duplicate: every deal (its seed: the dealer and every shuffle) is played once per team
the first bot can sit on: at 4 seats twice (seats 0 and 2, then 1 and 3), at 6 seats three
times (one team, the other two teams the second bot's). Equal time (``--movetime MS``):
the ladder measures every searching engine's playouts a second itself, through the
protocol, on the same positions, the engines alternated (``calibrate``), and gives each
``go playouts`` worth MS milliseconds at its own rate (an engine measuring itself while
the other plays is not equal: under load two processes measured 34 and 53 ms for one
"movetime 50"); the mean time a decision each engine took is kept with every game.
``--playouts N``: the same playouts for both. Each game is appended to the results file
as it ends (a JSON line), and a run resumes where it stopped: games already in the file
are skipped, so interrupted runs add up. A resumed match keeps the playouts a second it
was first calibrated at (the rates kept with its games in the file): the same match, the
same playouts a decision, however loaded the machine is when it resumes.

Elo: with one team of A against n-1 teams of B (Bradley-Terry strengths a and b), A wins
with p = a / (a + (n-1) b), so a/b = p (n-1) / (1 - p) and Elo(A) - Elo(B) = 400 log10 of
it (n = 2: the usual formula). ``report`` fits one Elo per bot over all matches of a seat
count by maximum likelihood (greedy = 0), and gives each match's difference with the
95% Wilson interval of its win rate mapped through the same formula, and the complete
deals by how many of their games A won (4 seats: 0 lost both, 1 split, 2 won both).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # bench/ scripts run from the tree

from bench_search import wilson  # noqa: E402  (bench/ is the script's own folder)

from keezbord.engine.board import Board, from_move  # noqa: E402
from keezbord.engine.deal import Table, deal_hands, shuffled_deck  # noqa: E402
from keezbord.engine.levels import LEVELS  # noqa: E402
from keezbord.engine.movegen import legal_moves  # noqa: E402
from keezbord.engine.notation import parse_move  # noqa: E402
from keezbord.engine.position import Position  # noqa: E402

PIN = "b80f2dd"
# The levels (engine/levels.py) as rungs: beginner, greedy (the casual level), club and
# strong (the search at the level's own playouts a decision, whatever the match's budget).
LEVEL_PLAYOUTS = {lv.name: lv.playouts for lv in LEVELS if lv.playouts is not None}
RUNGS = (
    "random",
    "greedy",
    "beginner",
    f"search-{PIN}",
    "search",
    "search-infer",
    "ceiling",
    *LEVEL_PLAYOUTS,
)
MAX_TURNS = 3_000


def engine_command(rung: str, pinned: Path) -> list[str]:
    py = sys.executable
    if rung == f"search-{PIN}":
        return [py, str(ROOT / "bench" / "engine_pinned.py"), "--root", str(pinned)]
    if rung == "search-infer":  # told the others' choices this round (inference.py)
        return [py, "-m", "keezbord", "engine", "--bot", "search", "--infer"]
    if rung in LEVEL_PLAYOUTS:
        return [py, "-m", "keezbord", "engine", "--bot", "search"]
    if rung in RUNGS:
        return [py, "-m", "keezbord", "engine", "--bot", rung]
    if rung.startswith("search+"):  # today's search with options (bench/engine_variant.py)
        return [py, str(ROOT / "bench" / "engine_variant.py"), "--opts", rung[len("search+") :]]
    raise SystemExit(f"bench_ladder: unknown rung {rung!r} ({', '.join(RUNGS)})")


def ensure_pinned(path: Path) -> None:
    """A git worktree of the pinned commit at ``path`` (made when missing)."""
    if (path / "keezbord" / "engine" / "search.py").is_file():
        return
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), PIN],
        check=True,
        capture_output=True,
    )


class EngineProc:
    """One engine process; ``ask`` sends lines and reads up to the answer's last line."""

    def __init__(self, rung: str, pinned: Path) -> None:
        self.rung = rung
        self.proc = subprocess.Popen(
            engine_command(rung, pinned),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(ROOT),
        )
        self.ask(["keezbord"], "keezbordok")

    def ask(self, lines: list[str], end: str) -> list[str]:
        stdin: IO[str] | None = self.proc.stdin
        stdout: IO[str] | None = self.proc.stdout
        assert stdin is not None and stdout is not None
        stdin.write("".join(line + "\n" for line in lines))
        stdin.flush()
        out: list[str] = []
        while True:
            line = stdout.readline()
            if not line:
                raise RuntimeError(f"{self.rung} stopped after {lines[-1]!r}")
            line = line.rstrip("\n")
            out.append(line)
            word = line.split()[0] if line.split() else ""
            if word == "error":
                raise RuntimeError(f"{self.rung}: {line} (after {lines[-1]!r})")
            if word == end:
                return out

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=30)


@dataclass(frozen=True)
class Game:
    seats: int
    a: str
    b: str
    budget: str  # "movetime:MS" or "playouts:N"
    deal: int
    rot: int  # the team A sits on

    def key(self) -> tuple[Any, ...]:
        return (self.seats, self.a, self.b, self.budget, self.deal, self.rot)


SEARCHERS = (f"search-{PIN}", "search", "search-infer", "ceiling")


def knowledge(
    rung: str,
    pos: Position,
    hands: list[list[str]],
    seen: list[str],
    observed: list[tuple[int, str, str]],
) -> list[str]:
    """The lines that tell ``rung`` the position and what the seat to play knows."""
    seat = pos.turn
    lines = [
        f"position {pos.to_text()}",
        "hand " + " ".join(hands[seat]),
        "seen " + " ".join(seen),
        "sizes " + " ".join(str(len(h)) for h in hands),
    ]
    if rung == "ceiling":
        lines.append("hands " + " / ".join(" ".join(h) or "-" for h in hands))
    if rung == "search-infer" or "+infer" in rung:
        lines += [f"played {c} {text}" for s, c, text in observed if s != seat]
    return lines


Told = tuple[Position, list[list[str]], list[str], list[tuple[int, str, str]]]


def sample_knowledge(seats: int, count: int = 8) -> list[Told]:
    """Decisions of a seeded greedy game as the ladder tells them (every 5th, each with
    the round's plays before it): what the calibration searches."""
    from keezbord.engine.bots import GreedyBot

    bot = GreedyBot(random.Random(1))
    rng = random.Random(7)
    board = Board(Position.start(seats, "standard"))
    table = Table.first(seats, 0)
    hands, stock = deal_hands(table, shuffled_deck(seats, rng))
    seen: list[str] = []
    observed: list[tuple[int, str, str]] = []
    out: list[Told] = []
    seat, turn = table.leader, 0
    while len(out) < count and board.winner() is None:
        pos = board.position(seat)
        if turn % 5 == 2 and observed:
            out.append((pos, [list(h) for h in hands], list(seen), list(observed)))
        choice = bot.pick(board, seat, hands[seat])
        if choice is None:
            seen += hands[seat]
            hands[seat] = []
        else:
            hands[seat].remove(choice[0])
            seen.append(choice[0])
            observed.append((seat, choice[0], pos.to_text()))
            board.make(choice[1])
        turn += 1
        nxt = next((s for i in range(1, seats + 1) if hands[s := (seat + i) % seats]), -1)
        if nxt < 0:
            table = table.next_round()
            if table.round_no == 0:
                stock, seen = shuffled_deck(seats, rng), []
            hands, stock = deal_hands(table, stock)
            observed = []
            nxt = table.leader
        seat = nxt
    return out


def calibrate(engines: dict[str, EngineProc], seats: int, rounds: int = 3) -> dict[str, float]:
    """Playouts a second of each searching engine, measured here through the protocol
    on the same decisions of a seeded greedy game told as in a game (the inferring
    engine's inference included), the engines taking turns decision by decision (a
    change of the machine's load then weighs on both alike)."""
    decisions = sample_knowledge(seats)
    done = dict.fromkeys(engines, 0)
    took = dict.fromkeys(engines, 0.0)
    for r in range(rounds):
        for i, (pos, hands, seen, observed) in enumerate(decisions):
            for rung, eng in engines.items():
                lines = knowledge(rung, pos, hands, seen, observed)
                lines.append(f"go playouts 60 seed {r * 100 + i}")
                t0 = time.perf_counter()
                out = eng.ask(lines, "bestmove")
                took[rung] += time.perf_counter() - t0
                done[rung] += next(
                    (int(x.split()[2]) for x in out if x.startswith("info playouts")), 0
                )
    return {k: done[k] / took[k] for k in engines if done[k]}


def go_line(budget: str, rung: str, rates: dict[str, float], seed: int) -> str:
    if rung in LEVEL_PLAYOUTS:  # a level searches at its own budget
        return f"go playouts {LEVEL_PLAYOUTS[rung]} seed {seed}"
    kind, value = budget.split(":")
    if kind == "movetime":
        n = max(1, round(rates.get(rung, 0.0) * int(value) / 1000)) if rung in rates else 1
        return f"go playouts {n} seed {seed}"
    return f"go {kind} {value} seed {seed}"


def play(game: Game, engines: dict[str, EngineProc], rates: dict[str, float]) -> dict[str, Any]:
    """One game: A's engine on the seats of team ``rot``, B's on the others."""
    seats = game.seats
    start = Position.start(seats, "standard")
    teams = list(dict.fromkeys(start.team_of(s) for s in range(seats)))
    a_team = teams[game.rot]
    who = [game.a if s in a_team else game.b for s in range(seats)]
    rng = random.Random(game.deal)
    board = Board(start)
    table = Table.first(seats, rng.randrange(seats))
    stock = shuffled_deck(seats, rng)
    hands, stock = deal_hands(table, stock)
    seen: list[str] = []
    observed: list[tuple[int, str, str]] = []  # this round's plays: seat, card, position
    seat = table.leader
    spent = {game.a: [0.0, 0], game.b: [0.0, 0]}
    turns = 0
    winner = None
    while turns < MAX_TURNS:
        hand = hands[seat]
        pos = board.position(seat)
        rung = who[seat]
        lines = knowledge(rung, pos, hands, seen, observed)
        lines.append(
            go_line(game.budget, rung, rates, game.deal * 10_007 + game.rot * 3_001 + turns)
        )
        t0 = time.perf_counter()
        answer = engines[rung].ask(lines, "bestmove")[-1].removeprefix("bestmove ")
        spent[rung][0] += time.perf_counter() - t0
        spent[rung][1] += 1
        turns += 1
        if answer == "none":
            if any(next(legal_moves(pos, c), None) for c in dict.fromkeys(hand)):
                raise RuntimeError(f"{rung} discarded a playable hand {hand} in {pos}")
            seen.extend(hand)
            hands[seat] = []
        else:
            move = parse_move(answer, pos.topology)
            if move.card not in hand or move not in list(legal_moves(pos, move.card)):
                raise RuntimeError(f"{rung} played {answer!r}: not legal with {hand} in {pos}")
            hand.remove(move.card)
            seen.append(move.card)
            observed.append((seat, move.card, pos.to_text()))
            homed = board.homed
            board.make(from_move(move))
            if board.homed > homed:
                winner = board.winner()
                if winner is not None:
                    break
        nxt = next((s for i in range(1, seats + 1) if hands[s := (seat + i) % seats]), -1)
        if nxt < 0:  # the round is over: the next deal
            table = table.next_round()
            if table.round_no == 0:
                stock = shuffled_deck(seats, rng)
                seen = []
            hands, stock = deal_hands(table, stock)
            observed = []
            nxt = table.leader
        seat = nxt
    return {
        "seats": seats,
        "a": game.a,
        "b": game.b,
        "budget": game.budget,
        "deal": game.deal,
        "rot": game.rot,
        "a_seats": list(a_team),
        "winner": None if winner is None else list(winner),
        "a_won": None if winner is None else int(winner == a_team),
        "turns": turns,
        "ms_a": round(1000 * spent[game.a][0] / max(1, spent[game.a][1]), 1),
        "ms_b": round(1000 * spent[game.b][0] / max(1, spent[game.b][1]), 1),
        "rate_a": round(rates.get(game.a, 0.0)),
        "rate_b": round(rates.get(game.b, 0.0)),
    }


def games_in(path: Path) -> list[dict[str, Any]]:
    """The games of a results file, in the order played (none when it is missing)."""
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def done_keys(path: Path) -> set[tuple[Any, ...]]:
    return {(d["seats"], d["a"], d["b"], d["budget"], d["deal"], d["rot"]) for d in games_in(path)}


def kept_rates(path: Path, game: Game) -> dict[str, float]:
    """The rates the same match (seats, bots, budget) was played at, from its first game
    in the results file; none when it has no game there yet."""
    match = (game.seats, game.a, game.b, game.budget)
    for d in games_in(path):
        if (d["seats"], d["a"], d["b"], d["budget"]) == match:
            kept = {game.a: d.get("rate_a", 0), game.b: d.get("rate_b", 0)}
            return {k: float(v) for k, v in kept.items() if v}
    return {}


def schedule(args: argparse.Namespace) -> Iterator[Game]:
    teams = len({Position.start(args.seats, "standard").team_of(s) for s in range(args.seats)})
    budget = f"movetime:{args.movetime}" if args.movetime else f"playouts:{args.playouts}"
    for pair in args.match.split(","):
        a, b = pair.split(":")
        for d in range(args.deals):
            for rot in range(teams):
                yield Game(args.seats, a, b, budget, args.seed + d, rot)


def run(args: argparse.Namespace) -> int:
    results = Path(args.results)
    pinned = Path(args.pinned)
    if f"search-{PIN}" in args.match:
        ensure_pinned(pinned)
    done = done_keys(results)
    engines: dict[str, EngineProc] = {}
    rates: dict[str, float] = {}
    played = 0
    try:
        for game in schedule(args):
            if game.key() in done:
                continue
            if (game.a, game.b) != tuple(engines):
                for e in engines.values():
                    e.close()
                engines = {rung: EngineProc(rung, pinned) for rung in (game.a, game.b)}
                searching = {
                    k: v for k, v in engines.items() if k in SEARCHERS or k.startswith("search+")
                }
                rates = kept_rates(results, game) if args.movetime else {}
                if rates:
                    print("playouts a second, kept from the match's first games: ", end="")
                elif args.movetime and searching:
                    rates = calibrate(searching, game.seats)
                if rates:
                    print(
                        "playouts a second: " + ", ".join(f"{k} {v:.0f}" for k, v in rates.items())
                    )
            rec = play(game, engines, rates)
            with results.open("a", encoding="utf-8") as f:
                f.write(json.dumps(rec) + "\n")
            played += 1
            print(
                f"{game.a} vs {game.b} deal {game.deal} rot {game.rot}: "
                f"{'A won' if rec['a_won'] else 'B won' if rec['a_won'] == 0 else 'unfinished'}"
                f" ({rec['turns']} turns, {rec['ms_a']} / {rec['ms_b']} ms a decision)",
                flush=True,
            )
    finally:
        for e in engines.values():
            e.close()
    print(f"{played} games played, {len(done)} were already in {results}")
    return 0


# -- the report ------------------------------------------------------------------------


def elo_of(p: float, teams: int) -> float:
    """Elo(A) - Elo(B) when one team of A wins with p against teams-1 teams of B."""
    p = min(max(p, 1e-4), 1 - 1e-4)
    return 400 * math.log10(p * (teams - 1) / (1 - p))


def fit_elo(matches: list[tuple[str, str, float, int, int]]) -> dict[str, float]:
    """One Elo per bot (greedy 0 when present): maximum likelihood on the Bradley-Terry
    model of each match (A, B, A's wins, games, teams), each match with one more game
    scored as even (a prior that keeps a clean sweep finite). Damped Newton steps, one
    bot at a time's curvature, until no rating moves by a hundredth of a point: plain
    gradient steps scaled by the games played stopped far short of the maximum (a
    clean sweep of 200 games came out at -582 where it is -1041)."""
    matches = [(a, b, w + 1 / t, n + 1, t) for a, b, w, n, t in matches]
    bots = sorted({m[0] for m in matches} | {m[1] for m in matches})
    r = dict.fromkeys(bots, 0.0)
    per_nat = 400 / math.log(10)
    for _ in range(10_000):
        grad = dict.fromkeys(bots, 0.0)
        curve = dict.fromkeys(bots, 1e-9)
        for a, b, w, n, teams in matches:
            x = 10 ** ((r[a] - r[b]) / 400)
            p = x / (x + teams - 1)
            grad[a] += w - n * p
            grad[b] -= w - n * p
            curve[a] += n * p * (1 - p)
            curve[b] += n * p * (1 - p)
        steps = {k: 0.5 * per_nat * grad[k] / curve[k] for k in bots}
        for k in bots:
            r[k] += steps[k]
        if max(abs(v) for v in steps.values()) < 0.01:
            break
    anchor = r.get("greedy", r.get("random", 0.0))
    return {k: round(v - anchor, 1) for k, v in r.items()}


def report(args: argparse.Namespace) -> int:
    path = Path(args.results)
    if not path.is_file():
        print(f"bench_ladder: no results file {path}", file=sys.stderr)
        return 2
    rows = games_in(path)
    for seats in sorted({r["seats"] for r in rows}):
        teams = len({Position.start(seats, "standard").team_of(s) for s in range(seats)})
        print(f"\n{seats} seats ({teams} teams; an even match: {100 / teams:.1f}%)")
        print(
            "| A | B | budget | games | deals | A wins | 95% | Elo A-B (95%) | ms A / B "
            "| deals by A's wins |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for r in rows:
            if r["seats"] == seats:
                groups.setdefault((r["a"], r["b"], r["budget"]), []).append(r)
        matches = []
        for (a, b, budget), g in sorted(groups.items()):
            fin = [r for r in g if r["a_won"] is not None]
            n, w = len(fin), sum(r["a_won"] for r in fin)
            lo, hi = wilson(w, n)
            p = w / n if n else 0.0
            ms_a = sum(r["ms_a"] for r in g) / len(g)
            ms_b = sum(r["ms_b"] for r in g) / len(g)
            per_deal: dict[int, int] = {}
            for r in fin:
                per_deal[r["deal"]] = per_deal.get(r["deal"], 0) + r["a_won"]
            full = [v for d, v in per_deal.items() if sum(x["deal"] == d for x in fin) == teams]
            spread = " ".join(f"{k}:{full.count(k)}" for k in range(teams + 1))
            print(
                f"| {a} | {b} | {budget} | {n} | {len({r['deal'] for r in g})} | "
                f"{100 * p:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% | "
                f"{elo_of(p, teams):+.0f} ({elo_of(lo, teams):+.0f} to {elo_of(hi, teams):+.0f})"
                f" | {ms_a:.0f} / {ms_b:.0f} | {spread} |"
            )
            if n:
                matches.append((a, b, float(w), n, teams))
        if matches:
            print(
                "Elo (greedy = 0): "
                + ", ".join(
                    f"{k} {v:+.0f}"
                    for k, v in sorted(fit_elo(matches).items(), key=lambda kv: kv[1])
                )
            )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play the matches, appending each game to --results")
    r.add_argument("--seats", type=int, choices=(4, 6), default=4)
    r.add_argument("--deals", type=int, default=10, help="deals per match (each played 2 or 3x)")
    r.add_argument("--match", default=f"greedy:search-{PIN},search-{PIN}:search")
    r.add_argument("--movetime", type=int, default=0, help="ms a decision (else --playouts)")
    r.add_argument("--playouts", type=int, default=100, help="playouts a decision")
    r.add_argument("--seed", type=int, default=50_000, help="the first deal's seed")
    r.add_argument("--results", default="ladder.jsonl")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    r.add_argument(
        "--pinned",
        default=str(cache / "keezbord" / f"ladder-{PIN}"),
        help=f"the worktree of {PIN} (made when missing; default under ~/.cache)",
    )
    p = sub.add_parser("report", help="the table of a results file")
    p.add_argument("results")
    args = ap.parse_args()
    return run(args) if args.cmd == "run" else report(args)


if __name__ == "__main__":
    sys.exit(main())
