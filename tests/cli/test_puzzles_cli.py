"""``keezbord puzzles`` (issue 26 part 3): the shipped set listed as one JSON object a
line, its solutions exactly as ``keezbord moves`` writes them; mining a journal's game
into the club's file beside the journal; trying a move; bad input in one line, exit 2."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from clihelp import assert_one_line_error, run

from keezbord.engine.movegen import successor_positions
from keezbord.engine.position import Position
from keezbord.engine.themes import THEMES
from keezbord.host.sim.games import into_journal

FAST = ("--budgets", "12,24", "--screen", "10")


def listed(tmp: Path, *args: str) -> list[dict[str, object]]:
    r = run(tmp, "puzzles", "list", "--json", *args)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_the_shipped_set_is_listed_with_solutions_as_moves_writes_them(tmp_path: Path) -> None:
    puzzles = listed(tmp_path)
    assert len(puzzles) >= 60
    themes = Counter(t for p in puzzles for t in p["themes"])  # type: ignore[attr-defined]
    assert len(themes) >= 4 and set(themes) <= set(THEMES)
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    for p in puzzles:
        assert set(p) >= {"id", "position", "hand", "card", "solution", "known", "themes"}
        assert isinstance(p["position"], str) and "\n" not in p["position"]
        pos = Position.from_text(p["position"])
        assert pos.to_text() == p["position"]
        assert p["card"] in p["hand"] and p["themes"]  # type: ignore[operator]
        written = {str(m) for m in successor_positions(pos, str(p["card"])).values()}
        assert p["solution"] in written
    # And as the command itself prints them, for a few.
    for p in puzzles[:3]:
        r = run(tmp_path, "moves", "--card", str(p["card"]), str(p["position"]))
        assert r.returncode == 0, r.stderr
        assert p["solution"] in [m["move"] for m in json.loads(r.stdout)["moves"]]
    jack = listed(tmp_path, "--theme", "jack")
    assert jack and all("jack" in p["themes"] for p in jack)  # type: ignore[operator]
    r = run(tmp_path, "puzzles", "list", "--lang", "nl")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == len(puzzles)
    assert "slaan" not in r.stdout  # no theme before it is solved (test_puzzle_help_cli.py)


def test_trying_a_move(tmp_path: Path) -> None:
    p = listed(tmp_path)[0]
    r = run(tmp_path, "puzzles", "try", str(p["id"]), str(p["solution"]), "--lang", "nl")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["outcome"] == "solved" and out["text"].startswith("Opgelost!")
    assert out["id"] == p["id"]
    r = run(tmp_path, "puzzles", "try", str(p["id"]), str(p["second"]), "--playouts", "40")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["outcome"] in ("wrong", "good")
    if out["outcome"] == "wrong":  # the answer kept back (puzzles hint, puzzles answer)
        assert out["text"].startswith("Not the best move") and "solution" not in out
    else:
        assert out["solution"] == p["solution"]


def _journal_with_a_game(tmp: Path) -> Path:
    db = tmp / "club.sqlite"
    into_journal(db, 7, ["human"] * 4)
    return db


def test_mining_the_journals_games_into_the_clubs_file(tmp_path: Path) -> None:
    db = _journal_with_a_game(tmp_path)
    r = run(tmp_path, "puzzles", "mine", "--db", str(db), *FAST, "--limit", "2", timeout=300)
    assert r.returncode == 0, r.stderr
    club = tmp_path / "puzzles.jsonl"
    assert r.stdout.strip() == f"2 puzzles found, 2 new -> {club}"
    mined = [json.loads(line) for line in club.read_text().splitlines()]
    assert len(mined) == 2 and all(str(p["source"]).startswith("game 1, turn ") for p in mined)
    everything = listed(tmp_path, "--db", str(db))
    assert [p for p in everything if p["id"] in {m["id"] for m in mined}] == mined
    assert len(listed(tmp_path, "--db", str(db), "--shipped")) == len(everything) - 2
    # Mined again: nothing new.
    r = run(tmp_path, "puzzles", "mine", "--db", str(db), *FAST, "--limit", "2", timeout=300)
    assert r.stdout.strip() == f"2 puzzles found, 0 new -> {club}"


def test_self_play_mined_to_standard_output(tmp_path: Path) -> None:
    r = run(
        tmp_path,
        *("puzzles", "mine", "--no-journal", "--selfplay", "1", "--seed", "4", "--limit", "1"),
        *FAST,
        "--out",
        "-",
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    (line,) = r.stdout.splitlines()
    p = json.loads(line)
    assert p["source"].startswith("selfplay 4 seats standard seed 4, turn ")
    assert r.stderr == ""  # no progress bar off a terminal


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["mine", "--budgets", "100"], "two budgets"),
        (["mine", "--budgets", "a,b"], "not playouts"),
        (["mine", "--margin", "2"], "between 0 and 1"),
        (["mine", "--bot", "clever"], "--bot"),
        (["mine", "--db", "nowhere/j.sqlite"], "does not exist"),
        (["mine", "--db", "j.sqlite"], "no such journal"),
        (["mine", "--no-journal"], "--selfplay"),
        (["list", "--file", "missing.jsonl"], "no such puzzle file"),
        (["list", "--file", "bad.jsonl"], "bad.jsonl line 2"),
        (["try", "kz-nothing", "5 0:T9-T14"], "no puzzle"),
        (["hint", "kz-nothing"], "no puzzle"),
        (["answer", "kz-nothing"], "no puzzle"),
        (["list", "--learner", " "], "--learner"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text("\n{not json\n")
    assert_one_line_error(run(tmp_path, "puzzles", *args), words)


def test_an_illegal_or_malformed_move_is_one_line(tmp_path: Path) -> None:
    p = listed(tmp_path)[0]
    assert_one_line_error(run(tmp_path, "puzzles", "try", str(p["id"]), "Q 0:T1-T2"))
    assert_one_line_error(run(tmp_path, "puzzles", "try", str(p["id"]), "what"))
