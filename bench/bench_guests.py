"""A hostile guest on the club's Wi-Fi, measured (issue 37), on loopback only.

Starts the board's web server (the simulator's hub, four human seats, the tests' tokens)
in a subprocess, with the code of ``--code`` (default: this checkout; give an extracted
older tree, ``git archive <rev> | tar -x -C DIR``, for the figures before) and the
server settings that code's commands use, under a soft limit of 1,024 open files (a
unit without LimitNOFILE). Then, with bounded loops:

1. the referee's acknowledgement (a ``hold`` on/off with an id, each one a change sent
   to every page) alone, ``--acks`` times: p50/p99;
2. the same with ``--spectators`` (500) reading spectator sockets: p50/p99, and how many
   spectators got in;
3. the same during a slow-header flood of ``--flood`` (1,100) connections holding half a
   request head (from 127.0.0.2-12, 100 each), with a new players' request timed too, and
   the bytes the server logged meanwhile;
4. the server's RSS before and after ``--big`` (20) spectators each send one 15 MB
   message at once.

Run: nice -n 10 .venv/bin/python bench/bench_guests.py [--code DIR] [--acks 100]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from proc_memory import memory_mb
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
REFEREE, PLAYER = "referee-token-0123456789", "player-token-0123456789ab"

SERVER = """
import resource, socket, sys
code = sys.argv[6]
# This checkout is installed editable (a finder ahead of PYTHONPATH): serve --code's.
sys.meta_path = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
sys.path.insert(0, code)
import keezbord
assert keezbord.__file__.startswith(code), keezbord.__file__
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
from pathlib import Path
from keezbord.host.roles import Tokens
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub, HubOptions
db, port = Path(sys.argv[1]), int(sys.argv[2])
opts = HubOptions(db=db, tokens=Tokens(sys.argv[3], sys.argv[4]))
hub = Hub.open_sim(opts, kinds=["human"] * 4)
try:  # --max-spectators: the cap lifted, to see the shared encoding alone
    app = create_app(lambda: hub, max_spectators=int(sys.argv[5]))
except TypeError:  # the code before issue 37: no cap
    app = create_app(lambda: hub)
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", port))
sock.listen(128)
try:
    from keezbord.host.web.serving import make_server, server_config
    server = make_server(server_config(app))
except ImportError:  # the code before issue 37: the commands' plain uvicorn
    import uvicorn
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
print("ready", flush=True)
server.run(sockets=[sock])
"""


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def acks(url: str, n: int) -> list[float]:
    """The referee's acknowledgement times (ms) of ``n`` changes, one at a time."""
    out: list[float] = []
    async with connect(f"{url}/ws?token={REFEREE}", max_size=None, open_timeout=60) as ws:
        await ws.recv()
        for i in range(n):
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "hold", "on": i % 2 == 0, "id": i + 1}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if m.get("id") == i + 1:
                    break
            out.append((time.perf_counter() - t0) * 1000)
    return out


async def reader(url: str, stop: asyncio.Event, got: list[int]) -> None:
    try:
        async with connect(f"{url}/ws?history=delta", max_size=None, open_timeout=60) as ws:
            first = json.loads(await ws.recv())
            if first.get("type") != "hello":
                return
            got.append(1)
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 0.5)
    except Exception:
        return


async def with_spectators(url: str, count: int, n: int) -> tuple[list[float], int]:
    stop, got = asyncio.Event(), list[int]()
    tasks = [asyncio.create_task(reader(url, stop, got)) for _ in range(count)]
    t_end = time.monotonic() + 60
    while len(got) < count and time.monotonic() < t_end and not all(t.done() for t in tasks):
        await asyncio.sleep(0.2)
    times = await acks(url, n)
    stop.set()
    await asyncio.gather(*tasks)
    return times, len(got)


def flood(port: int, count: int) -> list[socket.socket]:
    socks = []
    for i in range(count):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((f"127.0.0.{2 + i // 100}", 0))
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        socks.append(s)
    time.sleep(1.0)
    for s in socks:
        with contextlib.suppress(OSError):
            s.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    return socks


