"""The tournament store, the broker's generated files, a board's [club] section, the
verification of a disputed result, and ``keezbord club`` on the command line."""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from club_helpers import Club, broker_home, wait_for

from keezbord.host.cli import main
from keezbord.host.club import protocol as p
from keezbord.host.club.board_link import BoardLink, ClubSettings, Outbox
from keezbord.host.club.broker_config import acl_text, write_broker_config
from keezbord.host.club.reporter import digest, record_lines
from keezbord.host.club.store import Result, Store, StoreError
from keezbord.host.club.verify import verify
from keezbord.host.config import ConfigError, parse_config
from keezbord.host.events import Tick
from keezbord.host.journal import Journal
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def a_result(match: str, board: str, points: int = 18) -> Result:
    return Result(match, board, 1, points, 4, 4, 2, "home", False, 80, "d" * 64)


def test_store_counts_a_result_once_and_only_from_its_board(tmp_path: Path) -> None:
    s = Store(tmp_path / "club.sqlite")
    a, b = s.add_team("A"), s.add_team("B")
    s.add_board("tafel-1")
    s.add_board("tafel-2")
    with pytest.raises(StoreError):
        s.add_team("A")
    with pytest.raises(ValueError):
        s.add_board("Tafel 3")
    no = s.add_round(50, [(a, b)])
    (m,) = s.matches(no)
    assert m.board == "tafel-1"
    assert not s.record_result(a_result(m.id, "tafel-2"))  # not this board's match
    assert s.record_result(a_result(m.id, "tafel-1"))
    assert not s.record_result(a_result(m.id, "tafel-1", points=99))  # again: ignored
    assert s.results()[m.id].home_points == 18
    s.start_round(no, at=1000.0)
    with pytest.raises(StoreError):
        s.start_round(no)
    with pytest.raises(StoreError, match="boards"):
        s.add_round(50, [(a, b), (b, a), (a, b)])
    s.close()


def test_broker_files(club: Callable[[int, int], Club]) -> None:
    c = club(2, 2)
    files = c.broker.files
    passwd = files.passwd.read_text()
    assert sorted(line.split(":")[0] for line in passwd.splitlines()) == [
        "tafel-1",
        "tafel-2",
        "tournament",
    ]
    for pw in c.boards.values():
        assert pw not in passwd  # hashed by mosquitto_passwd
    assert files.passwd.stat().st_mode & 0o077 == 0
    assert files.acl.read_text() == acl_text()
    assert "pattern write keezbord/board/%u/#" in acl_text()
    conf = files.conf.read_text()
    assert "allow_anonymous false" in conf and f"listener {c.broker.port} 127.0.0.1" in conf
    cfg = parse_config(
        __import__("tomllib").loads(files.boards["tafel-1"].read_text()), "tafel-1.toml"
    )
    assert cfg.club == ClubSettings("tafel-1", c.boards["tafel-1"], "127.0.0.1", c.broker.port)


