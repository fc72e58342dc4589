"""``keezbord analyse`` (issue 27): a trace or a journal's game judged decision by
decision, one JSON object a line; the same labels for the same seed; a progress bar on a
terminal only; the analysis kept in the journal and the export's move list annotated;
bad input in one line, exit 2."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from clihelp import assert_one_line_error, exe, run, sealed_env

from keezbord.host.analysis.parallel import PER_WORKER
from keezbord.host.referee import trace_lines
from keezbord.host.sim.games import into_journal, simulate

FAST = ("--playouts", "4")


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sim = simulate(4, "standard", 2, max_turns=2000)
    path = tmp_path_factory.mktemp("trace") / "game.jsonl"
    path.write_text("\n".join(trace_lines(sim.setup, sim.events)) + "\n")
    return path


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_a_trace_analysed_as_json_lines(trace: Path, tmp_path: Path) -> None:
    # Four analyses of the same trace, side by side (separate processes: the cores' worth).
    asked = [
        ("--json", "--seed", "3"),
        ("--json", "--seed", "3"),
        ("--json", "--seed", "4"),
        ("--seed", "3", "--lang", "nl"),
    ]
    with ThreadPoolExecutor(len(asked)) as pool:
        r, again, other, text = pool.map(
            lambda a: run(tmp_path, "analyse", str(trace), *FAST, *a, timeout=300), asked
        )
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # no progress bar off a terminal
    rows = lines(r.stdout)
    *body, summary = rows
    assert summary["type"] == "summary" and summary["game"] is None
    decisions = [d for d in body if d["type"] == "decision"]
    discards = [d for d in body if d["type"] == "discard"]
    assert decisions and discards and len(decisions) + len(discards) == len(body)
    for d in decisions:
        assert {"seat", "card", "move", "win", "best", "loss", "label"} <= set(d)
        assert str(d["move"]).split()[0] == d["card"]
        assert 0 <= float(d["win"]) <= 1 and set(d["best"]) == {"move", "win", "words"}
        assert d["label"] in (None, "inaccuracy", "mistake", "blunder")
        assert float(d["loss"]) >= 0
    # The round the game was won in ended early: those hands are only partly known.
    assert any(not d["hand_known"] for d in decisions)
    assert summary["decisions"] == len(decisions) and summary["discards"] == len(discards)
    players = summary["players"]
    assert [p["seat"] for p in players] == [0, 1, 2, 3]
    for team in summary["teams"]:
        assert abs(team["own"] + team["cards"] + team["others"] - team["swing"]) < 2e-3
    # The same seed, the same labels; another seed judges anew.
    assert again.stdout == r.stdout
    assert other.returncode == 0 and other.stdout != r.stdout
    # In words, Dutch.
    assert text.returncode == 0, text.stderr
    assert "nauwkeurigheid" in text.stdout and "eigen keuzes" in text.stdout


def _journal(tmp: Path) -> Path:
    db = tmp / "j.sqlite"
    into_journal(db, 5, ["human", "random", "human", "random"])
    return db


def test_a_journal_game_kept_and_annotated_in_the_export(tmp_path: Path) -> None:
    db = _journal(tmp_path)
    r = run(tmp_path, "analyse", "--db", str(db), "--game", "1", "--json", *FAST, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = lines(r.stdout)
    assert rows[-1]["game"] == 1
    decisions = [d for d in rows if d["type"] == "decision"]
    assert all(d["hand_known"] for d in decisions)  # the simulator's hands: all known
    labelled = [d for d in decisions if d["label"]]
    assert labelled and all(d["comment"] for d in labelled)
    out = tmp_path / "g.jsonl"
    r = run(tmp_path, "journal", "export", "--db", str(db), "--game", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    moves = (tmp_path / "g.jsonl.moves.txt").read_text().splitlines()
    marks = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for d in labelled:
        line = moves[int(d["n"]) - 1]
        assert line.startswith(f"{d['n']}. seat {d['seat']}: {d['move']} {marks[str(d['label'])]}")
        assert "{nl: " in line and "{en: " in line and str(d["comment"]) in line
    plain = [m for m in moves if not m.rstrip().endswith(("?", "}"))]
    assert len(plain) == len(moves) - len(labelled)
    # The exported game analysed as a trace: the same decisions, the hands rebuilt from
    # the cards tapped and shown (the round the game was won in only partly known).
    r = run(tmp_path, "analyse", str(out), "--json", *FAST, timeout=300)
    assert r.returncode == 0, r.stderr
    again = [d for d in lines(r.stdout) if d["type"] == "decision"]
    assert [d["move"] for d in again] == [d["move"] for d in decisions]
    known = [a for a in again if a["hand_known"]]
    assert known and len(known) < len(again)
    assert all(
        sorted(a["hand"]) == sorted(d["hand"])
        for a, d in zip(again, decisions, strict=True)
        if a["hand_known"]
    )
    # --no-save keeps the journal as it was; the latest game by default.
    r = run(tmp_path, "analyse", "--db", str(db), "--json", "--no-save", *FAST, timeout=300)
    assert r.returncode == 0 and lines(r.stdout)[-1]["game"] == 1


def test_two_processes_give_the_same_rows_as_one(trace: Path, tmp_path: Path) -> None:
    one = run(tmp_path, "analyse", str(trace), "--json", *FAST, "--jobs", "1", timeout=300)
    assert one.returncode == 0, one.stderr
    decisions = [d for d in lines(one.stdout) if d["type"] == "decision"]
    assert len(decisions) >= 2 * PER_WORKER  # enough for two workers to start
    two = run(tmp_path, "analyse", str(trace), "--json", *FAST, "--jobs", "2", timeout=300)
    assert two.returncode == 0 and two.stderr == ""
    assert two.stdout == one.stdout


def test_a_progress_bar_on_a_terminal(trace: Path, tmp_path: Path) -> None:
    master, slave = pty.openpty()
    try:
        p = subprocess.run(
            [*exe(), "analyse", str(trace), "--json", *FAST],
            stdout=subprocess.PIPE,
            stderr=slave,
            env=sealed_env(tmp_path),
            cwd=tmp_path,
            timeout=300,
            check=False,
        )
        os.close(slave)
        slave = -1
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert p.returncode == 0
    text = seen.decode()
    assert "analyse [" in text and "#" in text and " to go" in text
    assert json.loads(p.stdout.splitlines()[-1])["type"] == "summary"  # stdout stays clean


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["missing.jsonl"], "no such trace"),
        (["bad.jsonl"], "bad.jsonl"),
        (["--db", "j.sqlite"], "no such journal"),
        (["--playouts", "0", "bad.jsonl"], "--playouts"),
        (["--budget-ms", "-1", "empty.jsonl"], "--budget-ms"),
        (["empty.jsonl"], "no move was played"),
        (["empty.jsonl", "--game", "2"], "not both"),
        (["--lang", "fr", "empty.jsonl"], "--lang"),
        (["--jobs", "0", "empty.jsonl"], "--jobs"),
        (["--jobs", "-3", "empty.jsonl"], "--jobs"),
        (["--jobs", "65", "empty.jsonl"], "--jobs"),
        (["--jobs", "two", "empty.jsonl"], "--jobs"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"type": "setup", "seats": 4}\n{"t": "x"}\n')
    (tmp_path / "empty.jsonl").write_text('{"type": "setup", "seats": 4, "dealer": 3}\n')
    assert_one_line_error(run(tmp_path, "analyse", *args), words)


def test_a_missing_journal_game_is_one_line(tmp_path: Path) -> None:
    db = _journal(tmp_path)
    assert_one_line_error(run(tmp_path, "analyse", "--db", str(db), "--game", "7"), "no game 7")
