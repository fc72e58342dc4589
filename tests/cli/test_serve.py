"""``keezbord sim`` and ``run`` as subprocesses (issue 11 items 10, 11, 14): refused
before any server starts, one line and exit 2; which game is resumed; what ``run`` says at
start, and about a missing Pico. Servers listen on 127.0.0.1 only, on a free port."""

from __future__ import annotations

import json
import os
import pty
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clihelp import Server, assert_one_line_error, run

from keezbord.host.commands.web import run_banner
from keezbord.host.journal import Journal
from keezbord.host.roles import Tokens

LOCAL = ("--host", "127.0.0.1")


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def _config(tmp: Path, text: str, name: str = "board.toml") -> str:
    (tmp / name).write_text(text)
    return str(tmp / name)


# -- item 10: refused before anything starts ------------------------------------------------


@pytest.mark.parametrize("cmd", ["sim", "run"])
def test_refused_before_the_server_starts(cmd: str, tmp_path: Path, busy_port: int) -> None:
    extra = ["--no-browser"] if cmd == "sim" else ["--simulate", "1"]
    (tmp_path / "notdb.sqlite").write_bytes(b"this is not a database " * 100)
    no_folder = _config(tmp_path, '[files]\njournal = "nowhere/j.sqlite"\n', "nofolder.toml")
    not_db = _config(tmp_path, '[files]\njournal = "notdb.sqlite"\n', "notdb.toml")
    cases: list[tuple[list[str], str]] = [
        (["--port", str(busy_port)], "already in use"),
        (["--port", "70000"], "70000"),
        (["--host", "no-such-host.invalid"], "cannot be resolved"),
        (["--host", "192.0.2.1"], "not an address of this machine"),
        (["--config", no_folder], "does not exist"),
        (["--config", not_db], "not a keezbord journal"),
    ]
    if cmd == "sim":
        cases += [
            (["--seats", "3", "--teams", "pairs", "--new"], "pairs"),
            (["--db", str(tmp_path / "notdb.sqlite")], "not a keezbord journal"),
            (["--db", str(tmp_path / "missing" / "sim.sqlite")], "does not exist"),
        ]
    for args, words in cases:
        host = [] if "--host" in args else list(LOCAL)
        port = [] if "--port" in args else ["--port", "0"]
        r = run(tmp_path, cmd, *host, *port, *extra, *args, timeout=30)
        # No URL banner on stdout: nothing was announced. A journal it cannot use: exit 3
        # (the service's unit does not start again on it).
        assert_one_line_error(r, words, code=3 if "journal" in words else 2)
    assert not (tmp_path / "nowhere").exists()
    assert not (tmp_path / "missing").exists()  # sim --db never creates a folder


# -- item 11: what sim resumes --------------------------------------------------------------


def _sim(tmp: Path, *args: str) -> str:
    with Server(tmp, "sim", *LOCAL, "--port", "0", "--no-browser", *args) as srv:
        return srv.wait_for(lambda line: line.startswith("keezbord sim: http://127.0.0.1:"))


def test_sim_resumes_unless_the_options_ask_for_another_game(tmp_path: Path) -> None:
    first = _sim(tmp_path, "--seed", "5")
    assert "(new game;" in first
    journal = tmp_path / "xdg" / "keezbord" / "keezbord.sqlite"
    assert f"journal {journal}" in first  # the data folder's journal: the common rule
    again = _sim(tmp_path)
    assert "resumed game 1 (4 seats, standard, players human,greedy,greedy,greedy" in again
    assert "resumed game 1" in _sim(tmp_path, "--seats", "4", "--profile", "standard")
    six = _sim(tmp_path, "--seats", "6")
    assert "new game: --seats differs from game 1" in six
    assert "resumed game 2 (6 seats" in _sim(tmp_path)
    assert "new game: --hints, --bots differ from game 2" in _sim(
        tmp_path, "--bots", "human,human", "--hints", "full"
    )
    assert "(new game;" in _sim(tmp_path, "--new")
    with Journal(journal, readonly=True) as j:
        setups = [j.setup(g) for g in (1, 2, 3, 4)]
    assert [s["seats"] for s in setups] == [4, 6, 4, 4]  # options not given: defaults
    assert setups[2]["hints"] == "full" and all(s["mode"] == "sim" for s in setups)
    dutch = _sim(tmp_path, "--lang", "nl")
    assert "spel 4 hervat" in dutch and "Ctrl-C stopt" in dutch


# -- item 12: one journal, found by journal export ------------------------------------------


