"""``keezbord sim --club FILE`` as a subprocess: the simulated board logs in with the
[club] section broker-config wrote for it, plays the round's game when the clock starts
and reports its result to the tournament."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from club_helpers import Club, wait_for


def test_keezbord_sim_joins_the_club(club: Callable[[int, int], Club], tmp_path: Path) -> None:
    c = club(2, 1)
    t = c.tournament
    no = t.pair_next(0.08)  # 4.8 s: the clock ends the bots' game if they are slower
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEEZBORD_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    env["KEEZBORD_SYSTEM_CONFIG"] = str(tmp_path / "absent.toml")
    proc = subprocess.Popen(
        [sys.executable, "-m", "keezbord", "sim", "--club", str(c.broker.files.boards["tafel-1"]),
         "--port", "0", "--no-browser", "--new", "--db", str(tmp_path / "board.sqlite"),
         "--seats", "2", "--profile", "nk", "--bots", "greedy,greedy", "--bot-speed", "0.05"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert "keezbord sim: http://127.0.0.1:" in proc.stdout.readline()
        match = c.store.matches(no)[0].id
        t.start_clock()
        wait_for(lambda: t.live.get("tafel-1", {}).get("match") == match, 30, "the board's game")
        wait_for(lambda: match in c.store.results(), 60, "the board's result")
        r = c.store.results()[match]
        assert r.board == "tafel-1" and r.moves > 0
        assert r.timed_out or r.winner in ("home", "away")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def test_a_table_of_three_teams_cannot_join(tmp_path: Path) -> None:
    club_toml = tmp_path / "club.toml"
    club_toml.write_text('[club]\nboard = "tafel-1"\npassword = "x"\n')
    r = subprocess.run(
        [sys.executable, "-m", "keezbord", "sim", "--club", str(club_toml), "--seats", "6",
         "--port", "0", "--no-browser", "--new", "--db", str(tmp_path / "b.sqlite")],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        "keezbord sim: [club]: a club match is two teams; 6 seats make 3"
    ]
