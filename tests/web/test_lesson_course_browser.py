"""Issue 40, items 6 and 8 to 11, in headless Chromium in the simulator: the lesson's idea
shown before its first step; the task in its box while the instruction line says the
move's next step; a "next step" button and a word when the course is done; the step
buttons right under the hand, the board in view after a click; the holes a task names
labelled on the board; a wrong verdict with its full stop, gone once the board is put
right."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from test_lessons_browser import new_learner, start_step
from web_helpers import click_hole, sim_hub_at

from keezbord.host.lessons import COURSE, lesson
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def _click(page: Any, *holes: str) -> None:
    for hole in holes:  # each seen back on the page: the next click is read against it
        click_hole(page, hole)


def _english(page: Any, srv: LiveServer) -> None:
    new_learner(page, srv, "Mila")
    page.click("#lang")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


def _sim(serve: Serve, tmp_path: Path) -> LiveServer:
    kinds = ["human", "greedy", "greedy", "greedy"]
    return serve(sim_hub_at(tmp_path / "s.sqlite", 1, [["N"] * 4] * 4, kinds))


def test_a_lesson_says_its_idea_keeps_task_and_steps_and_goes_on(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv = _sim(serve, tmp_path)
    _english(page, srv)
    # Item 9: the course sits right under the hand, and the list follows NL/EN (16).
    order = page.evaluate("() => [...document.querySelectorAll('aside > *')].map(e => e.id)")
    assert order.index("lessons") == order.index("tray") + 1
    assert COURSE[0].id == "game"
    assert page.inner_text("#lesson-list li[data-lesson='game'] span").startswith("How a game runs")
    # Item 6: the idea before the first step.
    seven = lesson("seven")
    start_step(page, seven, 1)
    page.wait_for_selector("#lesson-intro:not([hidden])")
    assert page.inner_text("#lesson-intro") == seven.intro.en
    assert page.inner_text("#lesson-task") == seven.steps[0].task.en
    # Item 10: the holes the task names are labelled on the board.
    for hole in ("T24", "T3"):
        assert page.text_content(f".holelabel[data-for='{hole}']") == hole
    box = page.eval_on_selector("#board", "b => b.getBoundingClientRect().top")
    assert box < page.viewport_size["height"]  # the board is in view
    # Item 8: the task stays in its box, the line says the 7's next step.
    page.click(".card[data-card='7']")
    page.wait_for_selector("#played:not(:empty)")
    _click(page, "T3", "T6")
    page.wait_for_function(
        "() => document.getElementById('instruction-text').textContent.includes('4 steps left')"
    )
    assert page.inner_text("#lesson-task") == seven.steps[0].task.en
    _click(page, "T20", "T24")
    if page.evaluate("window.keezbord.state.held.length"):
        nest = next(f"N1.{k}" for k in range(4, 0, -1))
        _click(page, nest)
    page.wait_for_selector("#lesson-verdict[data-result='right']")
    # Item 9: the next step, one click away.
    page.wait_for_selector("#lesson-next:not([hidden])")
    assert page.inner_text("#lesson-next") == "Next step (step 2)"
    page.click("#lesson-next")
    page.wait_for_function(
        "() => { const l = window.keezbord.state.lesson;"
        " return l && l.id === 'seven' && l.step === 2 && !l.verdict; }"
    )
    assert page.is_hidden("#lesson-intro")  # the idea at the first step only
    shot(page, "lesson-next-step")


def test_a_wrong_verdict_reads_as_sentences_and_goes_when_tried_again_and_the_course_ends(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv = _sim(serve, tmp_path)
    _english(page, srv)
    last = COURSE[-1]
    start_step(page, last, len(last.steps))  # "Other rules", NK: never pass your own pawns
    page.click(".card[data-card='5']")
    page.wait_for_selector("#played:not(:empty)")
    _click(page, "T3", "T8")  # passes red's own pawn on T6
    page.wait_for_selector("#lesson-verdict[data-result='wrong']")
    verdict = page.inner_text("#lesson-verdict")
    assert verdict.startswith("Under the NK rules") and verdict.endswith("(T6). Try again.")
    page.click("#fix")
    page.wait_for_selector("#flag", state="hidden")
    page.wait_for_function("() => !window.keezbord.state.lesson.verdict")  # no stale verdict
    _click(page, "T6", "T11")
    page.wait_for_selector("#lesson-verdict[data-result='right']")
    page.wait_for_selector("#lesson-done:not([hidden])")
    assert page.is_hidden("#lesson-next")
    assert page.inner_text("#lesson-done").startswith("You have done the whole course!")
