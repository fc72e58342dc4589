"""Referee latency and throughput on long generated games.

Event in to LED frame out: p50/p99 of ``step`` per event (the host's share of the latency
budget is 5 ms p99), with and without the journal's durable write; and the sustained
events per second. Run: .venv/bin/python bench/bench_referee.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from keezbord.host.events import HoleEvent
from keezbord.host.referee.step import new_game, step
from keezbord.host.referee.trace import setup_from_dict
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main() -> None:
    games = [simulate(4, "standard", 11, max_turns=1000), simulate(6, "standard", 12,
                                                                   max_turns=1000)]
    lat: list[float] = []
    total_events = 0
    total_time = 0.0
    for sim in games:
        setup = setup_from_dict(sim.setup)
        state, _ = new_game(setup.position, setup.dealer, setup.config)
        t_all = time.perf_counter()
        for ev in sim.events:
            t0 = time.perf_counter()
            state, _ = step(state, ev)
            lat.append((time.perf_counter() - t0) * 1000)
        total_time += time.perf_counter() - t_all
        total_events += len(sim.events)
    print(f"games: {len(games)}, events: {total_events}, moves: "
          f"{sum(len(g.moves) for g in games)}")
    print(f"referee step (event in -> LED frame out): p50 {statistics.median(lat):.3f} ms, "
          f"p99 {pct(lat, 99):.3f} ms, max {max(lat):.3f} ms")
    print(f"sustained: {total_events / total_time:,.0f} events/s")
    with tempfile.TemporaryDirectory() as d:
        sim = games[0]
        s = GameSession.start(Path(d) / "bench.db", sim.setup)
        jl: list[float] = []
        holes: list[float] = []
        for ev in sim.events[:3000]:
            t0 = time.perf_counter()
            s.feed(ev)
            ms = (time.perf_counter() - t0) * 1000
            jl.append(ms)
            if isinstance(ev, HoleEvent):
                holes.append(ms)
        s.close()
    print("with the journal (SQLite WAL, one commit an event; fsynced only when it changes "
          "the game):")
    print(f"  all events:          p50 {statistics.median(jl):.3f} ms, "
          f"p99 {pct(jl, 99):.3f} ms")
    print(f"  lift/place (magnet): p50 {statistics.median(holes):.3f} ms, "
          f"p99 {pct(holes, 99):.3f} ms")


if __name__ == "__main__":
    main()