def test_wrong_password_is_refused(
    club: Callable[[int, int], Club], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = club(2, 1)
    bad = dataclasses.replace(c.settings("tafel-1"), password="wrong")
    link = BoardLink(bad, Outbox(tmp_path / "o.sqlite"), lambda m: None, lambda g: None)
    link.start()
    try:
        wait_for(lambda: link.refused is not None, 10, "the refusal")
        assert not link.connected.is_set()
        time.sleep(2.5)  # paho tried again meanwhile
    finally:
        link.stop()
    # The board's log says it once (the page only said "not connected").
    out = capsys.readouterr().out
    assert out.count("refused the login") == 1 and "check [club] board, password" in out


def test_club_section_errors() -> None:
    ok = parse_config({"club": {"board": "tafel-1", "password": "x", "port": 1884}})
    assert ok.club is not None and ok.club.port == 1884 and ok.club.broker == "127.0.0.1"
    assert parse_config({}).club is None
    with pytest.raises(ConfigError, match=r"club\.board"):
        parse_config({"club": {"board": "Tafel 1", "password": "x"}})
    with pytest.raises(ConfigError, match=r"club\.colour"):
        parse_config({"club": {"board": "t", "password": "x", "colour": 1}})


def test_verify_replays_the_record(tmp_path: Path) -> None:
    sim = simulate(2, "nk", 7, max_turns=2000)
    session = GameSession.start(tmp_path / "j.sqlite", {**sim.setup, "mode": "simulated"})
    for ev in sim.events:
        session.feed(ev)
    session.feed(Tick(sim.events[-1].t + 2000))  # the last move settles: the game is won
    session.close()
    with Journal(tmp_path / "j.sqlite", readonly=True) as j:
        lines = record_lines(j, 1)
    from keezbord.host.club.reporter import outcome

    state = GameSession.resume(tmp_path / "j.sqlite", 1)
    got = outcome(state.state)
    state.close()
    honest = Result(
        "m", "b", 1, got["points"][0], got["points"][1], got["pawns"][0], got["pawns"][1],
        got["winner"], got["timed_out"], got["moves"], digest(lines),
    )  # fmt: skip
    assert got["winner"] in ("home", "away") and got["moves"] == len(sim.moves)
    assert verify(honest, lines) == "ok"
    inflated = dataclasses.replace(honest, home_points=honest.home_points + 2)
    assert "points" in verify(inflated, lines)
    assert "digest" in verify(honest, lines[:-1])


def test_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = str(tmp_path / "club.sqlite")
    (tmp_path / "elsewhere").mkdir()
    assert main(["club", "--store", store, "team", "add", "De Pionnen", "--players", "An,Bas"]) == 0
    assert main(["club", "--store", store, "team", "add", "Keez"]) == 0
    assert main(["club", "--store", store, "board", "add", "tafel-1"]) == 0
    assert "password" in capsys.readouterr().out
    assert main(["club", "--store", store, "team", "add", "Keez"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["club", "--store", store, "board", "add", "Tafel 1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a-z" in err
    assert main(["club", "--store", store, "standings"]) == 0
    assert "De Pionnen" in capsys.readouterr().out
    assert main(["club", "--store", str(tmp_path / "none.sqlite"), "standings"]) == 2
    # docs/club.md: `--store FILE` picks another store, also written after the action
    assert main(["club", "standings", "--store", store]) == 0
    assert "De Pionnen" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path / "elsewhere")  # not the default ./club.sqlite
    assert main(["club", "team", "add", "Derde", "--store", store]) == 0
    kept = Store(store)
    assert kept.teams()[3][0] == "Derde"
    kept.close()
    assert not (tmp_path / "elsewhere" / "club.sqlite").exists()
    out = broker_home(tmp_path)
    assert (
        main(["club", "--store", store, "broker-config", "--out", str(out), "--port", "1999"]) == 0
    )
    assert (out / "boards" / "tafel-1.toml").exists()
    assert p.TOURNAMENT_USER in (out / "passwd").read_text()


def test_cli_pairs_and_starts_beside_the_running_service(
    club: Callable[[int, int], Club],
) -> None:
    """``keezbord club pair`` and ``start`` write through the broker with a client of
    their own: the service keeps its session and receives every result."""
    c = club(4, 2)
    for board in c.boards:
        c.sim(board, seats=2)
    store, port = str(c.store.path), str(c.broker.port)
    assert main(["club", "--store", store, "pair", "--minutes", "5", "--broker-port", port]) == 0
    assert main(["club", "--store", store, "start", "--broker-port", port]) == 0
    wait_for(lambda: len(c.store.results()) == 2, 60, "both results at the service")
    assert c.tournament.connected.is_set()
    assert main(["club", "--store", store, "start", "--broker-port", port]) == 2  # started


def test_an_idle_board_is_told_it_has_no_game(tmp_path: Path) -> None:
    from keezbord.host.club.service import Tournament

    s = Store(tmp_path / "club.sqlite")
    s.add_team("A")
    s.add_team("B")
    s.add_board("tafel-1")
    s.add_board("tafel-2")
    t = Tournament(s)
    no = t.pair_next(50)
    msgs = {m["board"]: m for m in t.pairings(no)}
    assert msgs["tafel-1"]["home"]["name"] in ("A", "B") and msgs["tafel-1"]["match"]
    assert msgs["tafel-2"]["match"] is None and msgs["tafel-2"]["home"] is None
    with pytest.raises(StoreError, match="600"):
        t.pair_next(0)
    s.close()


def test_without_host_the_boards_get_this_machines_mdns_name(tmp_path: Path) -> None:
    """broker-config without --host wrote `broker = "club-laptop.local"`, right only for a
    laptop of that name; the laptop's own name (as Avahi announces it) is the guess."""
    store = Store(tmp_path / "club.sqlite")
    store.add_board("tafel-1")
    files = write_broker_config(store, broker_home(tmp_path))
    store.close()
    me = socket.gethostname().split(".")[0]
    assert f'broker = "{me}.local"' in files.boards["tafel-1"].read_text()
