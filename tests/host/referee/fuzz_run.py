"""Table games with trouble (fuzz_table.py), each checked at its end, and big seeded runs.

A game's end is checked for: every move played taken exactly as played (none missed,
none misread: no game stuck), every accepted move legal by the independent reading of
RULES.md (tests/engine/reference_rules.py), its trace written and parsed back (no
readable trace refused), and for one game in ten that trace replayed to the same
decisions. test_fuzz.py runs a small slice; a big run, on demand:

    .venv/bin/python tests/host/referee/fuzz_run.py --games 20000 --seed 100000

prints each game that shows a problem as it comes, and at the end the run's size and
counts (games, moves, flags raised and put right, knocks, questions asked, cards
rejected, crashes).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine"))

from fuzz_games import CASES, Refereed, accepted_moves_legal
from fuzz_table import KINDS, Table, TableRun

from keezbord.engine.position import Position
from keezbord.host.events import HoleEvent
from keezbord.host.referee.replay import run
from keezbord.host.referee.state import Decision
from keezbord.host.referee.trace import parse_trace, trace_lines


def table_game(seed: int, *, max_turns: int = 60) -> TableRun:
    """Game ``seed``: its seats and profile cycle through CASES, its trouble through
    KINDS; played and checked at its end."""
    seats, profile = CASES[seed % len(CASES)]
    kind = list(KINDS)[seed % len(KINDS)]
    table = Table(seats, profile, seed, kind)
    table.play(max_turns)
    return finish(table)


def finish(table: Table) -> TableRun:
    out = table.out
    got = [
        (d.data["seat"], Position.from_dict(d.data["position"]).pawns)
        for d in table.decisions
        if d.type == "move"
    ]
    want = [(t.seat, t.after.pawns) for t in table.game.history if t.move and t.after]
    if not out.problems and got != want:
        apart = (i for i, (g, w) in enumerate(zip(got, want, strict=False)) if g != w)
        first = next(apart, len(got))
        table.problem(f"{len(got)} moves taken of {len(want)} played, apart from {first}")
    try:
        accepted_moves_legal(Refereed(table.decisions, table.state, len(table.inputs)), out.setup)
    except AssertionError as e:
        table.problem(f"an illegal move accepted: {e}")
    # The noise's switch names the board does not have: the referee ignores them, no
    # host records them (drivers and the page send the board's holes only), and a trace
    # naming one is refused by design (docs/referee.md).
    holes = set(table.game.position.topology.hole_names)
    recorded = [e for e in table.inputs if not isinstance(e, HoleEvent) or e.hole in holes]
    try:
        parsed, inputs = parse_trace(trace_lines(out.setup, recorded))
    except ValueError as e:
        table.problem(f"its trace is refused: {e}")
        return out
    if out.seed % 10 == 0:  # replayed from the trace: the same decisions
        replayed = (e for _, es in run(parsed, inputs) for e in es)
        again = [e.to_record() for e in replayed if isinstance(e, Decision)]
        if again[: len(table.decisions)] != [d.to_record() for d in table.decisions]:
            table.problem("the replay of its trace differs")
    return out


COUNTS = ("moves", "flags", "knocks", "asks", "true_asks", "rejected")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=100_000, help="the first game's seed")
    ap.add_argument("--turns", type=int, default=60, help="turns a game at most")
    a = ap.parse_args(argv)
    total = dict.fromkeys(("games", *COUNTS, "bad", "crashed"), 0)
    kinds = dict.fromkeys(KINDS, 0)
    t0 = time.monotonic()
    for seed in range(a.seed, a.seed + a.games):
        try:
            r = table_game(seed, max_turns=a.turns)
        except Exception:  # a crash is a finding: report it and go on
            total["crashed"] += 1
            print(f"game {seed}: crashed\n{traceback.format_exc()}", flush=True)
            continue
        total["games"] += 1
        kinds[r.kind] += 1
        for k in COUNTS:
            total[k] += getattr(r, k)
        if r.problems:
            total["bad"] += 1
            print(r.problems[0][:2000], flush=True)
        if total["games"] % 500 == 0:
            print(f"... {total} after {time.monotonic() - t0:.0f} s", flush=True)
    print(f"seeds {a.seed}..{a.seed + a.games - 1}, games per kind {kinds}")
    print(f"{total} in {time.monotonic() - t0:.0f} s")
    return 1 if total["bad"] or total["crashed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
