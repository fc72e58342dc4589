"""``keezbord run --setup POSITION`` (issue 26 part 1): a bad position is one line and
exit 2 before any server starts; with ``--simulate`` a simulated person sets the board up
doing only what the lights say, and the game begins from the position."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from clihelp import Server, assert_one_line_error, run

LOCAL = ("--host", "127.0.0.1", "--port", "0")
TARGET = "NNST44/NNH2H4/NNNT32/NNSH2 0 standard"


@pytest.mark.parametrize(
    ("position", "words"),
    [
        ("NNNN/NNNN/NNNN 0 standard", "3 seats"),  # the board has 4
        ("NNNX/NNNN/NNNN/NNNN 0 standard", "--setup"),
        ("nothing-here.json", "nothing-here.json"),
    ],
)
def test_a_bad_setup_position_is_one_line_and_exit_2(
    tmp_path: Path, position: str, words: str
) -> None:
    r = run(tmp_path, "run", *LOCAL, "--simulate", "1", "--setup", position, timeout=30)
    assert_one_line_error(r, words)


def test_setup_with_remote_seats_is_one_line_and_exit_2(tmp_path: Path) -> None:
    # A remote seat's game is a virtual deal from the start (and a linked game's position
    # the host of record's): no set-up with either.
    r = run(tmp_path, "run", *LOCAL, "--remote-seats", "1", "--setup", TARGET, timeout=30)
    assert_one_line_error(r, "--setup: not with remote seats")


def test_run_simulate_setup_sets_the_board_up_and_the_game_begins(tmp_path: Path) -> None:
    (tmp_path / "board.toml").write_text('[board]\nseats = 4\n[files]\njournal = "g.sqlite"\n')
    (tmp_path / "target.txt").write_text(TARGET + "\n")  # a position file
    args = ("--simulate", "4", "--speed", "0.05", "--setup", str(tmp_path / "target.txt"))
    with Server(tmp_path, "run", *LOCAL, *args) as srv:
        srv.wait_for(lambda line: line.startswith("keezbord run: http://"))
        time.sleep(4)  # the simulated person's 20-odd instructions at 20 times the pace
    r = run(tmp_path, "journal", "export", "--game", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    setup = json.loads(lines[0])
    assert setup["position"] == TARGET and setup["arrange"] is True
    (tmp_path / "g1.jsonl").write_text(r.stdout)
    replayed = run(tmp_path, "replay", str(tmp_path / "g1.jsonl"))
    assert replayed.returncode == 0, replayed.stderr
    decisions = [json.loads(x) for x in replayed.stdout.splitlines()]
    kinds = [d["type"] for d in decisions]
    assert kinds.count("setup_task") >= 5 and kinds.count("setup_done") == 1
    assert "setup_wrong" not in kinds  # the person did only what the lights said
    assert decisions[-1]["position"]["pawns"][0] == ["N", "N", "S", "T44"]


SIM = ("sim", *LOCAL, "--no-browser")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--setup", "NNNX/NNNN/NNNN/NNNN 0 standard"], "--setup"),
        (["--setup", "nothing-here.json"], "nothing-here.json"),
        (["--setup", TARGET, "--seats", "6"], "--seats 6: the --setup position has 4"),
        (["--setup", TARGET, "--hand", "7,X"], "--hand: cards are"),
        (["--setup", TARGET, "--hand", "5,5,5,5,5"], "the deck holds no more '5'"),
        (["--setup", TARGET, "--hand", "A,2,3,4,5,6"], "--hand"),
        (["--hand", "7"], "--hand: only with --setup"),
    ],
)
def test_a_bad_sim_setup_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], words: str
) -> None:
    r = run(tmp_path, *SIM, "--db", str(tmp_path / "s.sqlite"), *args, timeout=30)
    assert_one_line_error(r, words)


def test_sim_setup_begins_a_new_game_at_the_position_with_the_hand(tmp_path: Path) -> None:
    # The simulated board shows the position at once: the game's setup line is the
    # position itself (no set-up mode), the seat on turn holds the hand given.
    db = str(tmp_path / "s.sqlite")
    (tmp_path / "target.txt").write_text(TARGET + "\n")
    args = ("--db", db, "--setup", str(tmp_path / "target.txt"), "--hand", "7,K")
    for _ in range(2):  # each start begins a new game at the position
        with Server(tmp_path, *SIM, *args) as srv:
            srv.wait_for(lambda line: line.startswith("keezbord sim: http://"))
            assert "--setup" in srv.lines[-1]
    r = run(tmp_path, "journal", "export", "--game", "2", "--db", db)
    assert r.returncode == 0, r.stderr
    setup = json.loads(r.stdout.splitlines()[0])
    assert setup["position"] == TARGET and "arrange" not in setup
    assert setup["cards_left"] == [2, 5, 5, 5] and setup["mode"] == "sim"
    import sqlite3

    with sqlite3.connect(db) as con:
        info = json.loads(con.execute("SELECT data FROM web_sim WHERE game = 2").fetchone()[0])
    assert info["start"] == TARGET and info["hands"] == {"0": ["7", "K"]}
