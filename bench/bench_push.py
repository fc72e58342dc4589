"""Host CPU per move with a long history (issue 13): what the web host spends on each
move's state pushes to the connected pages, once an 8-seat game has 1,000 moves.

Builds a journal holding an 8-seat simulator game of 1,000 moves (bench_referee's), opens
it as `keezbord sim` does, then feeds the game's next moves into the hub and, after every
change, makes what the websocket sends to three pages (referee, player, spectator): the
state as JSON. Before issue 13 every push carried the whole history; now a page asks for
`?history=delta` and gets only the entries it does not have. Prints CPU ms per move (the
process's CPU time, so the figure does not depend on what else runs on the machine).
Works against this tree and against an older keezbord on PYTHONPATH (it detects which).

Run: .venv/bin/python bench/bench_push.py [--moves 60]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_referee import sim_journal

from keezbord.host.sim.games import simulate
from keezbord.host.web import page
from keezbord.host.web.hub import Hub, HubOptions


def journal(db: Path, moves: int, seed: int = 0) -> None:
    """An 8-seat simulator game of ``moves`` moves (random bots) in a journal."""
    sim_journal(db, seed, moves)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=60, help="moves fed after the long history")
    ap.add_argument("--history", type=int, default=900, help="moves in the journal first")
    args = ap.parse_args()
    delta = hasattr(page, "HistoryFeed")
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "sim.sqlite"
        journal(db, args.history)
        if delta:
            from keezbord.host.roles import Role, Tokens

            opts = HubOptions(db=db, tokens=Tokens("r", "p"))
            roles = [Role.REFEREE, Role.PLAYER, Role.SPECTATOR]
            feeds = [page.HistoryFeed() for _ in roles]
        else:
            opts = HubOptions(db=db)
        hub = Hub.open_sim(opts, seats=8, kinds=["random"] * 8)
        start = len(hub.session.state.history)
        events = simulate(8, "standard", 0, max_turns=20_000).events
        # Skip the events the journal already holds: feed from the first one after it.
        t_last = hub.session.state.now
        rest = [ev for ev in events if ev.t > t_last]

        def push() -> int:
            sent = 0
            if delta:
                full = hub.page_state()
                for role, feed in zip(roles, feeds, strict=True):
                    msg: Any = feed.message(page.for_role(full, role))
                    sent += len(json.dumps(msg, ensure_ascii=False))
            else:
                for _ in range(3):
                    sent += len(json.dumps(hub.page_state(), ensure_ascii=False))
            return sent

        push()  # the pages' first state (whole history) is not a move's cost
        pushes = sent = 0
        feed_cpu = push_cpu = 0.0
        for ev in rest:
            c0 = time.process_time()
            hub.feed(ev)
            c1 = time.process_time()
            sent += push()
            push_cpu += time.process_time() - c1
            feed_cpu += c1 - c0
            pushes += 1
            if len(hub.session.state.history) - start >= args.moves:
                break
        moves = len(hub.session.state.history) - start
        hub.session.close()
    print(
        f"host CPU per move, 8 seats, a history of {start:,} moves, 3 pages "
        f"({'history delta' if delta else 'whole history every push'}), over {moves} moves: "
        f"pushes {push_cpu / moves * 1000:.1f} ms + referee {feed_cpu / moves * 1000:.1f} ms "
        f"per move ({pushes / moves:.1f} pushes a move, {sent / pushes / 1024:.1f} KiB "
        "sent per push to the 3 pages)"
    )


if __name__ == "__main__":
    main()
