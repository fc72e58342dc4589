"""Issue 28 figures: the time from a remote player's click (or the other board's accepted
move) to the LEDs lit on the board, median and p99.

1. Remote seat: a real board's hub (a virtual deal, seat 1 remote, the table's seat 0
   played by the simulated people of host/sim/people.py at speed) behind uvicorn on
   loopback; the remote seat's "play" sent over a real websocket (the page's message).
   Timed from just before the message is sent to the moment the hub hands the LED frame
   lighting that move to the board driver (``show_leds``; on a real board the driver's
   render and the Pico link follow: bench_link.py, bench_referee_pace.py).
2. Linked boards: two hubs linked through a real Mosquitto with TLS (the configuration of
   ``keezbord link broker-config``), each board's seats played by its simulated people,
   who also copy the other's moves. Timed from the moment a board's referee accepts a
   move (its decision, the hub's observer) to the other board's ``show_leds`` of the
   frame lighting it. Both hubs in one process: one clock.

The machine is shared: figures are for comparison on the same machine, not absolute.
Run: .venv/bin/python bench/bench_remote.py [--remote 60] [--linked 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "club"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))


class TimedBoard:
    """A board driver (FakeBoard) noting when the first LED frame lighting each lit move
    arrives: (the move's number in the game, its notation) -> perf_counter."""

    def __init__(self) -> None:
        from keezbord.host.drivers.boards import FakeBoard

        self.board = FakeBoard()
        self.hub: Any = None  # set once the hub is made
        self.lit_at: dict[tuple[int, str], float] = {}
        inner = self.board.show_leds

        def show(holes: Mapping[str, str], t: int) -> None:
            st = None if self.hub is None else self.hub.session.state
            if st is not None and st.lit is not None:
                self.lit_at.setdefault((len(st.history), str(st.lit)), time.perf_counter())
            inner(holes, t)

        self.board.show_leds = show  # type: ignore[method-assign]


def percentile(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def say(name: str, ms: list[float]) -> None:
    print(
        f"{name}: n={len(ms)} median {statistics.median(ms):.1f} ms, "
        f"p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms"
    )


# -- 1. a remote seat ------------------------------------------------------------------


def bench_remote(n: int, tmp: Path) -> list[float]:
    import uvicorn
    from web_helpers import REMOTE_TOKENS, remote_hub
    from websockets.sync.client import connect

    from keezbord.host.sim.people import People
    from keezbord.host.web.app import create_app
    from keezbord.host.web.hub import Hub

    timed = TimedBoard()
    made: list[Hub] = []

    def make() -> Hub:
        from keezbord.engine.game import Game

        seed = next(s for s in range(500) if Game(2, "standard", s).table.turn == 1)
        hub = remote_hub(tmp / "remote.sqlite", seed, remote=(1,), board=timed.board, seats=2)()
        timed.hub = hub
        people = People(hub, timed.board, seed=1, speed=0.05)
        hub.away.on_start.append(people.start)
        made.append(hub)
        return hub

    app = create_app(make)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    token = REMOTE_TOKENS.seat(1)
    out: list[float] = []
    with connect(f"ws://127.0.0.1:{port}/ws?token={token}") as ws:
        deadline = time.monotonic() + 60 + n * 10
        renewed = None  # the game a new one was asked after (once a game)
        while len(out) < n and time.monotonic() < deadline:
            st = _latest(ws)
            if st is None or st.get("winner") is not None:
                if st is not None and renewed != st["game"]:
                    renewed = st["game"]
                    made[0].call_soon(lambda: made[0].new_game({"remote": [1]}))
                continue
            hand, remote = st.get("hand"), st.get("remote") or {}
            if not hand or not hand["active"] or remote.get("lit"):
                continue
            if not hand["playable"]:
                ws.send(json.dumps({"type": "discard"}))
                continue
            ws.send(json.dumps({"type": "moves", "card": hand["playable"][0], "id": 1}))
            moves = _answer(ws, "moves")
            if not moves or not moves["moves"]:
                continue
            key = (len(st["history"]), moves["moves"][0]["move"])
            t0 = time.perf_counter()
            ws.send(json.dumps({"type": "play", "move": key[1], "id": 2}))
            while key not in timed.lit_at and time.perf_counter() - t0 < 5:
                time.sleep(0.0005)
            if key in timed.lit_at:
                out.append((timed.lit_at[key] - t0) * 1000)
    server.should_exit = True
    thread.join(10)
    return out


def _latest(ws: Any) -> dict[str, Any] | None:
    """The newest state among what has arrived (waits for one)."""
    got: dict[str, Any] | None = None
    while True:
        try:
            msg = json.loads(ws.recv(timeout=0.3 if got is None else 0.01))
        except TimeoutError:
            return got
        if msg.get("type") == "state":
            got = msg


def _answer(ws: Any, kind: str) -> dict[str, Any] | None:
    end = time.monotonic() + 5
    while time.monotonic() < end:
        msg = json.loads(ws.recv(timeout=5))
        if msg.get("type") == kind:
            return dict(msg)
        if msg.get("type") == "error":
            return None
    return None


# -- 2. two linked boards ---------------------------------------------------------------


def bench_linked(n: int, tmp: Path) -> list[float]:
    from link_helpers import link_broker

    from keezbord.host.commands.linked import open_linked
    from keezbord.host.sim.people import People
    from keezbord.host.web.hub import Hub, HubOptions

    broker, settings = link_broker(tmp)
    accepted: dict[str, list[tuple[float, tuple[int, str]]]] = {"oma": [], "thuis": []}
    boards: dict[str, TimedBoard] = {}
    hubs: dict[str, Hub] = {}
    base = {"type": "setup", "seats": 4, "profile": "standard", "hints": "off",
            "mode": "simulated", "settle_ms": 200, "card_reader": True}  # fmt: skip

    async def run_board(name: str, stop: threading.Event) -> None:
        timed = TimedBoard()
        boards[name] = timed
        opts = HubOptions(mode="run", db=tmp / f"{name}.sqlite")
        hub = open_linked(opts, settings[name], dict(base), timed.board, tmp / f"{name}.sqlite")
        hubs[name] = hub
        timed.hub = hub

        def note(records: list[dict[str, Any]]) -> None:
            for r in records:
                if (
                    r["type"] == "move"
                    and hub.sim is not None
                    and hub.sim.where(r["seat"]) == "table"
                ):
                    n = next(
                        i for i in range(len(hub.session.state.history) - 1, -1, -1)
                        if hub.session.state.history[i].text == r["move"]
                    )  # fmt: skip
                    accepted[name].append((time.perf_counter(), (n, r["move"])))

        hub.observers.insert(0, note)
        people = People(hub, timed.board, seed=hash(name) % 100, speed=0.05)
        hub.away.on_start.append(people.start)
        await hub.start()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        people.stop()
        await hub.stop()

    stop = threading.Event()
    threads = [
        threading.Thread(target=lambda nm=nm: asyncio.run(run_board(nm, stop)), daemon=True)
        for nm in ("oma", "thuis")
    ]
    for th in threads:
        th.start()
    deadline = time.monotonic() + 120 + n * 5
    while time.monotonic() < deadline:
        done = sum(len(v) for v in accepted.values())
        if done >= n + 2:
            break
        time.sleep(0.5)
    stop.set()
    for th in threads:
        th.join(20)
    broker.stop()
    # Each move accepted at one board, to the first frame lighting it at the other.
    out: list[float] = []
    for src, dst in (("oma", "thuis"), ("thuis", "oma")):
        lits = boards[dst].lit_at
        for t, key in accepted[src]:
            if key in lits and lits[key] >= t:
                out.append((lits[key] - t) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--remote", type=int, default=60, help="remote moves timed")
    ap.add_argument("--linked", type=int, default=60, help="linked moves timed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "r").mkdir()
        (tmp / "l").mkdir()
        say("remote click to LEDs lit", bench_remote(args.remote, tmp / "r"))
        say(
            "other board's accepted move to LEDs lit (Mosquitto, TLS)",
            bench_linked(args.linked, tmp / "l"),
        )


if __name__ == "__main__":
    main()
