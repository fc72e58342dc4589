"""``keezbord club sim``: every registered board as a simulated table on the broker, from
the command line; they play the round when the clock starts, and Ctrl-C or a ``kill``
(SIGTERM) stops every table cleanly, its journal closed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from club_helpers import Club, wait_for


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_club_sim_plays_the_round_and_stops_every_table(
    how: signal.Signals, club: Callable[[int, int], Club], tmp_path: Path
) -> None:
    c = club(4, 2)
    t = c.tournament
    no = t.pair_next(0.08)  # 4.8 s: the clock ends the bots' games if they are slower
    tables = tmp_path / "tables"
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEEZBORD_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    proc = subprocess.Popen(
        [sys.executable, "-m", "keezbord", "club", "sim", "--store", str(c.store.path),
         "--boards-dir", str(tables), "--broker", "127.0.0.1",
         "--broker-port", str(c.broker.port), "--seats", "2", "--move-ms", "0"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("keezbord club sim: 2 simulated tables")
        t.start_clock()
        matches = [m.id for m in c.store.matches(no)]
        wait_for(lambda: set(matches) <= set(c.store.results()), 60, "both tables' results")
    finally:
        proc.send_signal(how)
        try:
            _, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    assert proc.returncode == 130 and "Traceback" not in err, (proc.returncode, err)
    journals = sorted(tables.glob("*.sqlite"))
    assert [j.name for j in journals] == ["tafel-1.sqlite", "tafel-2.sqlite"]
    assert not any(Path(f"{j}-wal").exists() for j in journals)  # each one closed
