"""Ctrl-C stops ``keezbord sim``, ``run`` and ``club serve`` cleanly as soon as they print
their address: the banner comes once the server's own signal handlers are in place
(web/serving.py), so the hub stops and the journal closes. Before, a Ctrl-C right after
the banner came before the handlers: a process started with SIGINT ignored (a script's
background job, and so every command the test suite started from such a job) lost it
and ran on until killed."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import Server, run

LOCAL = ("--host", "127.0.0.1", "--port", "0")
ARGS = {"sim": ("--no-browser",), "run": ("--simulate", "2", "--speed", "0.05")}


@pytest.mark.parametrize("cmd", ["sim", "run"])
@pytest.mark.parametrize("ignored", [False, True], ids=["terminal", "sigint-ignored"])
def test_ctrl_c_right_after_the_banner_stops_it_cleanly(
    cmd: str, ignored: bool, tmp_path: Path
) -> None:
    db = tmp_path / "j.sqlite"
    (tmp_path / "board.toml").write_text(f'[files]\njournal = "{db}"\n')
    srv = Server(tmp_path, cmd, *LOCAL, *ARGS[cmd], sigint_ignored=ignored)
    srv.wait_for(lambda line: line.startswith(f"keezbord {cmd}: http://"))
    code, err = srv.stop(timeout=120)  # a hang is the failure; a loaded machine is not
    # Shut down by its handler, not killed (-9): 130 as a Ctrl-C at a terminal ends a
    # command; 0 when SIGINT was ignored (the handler's signal is not raised again then).
    assert code == (0 if ignored else 130), err
    assert "Traceback" not in err, err
    # The journal was closed: SQLite removes its write-ahead log at the last close.
    assert db.exists() and not Path(f"{db}-wal").exists()


@pytest.mark.parametrize("ignored", [False, True], ids=["terminal", "sigint-ignored"])
def test_ctrl_c_right_after_the_banner_stops_the_club_scoreboard(
    ignored: bool, tmp_path: Path
) -> None:
    store = str(tmp_path / "club.sqlite")
    assert run(tmp_path, "club", "team", "add", "De Keien", "--store", store).returncode == 0
    srv = Server(tmp_path, "club", "serve", "--store", store, *LOCAL, sigint_ignored=ignored)
    srv.wait_for(lambda line: line.startswith("keezbord club: scoreboard http://"))
    code, err = srv.stop(timeout=120)  # no broker: it keeps trying, and still stops
    assert code == (0 if ignored else 130), err
    assert "Traceback" not in err, err