def test_run_simulate_and_sim_share_the_journal_export_finds(tmp_path: Path) -> None:
    cfg = _config(tmp_path, '[board]\nseats = 4\n[files]\njournal = "games.sqlite"\n')
    with Server(
        tmp_path, "run", *LOCAL, "--port", "0", "--simulate", "2", "--speed", "0.05"
    ) as srv:
        first = srv.wait_for(lambda line: line.startswith("keezbord run: http://"))
        assert f"journal {tmp_path / 'games.sqlite'}" in first  # ./board.toml's journal
        time.sleep(3)  # let the simulated game make a few moves
    with Server(tmp_path, "sim", *LOCAL, "--port", "0", "--no-browser") as srv:
        assert "games.sqlite" in srv.wait_for(lambda line: line.startswith("keezbord sim:"))
    r = run(tmp_path, "journal", "export", "--game", "1")
    assert r.returncode == 0, r.stderr
    setup = json.loads(r.stdout.splitlines()[0])
    assert setup["mode"] == "simulated"
    assert len(r.stdout.splitlines()) > 3  # the simulated players' events were journalled
    latest = run(tmp_path, "journal", "export")  # the latest game: the simulator's
    assert json.loads(latest.stdout.splitlines()[0])["mode"] == "sim"
    # The same with --config from elsewhere, and replayable.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = elsewhere / "g1.jsonl"
    r = run(
        tmp_path,
        "journal",
        "export",
        "--config",
        cfg,
        "--game",
        "1",
        "--out",
        str(out),
        cwd=elsewhere,
    )
    assert r.returncode == 0, r.stderr
    replayed = run(tmp_path, "replay", str(out), cwd=elsewhere)
    assert replayed.returncode == 0, replayed.stderr
    assert sum('"type": "move"' in line for line in replayed.stdout.splitlines()) >= 1
    # A second simulated run starts a new game in the same journal; nothing is deleted.
    with Server(tmp_path, "run", *LOCAL, "--port", "0", "--simulate", "3") as srv:
        srv.wait_for(lambda line: line.startswith("links not shown"))
    with Journal(tmp_path / "games.sqlite", readonly=True) as j:
        assert [j.setup(g)["mode"] for g in (1, 2, 3)] == ["simulated", "sim", "simulated"]


def test_system_config_is_used_when_there_is_no_local_one(tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "board.toml").write_text('[files]\njournal = "service.sqlite"\n')
    with Journal(etc / "service.sqlite") as j:
        j.new_game({"type": "setup", "seats": 4, "mode": "run"})
    r = run(tmp_path, "journal", "export", KEEZBORD_SYSTEM_CONFIG=str(etc / "board.toml"))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[0])["mode"] == "run"


# -- item 14: what run says -----------------------------------------------------------------


def test_run_says_it_listens_everywhere_and_where_spectators_look() -> None:
    tokens = Tokens(referee="tok", player="ptok")
    lines = run_banner("http://0.0.0.0:8000/", "0.0.0.0", Path("j.sqlite"), tokens, "en")
    assert any("listening on every interface" in line for line in lines)
    spect = next(line for line in lines if "spectators open" in line)
    url = re.search(r"spectators open (http://\S+)", spect)
    assert url is not None and "0.0.0.0" not in url[1] and url[1].endswith(":8000/")
    local = run_banner("http://127.0.0.1:8000/", "127.0.0.1", Path("j.sqlite"), tokens, "nl")
    assert not any("netwerk" in line for line in local)
    # The three links (issue 13, roles): spectators, players, referee.
    assert local[-3:] == [
        "toeschouwers (alleen kijken): http://127.0.0.1:8000/",
        "spelers: http://127.0.0.1:8000/?token=ptok",
        "scheidsrechter (beheer): http://127.0.0.1:8000/?token=tok",
    ]
    assert lines[-1] == f"referee (control): {url[1]}?token=tok"


def test_speed_help_says_smaller_is_faster(tmp_path: Path) -> None:
    r = run(tmp_path, "run", "--help")
    assert "smaller is faster" in " ".join(r.stdout.split())


def test_run_without_a_pico_says_so_and_again_when_it_connects(tmp_path: Path) -> None:
    link = tmp_path / "ttyPICO"  # a symlink to a pseudo-terminal, made later
    _config(tmp_path, f'[scanner]\nport = "{link}"\n[rfid]\nreader = "none"\n')
    with Server(tmp_path, "run", *LOCAL, "--port", "0") as srv:
        srv.wait_for(lambda line: line.startswith("links not shown"))
        missing = srv.wait_for(lambda line: "no Pico" in line)
        assert str(link) in missing
        master, slave = pty.openpty()
        try:
            os.symlink(os.ttyname(slave), link)
            connected = srv.wait_for(lambda line: "Pico connected" in line)
            assert str(link) in connected
        finally:
            os.close(slave)
            os.close(master)
    assert sum("no Pico" in line for line in srv.lines) == 1  # said once, not every retry


def test_selftest_writes_files_only_where_asked(tmp_path: Path) -> None:
    r = run(tmp_path, "selftest", "--sim", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "Board selftest" in r.stdout  # English on the command line by default
    assert sorted(p.name for p in tmp_path.iterdir()) == ["xdg"] or not list(
        tmp_path.glob("selftest*")
    )
    rep = tmp_path / "reports" / "board.json"
    rep.parent.mkdir()
    r = run(tmp_path, "selftest", "--sim", "--quiet", "--report", str(rep), KEEZBORD_LANG="nl")
    assert r.returncode == 0, r.stderr
    assert json.loads(rep.read_text())["ok"] is True
    assert "in orde" in rep.with_suffix(".txt").read_text()


def test_sim_prints_three_new_links_at_every_start(tmp_path: Path) -> None:
    # Issue 13, roles: spectators, players, referee; new tokens at every start.
    def links() -> list[str]:
        with Server(tmp_path, "sim", *LOCAL, "--port", "0", "--no-browser", tty=True) as srv:
            ref = srv.wait_for(lambda line: line.startswith("referee (control): "))
            return [ln for ln in srv.lines if ln.startswith(("spectators", "players"))] + [ref]

    first, second = links(), links()
    assert re.fullmatch(r"spectators \(watch only\): http://127\.0\.0\.1:\d+/", first[0])
    assert re.fullmatch(r"players: http://127\.0\.0\.1:\d+/\?token=\S+", first[1])
    assert re.fullmatch(r"referee \(control\): http://127\.0\.0\.1:\d+/\?token=\S+", first[2])
    tokens = [ln.rsplit("=", 1)[1] for ln in first[1:] + second[1:]]
    assert len(set(tokens)) == 4  # players' and referee's differ, and change every start
