"""The journal: durable inputs and decisions, resume by replay, export as a trace, and a
power cut (SIGKILL) at random moments never loses a move the players were shown."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from keezbord.host.cli import main
from keezbord.host.events import Event
from keezbord.host.journal import Journal
from keezbord.host.referee.replay import replay
from keezbord.host.referee.state import Decision
from keezbord.host.referee.trace import parse_trace
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def _game(path: Path, seed: int = 1) -> tuple[GameSession, list[Event]]:
    sim = simulate(4, "standard", seed, max_turns=30)
    session = GameSession.start(path, sim.setup)
    return session, list(sim.events)


def test_every_input_and_decision_is_journalled(tmp_path: Path) -> None:
    session, events = _game(tmp_path / "j.db")
    shown = []
    for e in events:
        shown += [d.to_record() for d in session.feed(e) if isinstance(d, Decision)]
    session.close()
    with Journal(tmp_path / "j.db", readonly=True) as j:
        gid = j.game(None)
        assert len(j.inputs(gid)) == len(events)
        assert j.decisions(gid) == shown == list(j.iter_decisions(gid))
        # The snapshot's recent decisions are read from the end, oldest first.
        assert j.last_decisions(gid, 5) == shown[-5:] and len(shown) > 5
        assert j.last_decisions(gid, 10_000) == shown
        assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_resume_equals_the_game_and_export_replays_it(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    session, events = _game(db, seed=2)
    for e in events:
        session.feed(e)
    assert session.tick(session.state.now + 1000)  # the last move settles
    before = session.snapshot()
    trace = session.export_trace()
    session.close()
    resumed = GameSession.resume(db)
    assert resumed.snapshot() == before
    assert resumed.state == session.state
    setup, inputs = parse_trace(trace)
    out = list(replay(setup, inputs))
    assert [d["move"] for d in out if d["type"] == "move"] == [h["move"] for h in before["history"]]
    resumed.close()


def test_journal_export_command(tmp_path: Path, capsys: object) -> None:
    db = tmp_path / "j.db"
    session, events = _game(db, seed=3)
    for e in events:
        session.feed(e)
    n = len(session.state.history)
    session.close()
    out = tmp_path / "game.jsonl"
    assert main(["journal", "export", "--db", str(db), "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "setup"
    moves = (tmp_path / "game.jsonl.moves.txt").read_text().splitlines()
    assert len(moves) == n and moves[0].startswith("1. seat ")
    assert main(["journal", "export", "--db", str(tmp_path / "none.db")]) == 2


DRIVER = textwrap.dedent("""
    import sys
    from keezbord.host.referee.state import Decision
    from keezbord.host.session import GameSession
    from keezbord.host.sim.games import simulate
    db, seed = sys.argv[1], int(sys.argv[2])
    sim = simulate(4, "standard", seed, max_turns=40)
    try:
        s = GameSession.resume(db)
    except Exception:
        s = GameSession.start(db, sim.setup)
    print("R", len(s.state.history), flush=True)
    for ev in sim.events[s.seq:]:
        for e in s.feed(ev):
            if isinstance(e, Decision) and e.type == "move":
                print("M", len(s.state.history), flush=True)  # shown to the players
    s.tick(s.state.now + 1000)
    print("DONE", flush=True)
""")


def test_power_cut_at_random_moments_loses_no_accepted_move(tmp_path: Path) -> None:
    from keezbord.host.referee.replay import run
    from keezbord.host.referee.trace import setup_from_dict

    seed = 5
    sim = simulate(4, "standard", seed, max_turns=40)
    ref = None
    for ref, _ in run(setup_from_dict(sim.setup), sim.events):  # noqa: B007
        pass
    assert ref is not None
    full = [(r.seat, r.text) for r in ref.history]
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    rng = random.Random(0)
    kills = games = 0
    db = tmp_path / "crash0.db"
    # A fixed number of kills, not a time budget: the test must not depend on how busy
    # the machine is.
    while kills < 150:
        p = subprocess.Popen(
            [sys.executable, str(script), str(db), str(seed)],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        assert p.stdout is not None
        line = p.stdout.readline()  # "R n": resumed, about to feed
        assert line.startswith("R"), line
        resumed = int(line.split()[1])
        time.sleep(rng.random() * 0.04)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        # The kill can cut the last line short: only whole lines were shown.
        out = p.stdout.read().split("\n")[:-1]
        p.stdout.close()
        seen = [int(x.split()[1]) for x in out if x.startswith("M ")]
        kills += 1
        # What the players saw accepted is in the journal, and it is the same game.
        s = GameSession.resume(db)
        got = [(r.seat, r.text) for r in s.state.history]
        finished = s.seq == len(sim.events) + 1
        s.close()
        assert len(got) >= max(seen, default=resumed)
        assert got == full[: len(got)]
        if finished or "DONE" in out:
            assert got == full
            games += 1
            db = tmp_path / f"crash{games}.db"  # play it again, killed elsewhere
    assert games >= 1, f"the game never finished in {kills} kills"
