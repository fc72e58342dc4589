"""Referee latency, pauses and memory on long generated games. Prints figures; run on
demand: .venv/bin/python bench/bench_referee.py [--quick]

- ``step`` per event (event in -> LED frame out) over generated 4- and 6-seat games: p50,
  p99, max (the host's share of the latency budget is 5 ms p99), sustained events/s;
- the same events through ``GameSession`` with the journal (SQLite WAL, one commit an
  event; the journal's syncer thread fsyncs those that change the game, off the event
  path): p50, p99, max, and the event thread's own CPU time (without the waits for a
  core a loaded machine adds); the garbage collector's full (generation 2) collections
  seen meanwhile and their longest pause;
- peak RSS of ``keezbord replay`` on a 27,000-event 8-seat trace (the first 27,000 events
  of a generated keezspel game: its extra laps make the longest games);
- peak RSS of ``keezbord sim`` resuming an 8-seat game of 1,000 moves from its journal
  (the referee replays every input, the simulator every move), then idle for a while.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from proc_memory import memory_mb

from keezbord.host.events import HoleEvent
from keezbord.host.referee.heap import freeze_heap
from keezbord.host.referee.step import new_game, step
from keezbord.host.referee.trace import setup_from_dict, trace_lines
from keezbord.host.session import GameSession
from keezbord.host.sim.games import SimGame, simulate
from keezbord.host.sim.table import SimInfo, SimStore, sim_setup

REPLAY_EVENTS = 27_000
SIM_MOVES = 1_000


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


class GcWatch:
    """Times the collector's full collections (gc.callbacks) that happen while an event
    is being refereed (``active``), not those at a game's set-up."""

    def __init__(self) -> None:
        self.full: list[float] = []
        self.active = False
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2 or not self.active:
            return
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.full.append((time.perf_counter() - self._t0) * 1000)

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def bench_step(games: list[SimGame]) -> None:
    lat: list[float] = []
    total_events = 0
    total_time = 0.0
    with GcWatch() as watch:
        for sim in games:
            setup = setup_from_dict(sim.setup)
            state, _ = new_game(setup.position, setup.dealer, setup.config)
            freeze_heap()  # as GameSession and replay do once a game is set up
            t_all = time.perf_counter()
            for ev in sim.events:
                t0 = time.perf_counter()
                watch.active = True
                state, _ = step(state, ev)
                watch.active = False
                lat.append((time.perf_counter() - t0) * 1000)
            total_time += time.perf_counter() - t_all
            total_events += len(sim.events)
    print(
        f"games: {len(games)} (4 and 6 seats), events: {total_events}, moves: "
        f"{sum(len(g.moves) for g in games)}"
    )
    print(
        f"referee step (event in -> LED frame out): p50 {statistics.median(lat):.3f} ms, "
        f"p99 {pct(lat, 99):.3f} ms, max {max(lat):.3f} ms"
    )
    print(f"sustained: {total_events / total_time:,.0f} events/s")
    worst = f", longest {max(watch.full):.1f} ms" if watch.full else ""
    print(f"full garbage collections during an event: {len(watch.full)}{worst}")


def bench_journal(games: list[SimGame]) -> None:
    all_ms: list[float] = []
    holes: list[float] = []
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as d, GcWatch() as watch:
        for i, sim in enumerate(games):
            s = GameSession.start(Path(d) / f"bench{i}.db", sim.setup)
            for ev in sim.events:
                t0 = time.perf_counter()
                c0 = time.thread_time()
                watch.active = True
                s.feed(ev)
                watch.active = False
                cpu.append((time.thread_time() - c0) * 1000)
                ms = (time.perf_counter() - t0) * 1000
                all_ms.append(ms)
                if isinstance(ev, HoleEvent):
                    holes.append(ms)
            s.close()
    print(
        "with the journal (SQLite WAL, one commit an event; the syncer thread fsyncs those "
        f"that change the game), {len(all_ms)} events:"
    )
    print(
        f"  all events:          p50 {statistics.median(all_ms):.3f} ms, "
        f"p99 {pct(all_ms, 99):.3f} ms, max {max(all_ms):.3f} ms"
    )
    print(
        f"  lift/place (magnet): p50 {statistics.median(holes):.3f} ms, "
        f"p99 {pct(holes, 99):.3f} ms, max {max(holes):.3f} ms"
    )
    # The event thread's own CPU time: what the referee and the journal cost, without
    # the time the thread waited for a core (on a loaded machine most of the max).
    print(
        f"  CPU of the event thread: p50 {statistics.median(cpu):.3f} ms, "
        f"p99 {pct(cpu, 99):.3f} ms, max {max(cpu):.3f} ms"
    )
    worst = f", longest {max(watch.full):.1f} ms" if watch.full else ""
    print(f"  full garbage collections during an event: {len(watch.full)}{worst}")


