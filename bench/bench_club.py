"""Club-night figures (issue 17), through a real Mosquitto broker:

1. result on a board to scoreboard updated (median, p99) with 8 boards playing: the
   tournament service runs as ``keezbord club serve`` (its own process), 8 simulated
   boards in this process note the wall-clock time each reports its result, and the
   scoreboard in headless Chromium notes when the row shows it (same clock, same machine);
2. the broker's and the tournament service's memory (RSS, peak) and CPU while 32
   simulated boards (``keezbord club sim``, a process of their own) play rounds.

Run: .venv/bin/python bench/bench_club.py [--rounds 8] [--big-rounds 2] [--move-ms 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "club"))
from club_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Broker,
    free_port,
    make_store,
    start_broker,
    wait_for,
)
from proc_memory import memory_mb

from keezbord.host.club.board_link import ClubSettings
from keezbord.host.club.sim_board import SimBoard

SEEN = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    for (const tr of document.querySelectorAll("#tables tbody tr.done")) {
      const m = tr.dataset.match;
      if (!(m in window.__seen)) window.__seen[m] = performance.timeOrigin + performance.now();
    }
  }).observe(document.querySelector("#tables tbody"), { childList: true, subtree: true });
}"""


def proc_stats(pid: int) -> tuple[float, float, float]:
    """(RSS MB, peak RSS MB, CPU seconds user+system) of a process."""
    rss, hwm = memory_mb(pid)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return rss, hwm, cpu


class Service:
    """``keezbord club serve`` in a subprocess; actions through its control API."""

    def __init__(self, store: Path, broker: Broker) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "keezbord", "club", "--store", str(store), "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--broker-port", str(broker.port)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        self.token = line.split("token=")[1].split()[0]
        self.url = f"http://127.0.0.1:{self.port}"
        wait_for(self._up, 20, "the service")

    def _up(self) -> bool:
        try:
            urllib.request.urlopen(self.url + "/api/view", timeout=1).read()
            return True
        except OSError:
            return False

    def act(self, **body: Any) -> dict[str, Any]:
        req = urllib.request.Request(
            self.url + "/api/control",
            data=json.dumps({"token": self.token, **body}).encode(),
            headers={"Content-Type": "application/json"},
        )
        out: dict[str, Any] = json.loads(urllib.request.urlopen(req, timeout=10).read())
        return out

    def view(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(urllib.request.urlopen(self.url + "/api/view").read())
        return out

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def round_done(svc: Service, boards: int) -> bool:
    return sum(1 for m in svc.view()["tables"] if m["state"] == "done") == boards


def latency(rounds: int, move_ms: float) -> None:
    from playwright.sync_api import sync_playwright

    d = Path(tempfile.mkdtemp())
    store = make_store(d, 16, 8)
    boards = store.boards()
    broker = start_broker(d, store)
    store.close()
    svc = Service(d / "club.sqlite", broker)
    reported: dict[str, float] = {}
    sims = [
        SimBoard(
            ClubSettings(name, pw, "127.0.0.1", broker.port),
            d / f"{name}.sqlite",
            seats=4,
            move_ms=move_ms,
            on_result=lambda match, msg: reported.setdefault(match, time.time() * 1000),
        )
        for name, pw in boards.items()
    ]
    for s in sims:
        s.start()
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = b.new_page(viewport={"width": 1280, "height": 720})
            page.goto(svc.url + "/")
            page.evaluate(SEEN)
            for _ in range(rounds):
                svc.act(action="pair", minutes=10)
                svc.act(action="start")
                wait_for(lambda: round_done(svc, 8), 300, "a round")
                time.sleep(0.5)  # the last rows reach the page
            seen: dict[str, float] = page.evaluate("window.__seen")
            b.close()
    finally:
        for s in sims:
            s.stop()
        svc.stop()
        broker.stop()
    delays = sorted(seen[m] - t for m, t in reported.items() if m in seen)
    p99 = delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))]
    print(
        f"result on a board -> scoreboard row updated, 8 boards playing 4-seat bot games "
        f"({len(delays)} results over {rounds} rounds; missing {len(reported) - len(delays)}): "
        f"median {statistics.median(delays):.1f} ms, p99 {p99:.1f} ms, max {delays[-1]:.1f} ms"
    )


def resources(rounds: int, move_ms: float) -> None:
    from playwright.sync_api import sync_playwright

    d = Path(tempfile.mkdtemp())
    store = make_store(d, 64, 32)
    broker = start_broker(d, store)
    store.close()
    svc = Service(d / "club.sqlite", broker)
    sim = subprocess.Popen(
        [sys.executable, "-m", "keezbord", "club", "--store", str(d / "club.sqlite"), "sim",
         "--boards-dir", str(d / "boards"), "--seats", "4", "--move-ms", str(move_ms),
         "--broker-port", str(broker.port)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        with sync_playwright() as pw:  # the projector is on, as at a club evening
            b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            b.new_page(viewport={"width": 1280, "height": 720}).goto(svc.url + "/")
            time.sleep(2)  # 32 boards connect
            b0, s0 = proc_stats(broker.pid()), proc_stats(svc.proc.pid)
            t0 = time.monotonic()
            for _ in range(rounds):
                svc.act(action="pair", minutes=30)
                svc.act(action="start")
                wait_for(lambda: round_done(svc, 32), 900, "a round of 32 tables")
            wall = time.monotonic() - t0
            b1, s1 = proc_stats(broker.pid()), proc_stats(svc.proc.pid)
            view = svc.view()
            b.close()
    finally:
        sim.terminate()
        sim.wait(timeout=30)
        svc.stop()
        broker.stop()
    moves = sum(m["moves"] or 0 for m in view["tables"]) * rounds  # about: the last round's
    print(
        f"32 boards, {rounds} rounds of 4-seat bot games at {move_ms:g} ms a move, "
        f"{wall:.1f} s, the scoreboard open in Chromium:"
    )
    print(f"  (about {moves / wall:.0f} moves/s over all tables, one MQTT event per move)")
    for name, (r0, _, c0), (r1, h1, c1) in (("mosquitto", b0, b1), ("tournament service", s0, s1)):
        print(
            f"  {name}: RSS {r1:.1f} MB (peak {h1:.1f} MB, {r0:.1f} MB before the rounds), "
            f"CPU {100 * (c1 - c0) / wall:.1f} % of one core"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=8, help="rounds with 8 boards (latency)")
    ap.add_argument("--big-rounds", type=int, default=2, help="rounds with 32 boards")
    ap.add_argument("--move-ms", type=float, default=20.0, help="simulated boards' pace")
    args = ap.parse_args()
    latency(args.rounds, args.move_ms)
    resources(args.big_rounds, args.move_ms)


if __name__ == "__main__":
    main()