async def during_flood(url: str, n: int) -> tuple[list[float], list[float], int]:
    try:
        times = await asyncio.wait_for(acks(url.replace("http", "ws"), n), 120)
    except Exception as e:  # the referee's page could not connect (or not in time)
        print("  the referee's new socket failed:", repr(e)[:120])
        times = []
    fresh: list[float] = []
    failed = 0
    for _ in range(10):
        t0 = time.perf_counter()
        try:
            r = await asyncio.to_thread(_get, url + f"/api/state?token={PLAYER}")
            if r:
                fresh.append((time.perf_counter() - t0) * 1000)
            else:
                failed += 1
        except OSError as e:
            print("  new request failed:", repr(e)[:120])
            failed += 1
    return times, fresh, failed


def _get(url: str) -> bool:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as r:
        return bool(r.status == 200)


async def big_messages(url: str, count: int, size: int) -> int:
    async def one() -> bool:
        try:
            async with connect(f"{url}/ws", max_size=None, open_timeout=60) as ws:
                await ws.recv()
                await ws.send("{" + '"type": "x", "pad": "' + "a" * size + '"}')
                await asyncio.sleep(2)
                return True
        except Exception:
            return False

    return sum(await asyncio.gather(*(one() for _ in range(count))))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", type=Path, default=ROOT)
    ap.add_argument("--acks", type=int, default=100)
    ap.add_argument("--spectators", type=int, default=500)
    ap.add_argument("--flood", type=int, default=1100)
    ap.add_argument("--big", type=int, default=20)
    ap.add_argument("--max-spectators", type=int, default=200, help="the server's cap")
    args = ap.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    ws_url = url.replace("http", "ws")
    tmp = Path(tempfile.mkdtemp())
    log = open(tmp / "server.log", "wb")  # noqa: SIM115
    env = {**os.environ, "PYTHONPATH": str(args.code)}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(tmp / "g.sqlite"), str(port), REFEREE, PLAYER,
         str(args.max_spectators), str(args.code.resolve())],
        env=env, stdout=subprocess.PIPE, stderr=log,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        for _ in range(200):
            try:
                if _get(url + "/api/palette"):
                    break
            except OSError:
                time.sleep(0.05)
        print(f"code: {args.code}  load: {os.getloadavg()}")
        rss0 = memory_mb(proc.pid)[0]
        alone = asyncio.run(acks(ws_url, args.acks))
        print(f"referee ack alone, n={len(alone)}: p50 {pct(alone, 50):.1f} ms, "
              f"p99 {pct(alone, 99):.1f} ms")  # fmt: skip
        crowd, inside = asyncio.run(with_spectators(ws_url, args.spectators, args.acks))
        print(f"referee ack with {inside}/{args.spectators} spectators in, n={len(crowd)}: "
              f"p50 {pct(crowd, 50):.1f} ms, p99 {pct(crowd, 99):.1f} ms")  # fmt: skip
        time.sleep(2)
        logged = os.path.getsize(tmp / "server.log")
        socks = flood(port, args.flood)
        t0 = time.monotonic()
        times, fresh, _ = asyncio.run(during_flood(url, args.acks))
        took = time.monotonic() - t0
        log.flush()
        said = f"p50 {pct(times, 50):.1f} ms, p99 {pct(times, 99):.1f} ms" if times else "none"
        print(f"slow-header flood of {len(socks)} connections ({took:.0f} s): referee ack "
              f"n={len(times)}: {said}; "
              f"a player's new request: {len(fresh)}/10 served"
              + (f" (p50 {pct(fresh, 50):.0f} ms)" if fresh else "")
              + f"; server log +{(os.path.getsize(tmp / 'server.log') - logged) / 1e6:.2f} MB"
        )  # fmt: skip
        for s in socks:
            s.close()
        time.sleep(2)
        rss1 = memory_mb(proc.pid)[0]
        sent = asyncio.run(big_messages(ws_url, args.big, 15_000_000))
        time.sleep(1)
        rss2, peak = memory_mb(proc.pid)
        print(f"RSS: {rss0:.0f} MB at start, {rss1:.0f} MB before and {rss2:.0f} MB after "
              f"{args.big} spectators sent one 15 MB message each ({sent} sockets); "
              f"peak {peak:.0f} MB")  # fmt: skip
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
