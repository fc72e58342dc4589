"""Issue 28, safe to put on the internet: the links (they hold the tokens) are printed
only on a terminal, never into a log (the service's output goes to the system journal);
``keezbord service token`` shows them, the remote seats' too; tokens are long; a short
``--token`` is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

from clihelp import Server, assert_one_line_error, run

from keezbord.host.roles import MIN_TOKEN_CHARS

LOCAL = ("--host", "127.0.0.1", "--port", "0")


def test_run_prints_no_token_into_a_log_but_on_a_terminal(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    args = ("run", *LOCAL, "--simulate", "4", "--state-dir", str(state))
    with Server(tmp_path, *args) as srv:  # standard output a pipe: a log
        note = srv.wait_for(lambda line: line.startswith("links not shown"))
        assert f"keezbord service token --state-dir {state}" in note
    tokens = json.loads((state / "tokens.json").read_text())
    secrets_ = [tokens["referee"], tokens["player"]]
    assert all(len(t) >= MIN_TOKEN_CHARS for t in secrets_)
    assert not any(t in line for t in secrets_ for line in srv.lines)
    _, err = srv.stop()
    assert not any(t in err for t in secrets_)
    with Server(tmp_path, *args, tty=True) as srv:  # a person at a terminal
        ref = srv.wait_for(lambda line: line.startswith("referee (control): "))
        assert ref.endswith(f"?token={tokens['referee']}")  # kept between starts
        assert any(line.endswith(f"?token={tokens['player']}") for line in srv.lines)


def test_service_token_shows_the_links_of_a_state_folder(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "board.toml").write_text("[remote]\nseats = [1]\n")
    with Server(tmp_path, "run", *LOCAL, "--simulate", "4", "--state-dir", str(state)) as srv:
        srv.wait_for(lambda line: line.startswith("links not shown"))
    tokens = json.loads((state / "tokens.json").read_text())
    assert set(tokens["seats"]) == {"1"}  # the remote seat's own token, kept
    r = run(tmp_path, "service", "token", "--state-dir", str(state), "--url", "https://k.example/")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert f"players: https://k.example/?token={tokens['player']}" in lines
    assert f"seat 1 (blue), remote: https://k.example/?token={tokens['seats']['1']}" in lines
    nl = run(tmp_path, "service", "token", "--state-dir", str(state), "--lang", "nl").stdout
    assert re.search(r"stoel 1 \(blauw\) op afstand: http://keezbord\.local:8000/\?token=", nl)
    assert_one_line_error(
        run(tmp_path, "service", "token", "--state-dir", str(tmp_path / "none")), "no tokens"
    )


def test_a_short_token_is_refused(tmp_path: Path) -> None:
    r = run(tmp_path, "run", *LOCAL, "--simulate", "1", "--token", "secret123")
    assert_one_line_error(r, "--token", "128 bits")
    r = run(tmp_path, "run", *LOCAL, "--remote-seats", "0,1,2,3", "--simulate", "1")
    assert_one_line_error(r, "at least one seat plays at the table")
    r = run(tmp_path, "run", *LOCAL, "--remote-seats", "1,x")
    assert r.returncode == 2 and "seat numbers" in r.stderr


def test_an_old_short_token_file_is_made_new_once(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "tokens.json").write_text('{"referee": "Zx-9_aBcdEf12", "player": "pl-9_aBcdEf"}')
    with Server(tmp_path, "run", *LOCAL, "--simulate", "4", "--state-dir", str(state)) as srv:
        srv.wait_for(lambda line: line.startswith("links not shown"))
    tokens = json.loads((state / "tokens.json").read_text())
    assert tokens["referee"] != "Zx-9_aBcdEf12" and len(tokens["referee"]) >= MIN_TOKEN_CHARS
    assert (state / "tokens.json").stat().st_mode & 0o777 == 0o600