def _child_peak_mb(cmd: list[str]) -> tuple[float, float]:
    """Peak RSS (MB) and wall time (s) of a command, measured in a fresh process so that
    no other child counts."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, "
        "time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *cmd], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def bench_replay_rss(tmp: Path) -> None:
    sim = simulate(8, "keezspel", 0, max_turns=20_000)
    events = sim.events[:REPLAY_EVENTS]
    trace = tmp / "trace.jsonl"
    trace.write_text("\n".join(trace_lines(sim.setup, events)) + "\n", encoding="utf-8")
    exe = str(Path(sys.executable).with_name("keezbord"))
    peak, secs = _child_peak_mb([exe, "replay", str(trace)])
    bare, _ = _child_peak_mb([sys.executable, "-c", "import keezbord.host.referee.step"])
    print(
        f"`keezbord replay` of a {len(events):,}-event 8-seat trace (keezspel, seed 0): "
        f"peak RSS {peak:.1f} MB in {secs:.1f} s (the interpreter with the referee "
        f"imported: {bare:.1f} MB)"
    )


def sim_journal(db: Path, seed: int, moves_wanted: int = SIM_MOVES) -> int:
    """A journal holding an 8-seat simulator game of ``moves_wanted`` moves (random
    bots); the moves it holds. bench_push.py builds its long histories with it too."""
    sim = simulate(8, "standard", seed, max_turns=20_000)
    kinds = ["random"] * 8
    setup, _ = sim_setup(8, "standard", seed, kinds)
    assert setup["dealer"] == sim.setup["dealer"]
    session = GameSession.start(db, setup)
    moves = 0
    for ev in sim.events:
        for d in session.feed(ev):
            if getattr(d, "type", None) == "move":
                moves += 1
        if moves >= moves_wanted:
            break
    game = session.game
    session.close()
    store = SimStore(db)
    store.save(game, SimInfo(seed, kinds, None))
    store.close()
    return moves


def bench_sim_rss(tmp: Path, idle_s: float) -> None:
    db = tmp / "sim.sqlite"
    moves = sim_journal(db, 0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = str(Path(sys.executable).with_name("keezbord"))
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [exe, "sim", "--no-browser", "--port", str(port), "--db", str(db), "--bot-speed", "5"],
        stdout=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - t0 > 120:
                    raise RuntimeError("keezbord sim did not come up") from None
                time.sleep(0.2)
        up = time.perf_counter() - t0
        time.sleep(idle_s)
        mem = memory_mb(proc.pid)
        # Then a page opens (as the browser does: ?history=delta): the whole history in
        # its first state.
        asyncio.run(_open_page(port))
        time.sleep(idle_s)
        paged = memory_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)
    with sqlite3.connect(db) as c:
        played = c.execute(
            "SELECT count(*) FROM decisions WHERE json_extract(data, '$.type') = 'move'"
        ).fetchone()[0]
    print(
        f"`keezbord sim` resuming an 8-seat game of {moves:,} moves (up in {up:.1f} s, "
        f"{played:,} moves in the journal {idle_s:.0f} s later): peak RSS "
        f"{mem[1]:.1f} MB, now {mem[0]:.1f} MB; a page opened: peak "
        f"{paged[1]:.1f} MB, now {paged[0]:.1f} MB"
    )


async def _open_page(port: int) -> None:
    """Open the page's websocket, read the hello and the first state, then leave."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws?history=delta", max_size=None) as ws:
        for _ in range(2):
            await ws.recv()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="shorter games, no sim RSS")
    a = ap.parse_args()
    turns = 300 if a.quick else 1000
    games = [
        simulate(4, "standard", 11, max_turns=turns),
        simulate(6, "standard", 12, max_turns=turns),
    ]
    bench_step(games)
    bench_journal(games)
    with tempfile.TemporaryDirectory() as d:
        bench_replay_rss(Path(d))
        if not a.quick:
            bench_sim_rss(Path(d), 1.0)


if __name__ == "__main__":
    main()
