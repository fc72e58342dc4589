"""How long ``GameSession.resume`` takes on a long journalled game: the replay of every
input and, since the journal checks its records (keezbord/host/journal_damage.py), the
comparison of each input's replayed decisions with the journalled ones. Prints figures;
run on demand: .venv/bin/python bench/bench_resume.py [--seats 8] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seats", type=int, default=8)
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    game = simulate(args.seats, args.profile, args.seed, max_turns=4000)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "j.sqlite"
        s = GameSession.start(db, {**game.setup, "mode": "run"})
        for ev in game.events:
            s.feed(ev)
        moves = len(s.state.history)
        s.close()
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            GameSession.resume(db).close()
            times.append(time.perf_counter() - t0)
    print(
        f"resume of a {args.seats}-seat {args.profile} game: {len(game.events)} inputs, "
        f"{moves} moves: median {statistics.median(times):.2f} s "
        f"(min {min(times):.2f}, max {max(times):.2f}, {args.runs} runs)"
    )


if __name__ == "__main__":
    main()
