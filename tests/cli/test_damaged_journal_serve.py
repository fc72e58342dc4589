"""What ``run`` and ``sim`` do with a damaged journal record (docs/referee.md, "A
damaged journal"): the same game served, resumed after its last good input, said in the
log, on the page's instruction line and (``run``) in ``GET /api/health``; a game whose
setup row does not read refuses to start, in one line with its fix, exit status 3 (the
service's unit does not restart on it). Before, each of these began a new game in
silence (``run``) or served game 2 under a banner naming game 1 (``sim``)."""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from clihelp import Server, run

from keezbord.host.events import CardTap
from keezbord.host.journal import Journal
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate

LOCAL = ("--host", "127.0.0.1", "--port", "0")
# A Pico that is not there and no card reader: `run` serves the page without hardware.
CONFIG = '[scanner]\nport = "{tmp}/no-pico"\n[rfid]\nreader = "none"\n[files]\njournal = "{db}"\n'


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _url(line: str) -> str:
    return line.split()[2]


def _said(lines: list[str]) -> str:
    """The log's line on the damage (one, once)."""
    found = [line for line in lines if "journal damaged" in line]
    assert len(found) == 1, lines
    return found[0]


def _run_journal(tmp: Path) -> tuple[Path, int]:
    """A real board's game in progress (the setup `run` makes for this configuration),
    played from a bot game's trace; its number of inputs."""
    db = tmp / "games.sqlite"
    (tmp / "board.toml").write_text(CONFIG.format(tmp=tmp, db=db))
    game = simulate(4, "standard", 3)
    setup = {
        "type": "setup",
        "seats": 4,
        "segment": 16,
        "profile": "standard",
        "hints": "targets",
        "mode": "run",
        "card_reader": False,
        "dealer": game.setup["dealer"],
    }
    s = GameSession.start(db, setup)
    n = 0
    for ev in game.events[:120]:
        if isinstance(ev, CardTap):
            continue  # no card reader on this board
        s.feed(ev)
        n += 1
    s.close()
    return db, n


DAMAGES = ("the first byte of the last input", "a middle input", "a place edited")


def _damage(db: Path, n: int, how: str) -> int:
    """Damage game 1's inputs as ``how`` says; the input (0-based) where the good part
    ends at the latest."""
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT seq, data FROM inputs WHERE game = 1 ORDER BY seq").fetchall()
        if how == "a place edited":  # valid JSON: the last place before the second move
            moved = [
                int(q)
                for (q,) in c.execute(
                    'SELECT seq FROM decisions WHERE game = 1 AND data LIKE \'%"type": "move"%\''
                )
            ]
            seq, text = next((q, t) for q, t in reversed(rows) if q < moved[1] and '"place"' in t)
            data = json.dumps({**json.loads(text), "hole": "T40"})
            bad = moved[1]
        else:
            seq = n - 1 if how.startswith("the first byte") else n // 2
            text = rows[seq][1]
            data = text[1:] if how.startswith("the first byte") else text[:5] + "\x00#" + text[7:]
            bad = int(seq)
        c.execute("UPDATE inputs SET data = ? WHERE game = 1 AND seq = ?", (data, seq))
    return bad


def _check_damage(said: str, state: dict[str, Any], how: str, n: int, bad: int) -> int:
    """What the log and the page said; the inputs kept."""
    kept = int(said.split("resumed after input ")[1].split(",")[0])
    assert f"game 1 resumed after input {kept}, {n - kept} input(s) set aside" in said
    assert state["game"] == 1  # the same game, not a new one over it
    shown = state["instruction"]
    assert shown["source"] == "journal" and shown["tone"] == "fix"
    lights = shown["text"]["en"].endswith(": put the board as the lights show")
    assert lights == (state["mode"] == "run")  # a board of pawns; the simulator's is drawn
    if how == "a place edited":
        assert kept <= bad and "the journal has move" in said  # where they differ
        assert "differ" in shown["text"]["en"] and "wijken" in shown["text"]["nl"]
    else:
        assert kept == bad and "does not read" in said
        assert f"input {bad + 1} is unreadable" in shown["text"]["en"]
        assert "onleesbaar" in shown["text"]["nl"]
    return kept


