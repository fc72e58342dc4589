"""Issue 40, item 13, on the command line: ``puzzles try`` keeps the answer back after a
wrong move (the verdict and its reason, and how to go on); ``puzzles hint`` gives the
card, ``--pawn`` the pawn too; ``puzzles answer`` the move written out with why. With
``--learner`` (the lessons' name) the first-try solves are kept in the journal and
counted: ``try`` says whether a solve is one, ``list`` marks the solved puzzles with
their themes (no other shows a theme) and ends with the count, in Dutch and English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clihelp import run
from puzzle_record import PID, write_puzzle_file


def puzzles(tmp: Path, *args: str) -> Any:
    f = write_puzzle_file(tmp / "mine.jsonl")
    r = run(tmp, "puzzles", *args, "--file", str(f), "--db", str(tmp / "j.sqlite"))
    assert r.returncode == 0, r.stderr
    return r.stdout


def said(tmp: Path, *args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(puzzles(tmp, *args))
    return out


def test_a_wrong_try_then_hints_then_the_answer_then_solved(tmp_path: Path) -> None:
    out = said(tmp_path, "try", PID, "A 1:T22-T23", "--learner", "Ana")
    assert out["outcome"] == "wrong" and "solution" not in out
    text = out["text"]
    assert text.startswith("Not the best move") and text.count("win chance") == 1
    assert "T28" not in text and "capture" not in text
    assert f"keezbord puzzles hint {PID}" in text and f"keezbord puzzles answer {PID}" in text
    assert out["count"] == "Ana: 0 solved at the first try"
    out = said(tmp_path, "hint", PID, "--learner", "Ana", "--lang", "nl")
    assert out == {"id": PID, "hint": 1, "text": "Speel de 6."}
    out = said(tmp_path, "hint", PID, "--pawn", "--learner", "Ana")
    assert out["text"] == "Play the 6, with your pawn on T22."
    out = said(tmp_path, "answer", PID, "--learner", "Ana")
    assert out["solution"] == "6 1:T22-T28"
    assert out["text"].startswith("The answer: The 6: blue T22 → T28")
    out = said(tmp_path, "try", PID, "6 1:T22-T28", "--learner", "Ana", "--lang", "nl")
    assert out["outcome"] == "solved" and out["first_try"] is False
    assert out["text"].startswith("Opgelost met het antwoord erbij: telt niet als")
    assert out["count"] == "Ana: 0 in één keer opgelost"


def test_a_first_try_solve_counted_and_the_list_shows_it(tmp_path: Path) -> None:
    listing = puzzles(tmp_path, "list", "--learner", "Bo")
    assert "capture" not in listing and listing.endswith("Bo: 0 solved at the first try\n")
    out = said(tmp_path, "try", PID, "6 1:T22-T28", "--learner", "Bo")
    assert out["first_try"] is True and out["first_tries"] == 1
    assert out["text"].startswith("Solved at the first try! The 6: blue T22 → T28")
    listing = puzzles(tmp_path, "list", "--learner", "Bo", "--lang", "nl")
    (line, count) = listing.splitlines()
    assert line.startswith(PID) and line.endswith("✓ in één keer (slaan)")
    assert count == "Bo: 1 in één keer opgelost"
    (d,) = map(json.loads, puzzles(tmp_path, "list", "--json", "--learner", "Bo").splitlines())
    assert d["solved"] is True and d["first_try"] is True and d["themes"] == ["capture"]
    # A hint first (another learner): solved, not a first-try solve, not counted.
    said(tmp_path, "hint", PID, "--learner", "Cas")
    out = said(tmp_path, "try", PID, "6 1:T22-T28", "--learner", "Cas")
    assert out["first_try"] is False and out["first_tries"] == 0
    assert out["text"].startswith("Solved after a hint: not a first-try solve.")
    assert "✓ (capture)" in puzzles(tmp_path, "list", "--learner", "Cas")
    # Without a name nothing is kept: the judge's own words.
    out = said(tmp_path, "try", PID, "6 1:T22-T28")
    assert out["text"].startswith("Solved!") and "first_try" not in out
    assert "capture" not in puzzles(tmp_path, "list")
