"""Issue 26 part 2, done-when, on the simulated board: a browser (real headless Chromium)
takes a new learner through the first three lessons in ``keezbord sim``. The simulated
board shows each step's position at once; the learner taps the step's card on the page's
simulated hand (no card reader) and makes the move on the drawn board by clicking the
pawns, as every simulator move is made; the page confirms it and the course shows the
steps done, kept per learner name in the journal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from test_lessons_browser import new_learner, start_step, wait_lesson_done
from web_helpers import click_hole, sim_hub_at

from keezbord.engine.position import Position
from keezbord.host.lessons import COURSE, Progress
from keezbord.host.lessons.judge import wanted
from keezbord.host.referee import board_of, colours
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_a_new_learner_through_the_first_three_lessons_in_the_simulator(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "s.sqlite"
    kinds = ["human", "greedy", "greedy", "greedy"]
    srv = serve(sim_hub_at(db, 3, [["N"] * 4] * 4, kinds))
    new_learner(page, srv, "Lotte")
    for les in COURSE[:3]:
        for n, st in enumerate(les.steps, 1):
            start_step(page, les, n)
            state = page.evaluate("window.keezbord.state")
            assert state["setup"] is None  # the simulated board shows the position at once
            assert state["hand"]["cards"] == [st.card]  # the step's hand, on the page
            assert page.inner_text("#lesson-task") == st.task.nl
            assert page.get_attribute("#instruction", "data-source") == "lesson"
            before = Position.from_text(st.position)
            on = {p["hole"] for p in state["pawns"]}
            assert on == set(board_of(before))
            after = wanted(st)
            assert st.card is not None and after is not None
            page.click(f".card[data-card='{st.card}']")
            page.wait_for_selector("#played:not(:empty)")
            for hole in _clicks(before, after, on):  # a click on the pawn, then on its hole
                click_hole(page, hole, pace_ms=80)  # seen back before the next is read
            page.wait_for_selector("#lesson-verdict[data-result='right']")
            assert page.inner_text("#lesson-verdict") == st.why.nl
            decided = page.evaluate("window.keezbord.state.decisions")
            assert not [d for d in decided if d["type"] == "illegal"]  # right at once
        wait_lesson_done(page, les)
    shot(page, "lessons-three-done-sim")
    assert "(0/2)" in page.inner_text("#lesson-list li[data-lesson='four']")
    prog = Progress(db)  # kept per learner in the journal
    try:
        done = prog.of("Lotte")
    finally:
        prog.close()
    assert done == {"game": [0, 1], "out": [0, 1, 2], "count": [0, 1]}


def _clicks(before: Position, after: Position, on: set[str]) -> list[str]:
    """The holes a person clicks for a one-pawn move of red (seat 0): a captured pawn
    first to a free hole of its nest, then red's pawn from its hole to its new one."""
    was, now = colours(before), colours(after)
    sensed = set(on)
    out: list[str] = []
    for hole, seat in sorted(was.items()):
        if now.get(hole, seat) != seat:  # captured: to its nest
            nest = next(f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in sensed)
            out += [hole, nest]
            sensed |= {nest}
    src = [h for h, s in was.items() if s == 0 and now.get(h) != 0]
    if not src:  # out of the nest
        src = [max(h for h in sensed if h.startswith("N0."))]
    (dst,) = [h for h, s in now.items() if s == 0 and was.get(h) != 0]
    return [*out, src[0], dst]