@pytest.mark.parametrize("how", DAMAGES)
def test_run_resumes_a_damaged_game_after_its_last_good_input_and_says_so(
    tmp_path: Path, how: str
) -> None:
    db, n = _run_journal(tmp_path)
    bad = _damage(db, n, how)
    with Server(tmp_path, "run", *LOCAL) as srv:
        url = _url(srv.wait_for(lambda line: line.startswith("keezbord run: http://")))
        said = _said(srv.lines)  # before the banner: the game is opened first
        state = _get(url + "api/state")
        health = _get(url + "api/health")
    kept = _check_damage(said, state, how, n, bad)
    journal = health["health"]["journal"]
    assert journal["ok"] and (journal["resumed"]["kept"], journal["resumed"]["dropped"]) == (
        kept,
        n - kept,
    )
    with Journal(db, readonly=True) as j:
        assert j.game_ids() == [1]  # no empty new game for the next start to resume


def test_run_refuses_a_game_whose_setup_does_not_read_with_its_fix(tmp_path: Path) -> None:
    db, _ = _run_journal(tmp_path)
    with sqlite3.connect(db) as c:
        (setup,) = c.execute("SELECT setup FROM games WHERE id = 1").fetchone()
        c.execute("UPDATE games SET setup = ? WHERE id = 1", (setup[1:],))
    r = run(tmp_path, "run", *LOCAL, timeout=60)
    assert r.returncode == 3, (r.stdout, r.stderr)  # the unit's RestartPreventExitStatus
    (line,) = r.stderr.splitlines()
    assert "game 1 cannot be resumed: its setup row does not read" in line
    assert f"keezbord journal set-aside --game 1 --db {db}" in line
    with Journal(db, readonly=True) as j:
        assert j.game_ids() == [1]
    # The referee's word: set aside (kept), then `run` begins a new game.
    assert run(tmp_path, "journal", "set-aside", "--db", str(db), "--game", "1").returncode == 0
    with Server(tmp_path, "run", *LOCAL) as srv:
        url = _url(srv.wait_for(lambda line: line.startswith("keezbord run: http://")))
        assert _get(url + "api/state")["game"] == 2


def _sim_journal(tmp: Path) -> tuple[Path, int]:
    """A simulator game of four bots, stopped once it has journalled 40 inputs."""
    db = tmp / "sim.sqlite"
    bots = ("--bots", "greedy,greedy,greedy,greedy", "--bot-speed", "0.05", "--seed", "4")
    with Server(tmp, "sim", *LOCAL, "--no-browser", "--db", str(db), *bots) as srv:
        srv.wait_for(lambda line: line.startswith("keezbord sim: http://"))
        deadline = time.monotonic() + 120
        n = 0
        while n < 40 and time.monotonic() < deadline:
            with Journal(db, readonly=True) as j:
                n = len(j.inputs(1))
            time.sleep(0.2)
    with Journal(db, readonly=True) as j:
        n = len(j.inputs(1))
    assert n >= 40
    return db, n


@pytest.mark.parametrize("how", DAMAGES)
def test_sim_resumes_the_game_its_banner_names_after_the_last_good_input(
    tmp_path: Path, how: str
) -> None:
    db, n = _sim_journal(tmp_path)
    bad = _damage(db, n, how)
    with Server(tmp_path, "sim", *LOCAL, "--no-browser", "--db", str(db)) as srv:
        banner = srv.wait_for(lambda line: line.startswith("keezbord sim: http://"))
        said = _said(srv.lines)
        state = _get(_url(banner) + "api/state")
    assert "resumed game 1" in banner
    _check_damage(said, state, how, n, bad)
    with Journal(db, readonly=True) as j:
        assert j.game_ids() == [1]


def test_sim_refuses_a_damaged_setup_and_names_new(tmp_path: Path) -> None:
    db, _ = _sim_journal(tmp_path)
    with sqlite3.connect(db) as c:
        (setup,) = c.execute("SELECT setup FROM games WHERE id = 1").fetchone()
        c.execute("UPDATE games SET setup = ? WHERE id = 1", ("#" + setup[1:],))
    r = run(tmp_path, "sim", *LOCAL, "--no-browser", "--db", str(db), timeout=60)
    assert r.returncode == 3, (r.stdout, r.stderr)
    (line,) = r.stderr.splitlines()
    assert "game 1" in line and "does not read" in line and "keezbord sim --new" in line
