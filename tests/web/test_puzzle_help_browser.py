"""Issue 40, item 13, done-when, in real headless Chromium on the simulator's page: a
newcomer gives their name, opens a puzzle, answers wrong and sees the verdict and its
reason but no solution written or lit; asks a hint (the card), another (the pawn, lit),
then the answer (written out and lit), and solves it: "not a first-try solve", nothing
counted. Another learner solves it at the first try: counted, and the list then shows
the count and, for that puzzle only, its theme (which it kept to itself before)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from puzzle_record import PID, write_puzzle_file
from web_helpers import link, sim_hub_at

from keezbord.host.lessons import Progress
from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def _learner(page: Any, name: str) -> None:
    page.fill("#learner-form input[name=learner]", name)
    page.click("#learner-form button[type=submit]")
    page.wait_for_function(
        f"() => document.getElementById('puzzle-count').textContent.includes('{name}: ')"
    )


def _open(page: Any) -> None:
    page.click(f"#puzzle-list button[data-puzzle='{PID}']")
    page.wait_for_function(
        "() => { const p = window.keezbord.state.puzzle;"
        " return p && !p.done && !p.verdict && window.keezbord.state.turn === 1; }"
    )
    page.wait_for_selector("#puzzle:not([hidden])")


def _has(hole: str) -> str:
    return f"window.keezbord.state.pawns.some(p => p.hole === '{hole}')"


def _move(page: Any, card: str, holes: list[str]) -> None:
    """Tap the card on the simulated hand, then click each pawn and the hole it goes to
    (as a person does on the drawn board), each click seen by the board before the next."""
    page.click(f"#cards .card[data-card='{card}']")
    page.wait_for_function(f"() => window.keezbord.state.card === '{card}'")
    for lift, place in zip(holes[::2], holes[1::2], strict=True):
        page.click(f".hole[data-hole='{lift}']")
        page.wait_for_function(f"() => window.keezbord.state.held.length > 0 || !{_has(lift)}")
        page.click(f".hole[data-hole='{place}']")
        page.wait_for_function(f"() => window.keezbord.state.held.length === 0 && {_has(place)}")


def _solve(page: Any) -> None:
    nest = page.evaluate(
        "() => ['N2.1', 'N2.2', 'N2.3', 'N2.4'].find(h =>"
        " !window.keezbord.state.pawns.some(p => p.hole === h))"
    )
    _move(page, "6", ["T28", nest, "T22", "T28"])
    page.wait_for_selector("#puzzle-verdict[data-outcome='solved']")


def _lit(page: Any) -> list[str]:
    got: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#board .hole[data-led=\"hint\"]')]"
        ".map(h => h.dataset.hole).sort()"
    )
    return got


def test_a_wrong_answer_a_hint_the_answer_and_a_first_try_counted(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "s.sqlite"
    write_puzzle_file(tmp_path / "puzzles.jsonl")
    srv = serve(sim_hub_at(db, 1, [["N"] * 4] * 4, ["human"] * 4))
    page.goto(link(srv, Role.PLAYER, lang="en"))
    page.wait_for_selector(f"#puzzle-list li[data-puzzle='{PID}']")
    _learner(page, "Ana")
    assert "Ana: 0 solved at the first try" in page.inner_text("#puzzle-count")
    listed = page.inner_text("#puzzle-list")
    assert "capture" not in listed and "jack" not in listed  # no theme gives it away
    _open(page)
    assert page.is_hidden("#puzzle-show")  # the answer: first the solver's own go
    # Wrong: the ace one step on. The verdict and its reason; nothing of the answer.
    _move(page, "A", ["T22", "T23"])
    page.wait_for_selector("#puzzle-verdict[data-outcome='wrong']")
    said = page.inner_text("#puzzle-verdict")
    assert said.startswith("Not the best move") and said.endswith("Try again, or ask for a hint.")
    assert said.count("win chance") == 1 and "T28" not in said and "capture" not in said
    page.wait_for_function(  # the simulated table puts the pawn back: tried again
        f"() => !window.keezbord.state.flag && {_has('T22')} && !{_has('T23')}"
    )
    assert _lit(page) == [] and page.is_hidden("#puzzle-answer")
    shot(page, "puzzle-help-1-wrong")
    # A hint: the card. Another: the pawn, lit on the drawing.
    page.click("#puzzle-hint")
    page.wait_for_function("() => document.querySelectorAll('#puzzle-hints li').length === 1")
    assert page.inner_text("#puzzle-hints") == "Play the 6."
    assert page.inner_text("#puzzle-hint") == "Another hint" and _lit(page) == []
    page.click("#puzzle-hint")
    page.wait_for_selector("#board .hole[data-hole='T22'][data-led='hint']")
    assert page.inner_text("#puzzle-hints li:nth-child(2)") == (
        "Play the 6, with your pawn on T22."
    )
    assert page.is_hidden("#puzzle-hint") and _lit(page) == ["T22"]
    assert page.inner_text("#puzzle-verdict").endswith("after the best one. Try again.")
    shot(page, "puzzle-help-2-hints")
    # The answer, asked for: written out and lit.
    page.click("#puzzle-show")
    page.wait_for_selector("#puzzle-answer:not([hidden])")
    assert page.inner_text("#puzzle-answer").startswith("The answer: The 6: blue T22 → T28")
    page.wait_for_selector("#board .hole[data-hole='T28'][data-led='hint']")
    assert {"T22", "T28"} <= set(_lit(page))
    shot(page, "puzzle-help-3-answer")
    _solve(page)
    assert page.inner_text("#puzzle-verdict").startswith(
        "Solved with the answer shown: not a first-try solve."
    )
    assert page.inner_text("#puzzle-score") == "Ana: 0 solved at the first try"
    page.wait_for_selector(f"#puzzle-list li[data-puzzle='{PID}'][data-solved='yes']")
    assert "(capture)" in page.inner_text(f"#puzzle-list li[data-puzzle='{PID}']")
    # Another learner, the right move at once: a first-try solve, counted.
    _learner(page, "Bo")
    assert "Bo: 0 solved at the first try" in page.inner_text("#puzzle-count")
    assert "capture" not in page.inner_text("#puzzle-list")  # Bo has not solved it
    _open(page)
    _solve(page)
    assert page.inner_text("#puzzle-verdict").startswith("Solved at the first try!")
    assert page.inner_text("#puzzle-score") == "Bo: 1 solved at the first try"
    page.wait_for_selector(f"#puzzle-list li[data-puzzle='{PID}'][data-solved='first-try']")
    assert "Bo: 1 solved at the first try" in page.inner_text("#puzzle-count")
    assert "✓ first try (capture)" in page.inner_text(f"#puzzle-list li[data-puzzle='{PID}']")
    shot(page, "puzzle-help-4-first-try")
    # In Dutch too (the NL/EN button).
    page.click("#lang")
    page.wait_for_function(
        "() => document.getElementById('puzzle-count').textContent"
        ".includes('Bo: 1 in één keer opgelost')"
    )
    assert page.inner_text("#puzzle-verdict").startswith("In één keer opgelost!")
    assert "✓ in één keer (slaan)" in page.inner_text(f"#puzzle-list li[data-puzzle='{PID}']")
    with Progress(db) as prog:
        assert prog.first_tries("Ana") == 0 and prog.first_tries("Bo") == 1
