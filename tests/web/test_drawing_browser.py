"""Issue 40, items 1 to 5, in headless Chromium: the clicks a newcomer made in the
simulator that left the pawns drawn and the referee's reading of them apart. Each ends
with the drawing and the referee agreeing: the flag says the rule (the engine's explain),
its guidance and "put the board right" restore the board that is drawn."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from test_lessons_browser import new_learner, start_step
from web_helpers import click_hole, link, sim_hub_at

from keezbord.engine.position import Position
from keezbord.host.lessons import lesson
from keezbord.host.referee import colours
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
KINDS = ["human", "greedy", "greedy", "greedy"]
N = ["N", "N", "N", "N"]


def _drawn(page: Any) -> dict[str, int]:
    """Track and home holes -> the seat drawn there."""
    pawns = page.evaluate("window.keezbord.state.pawns")
    return {p["hole"]: p["seat"] for p in pawns if p["hole"][0] != "N"}


def _click(page: Any, *holes: str) -> None:
    for hole in holes:  # each seen back on the page: the next click is read against it
        click_hole(page, hole)


def _flag(page: Any) -> tuple[str, list[str]]:
    page.wait_for_selector("#flag:not([hidden])", timeout=10000)
    return page.inner_text("#flag-reason"), page.locator("#flag-guidance li").all_inner_texts()


def _put_right(page: Any) -> None:
    page.click("#fix")
    page.wait_for_selector("#flag", state="hidden", timeout=10000)


def _lesson(page: Any, srv: LiveServer, lesson_id: str, n: int) -> None:
    new_learner(page, srv, "Sam")
    page.click("#lang")  # English: the words below are the English ones
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    start_step(page, lesson(lesson_id), n)


def _sim(
    serve: Serve, tmp_path: Path, seed: int = 1, pawns: list[list[str]] | None = None
) -> LiveServer:
    return serve(sim_hub_at(tmp_path / "s.sqlite", seed, pawns or [N] * 4, KINDS))


def test_a_capture_by_hand_in_a_7_is_put_back_as_drawn(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Item 1: "Splitting the 7", step 2: red T10 picks blue up off T15, carries it to its
    # nest and lands on T15: 5 of the 7. The reason is the rule, the guidance restores
    # the drawn board (it said "blue's pawn from N1.4 back on T10", blue having been on T15).
    srv = _sim(serve, tmp_path)
    _lesson(page, srv, "seven", 2)
    page.click(".card[data-card='7']")
    page.wait_for_selector("#played:not(:empty)")
    _click(page, "T10", "T15")
    if page.evaluate("window.keezbord.state.held.length") == 2:
        _click(page, "N1.4", "T15")  # blue in hand: home first, then red down
    else:
        _click(page, "N1.4")  # the page took it as a capture: red down, blue home
    reason, guidance = _flag(page)
    assert "7 must be used in full" in reason and "5" in reason
    assert guidance == [
        "put red's pawn from T15 back on T10",
        "put blue's pawn from its nest back on T15",
    ]
    page.wait_for_selector("#lesson-verdict[data-result='wrong']")
    shot(page, "drawing-seven-capture-by-hand")
    _put_right(page)
    assert _drawn(page) == {"T10": 0, "T15": 1}


def test_a_jack_swap_with_a_protected_pawn_is_judged(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Item 2: "The jack swaps", step 2: both pawns in hand, put down swapped: the switches
    # read the board as before, the drawing shows the swap. Now the rule is said.
    srv = _sim(serve, tmp_path)
    _lesson(page, srv, "jack", 2)
    page.click(".card[data-card='J']")
    page.wait_for_selector("#played:not(:empty)")
    _click(page, "T5", "T16", "T5", "T16")
    assert _drawn(page) == {"T16": 0, "T5": 1, "T30": 1}
    reason, guidance = _flag(page)
    assert "start hole T16" in reason and "safe" in reason
    assert guidance
    page.wait_for_selector("#lesson-verdict[data-result='wrong']")
    _put_right(page)
    assert _drawn(page) == {"T5": 0, "T16": 1, "T30": 1}
    page.wait_for_function("() => !window.keezbord.state.flag")


def test_a_jacks_second_pawn_is_lit_and_a_swap_undone_is_no_swap(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Item 3: "The jack swaps", step 1: tap J, click T5, click the lit T60 (red lands,
    # blue in hand): T5 is where blue goes, lit; T60 is not. Then T60 again and T5: the
    # drawing swaps them back, and the lesson must not say "Well done!".
    srv = _sim(serve, tmp_path)
    _lesson(page, srv, "jack", 1)
    page.click(".card[data-card='J']")
    page.wait_for_selector("#played:not(:empty)")
    _click(page, "T5", "T60")
    leds = page.evaluate("window.keezbord.state.leds")
    assert leds.get("T5") == "target" and leds.get("T60") != "target"
    assert "T5" in page.inner_text("#instruction")
    _click(page, "T60", "T5")  # red back on T5; blue in hand
    _click(page, "T60")  # blue back on T60: the pawns stand as before
    assert _drawn(page) == {"T5": 0, "T60": 1}
    page.wait_for_timeout(3500)  # past the referee's settle time
    verdict = page.evaluate("window.keezbord.state.lesson.verdict")
    assert verdict is None or verdict["result"] != "right"
    assert _drawn(page) == {"T5": 0, "T60": 1}
    # The swap itself, then, is right.
    if page.evaluate("!!window.keezbord.state.flag"):
        _put_right(page)
    if not page.evaluate("window.keezbord.state.card"):
        page.click(".card[data-card='J']")
    _click(page, "T5", "T60", "T5")
    page.wait_for_selector("#lesson-verdict[data-result='right']", timeout=10000)
    moves = page.evaluate(
        "window.keezbord.state.decisions.filter((d) => d.type === 'move' && d.seat === 0)"
        ".map((d) => d.move)"
    )
    assert moves[-1] == "J 0:T5<>1:T60"  # (the bots play on at once: the board moves)


def _five_seed() -> int:
    from keezbord.engine.game import Game

    return next(s for s in range(200) if "5" in Game(4, "standard", s).hands[0])


def test_an_own_pawn_put_on_the_lit_nest_is_put_right(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Item 4: a capture on offer; the player lifts its pawn and clicks the victim's lit
    # nest: no holes, no guidance, and "put the board right" did nothing.
    srv = _sim(serve, tmp_path, _five_seed(), [["T3", "N", "N", "N"], ["T8", "N", "N", "N"], N, N])
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='5']")
    _click(page, "T3")
    nest = page.evaluate(
        "Object.entries(window.keezbord.state.leds).find(([h, r]) => r === 'victim')[0]"
    )
    _click(page, nest)
    reason, guidance = _flag(page)
    assert reason == "a red pawn stands in blue's nest: a pawn only goes to its own nest"
    assert guidance == ["put red's pawn from blue's nest back on T3"]
    _put_right(page)
    assert _drawn(page) == {"T3": 0, "T8": 1}


def test_capturing_ones_own_pawn_says_where_it_goes(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Item 5: red's pawn on T3 lands on red's own pawn on T8: the captured pawn is in
    # hand; the line said "click a lit hole" and T8 stayed lit.
    srv = _sim(serve, tmp_path, _five_seed(), [["T3", "T8", "N", "N"], N, N, N])
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='5']")
    _click(page, "T3", "T8")
    page.wait_for_function("() => window.keezbord.state.held.length === 1")
    assert page.inner_text("#instruction").startswith("Put red's pawn back in its nest")
    leds = page.evaluate("window.keezbord.state.leds")
    assert leds.get("T8") != "target"
    nest = next(h for h, r in leds.items() if r == "victim")
    _click(page, nest)
    page.wait_for_function("() => window.keezbord.state.turn !== 0", timeout=10000)
    assert not page.evaluate("window.keezbord.state.flag")


RANDOM_WALK = """([seed, n]) => {
  // A seeded walk of clicks on the drawn board: pawns, lit holes and nests.
  let x = seed;
  const rnd = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const st = window.keezbord.state;
  const pawns = st.pawns.map((p) => p.hole).filter((h) => h[0] !== 'N');
  const lit = Object.keys(st.leds).filter((h) => st.leds[h] && st.leds[h] !== 'turn');
  const nests = [0, 1, 2, 3].flatMap((s) => [1, 2, 3, 4].map((k) => `N${s}.${k}`));
  const pool = [...pawns, ...pawns, ...lit, ...lit, ...nests];
  return Array.from({ length: n }, () => pool[Math.floor(rnd() * pool.length)]);
}"""


@pytest.mark.parametrize(("lesson_id", "step", "card"), [("jack", 2, "J"), ("seven", 1, "7")])
def test_random_clicks_in_the_browser_end_with_drawing_and_referee_agreeing(
    serve: Serve, page: Any, tmp_path: Path, lesson_id: str, step: int, card: str
) -> None:
    # The property test's walk (test_drawing_agrees.py) done with real clicks, a few.
    srv = _sim(serve, tmp_path)
    _lesson(page, srv, lesson_id, step)
    page.click(f".card[data-card='{card}']")
    page.wait_for_selector("#played:not(:empty)")
    for seed in (3, 11):
        for hole in page.evaluate(RANDOM_WALK, [seed, 6]):
            if page.evaluate("window.keezbord.state.turn") != 0:
                return  # a move was made: the bots play on
            _click(page, hole)
    while page.evaluate("window.keezbord.state.held.length"):  # everything down
        free = page.evaluate(
            "() => ['N0','N1','N2','N3'].flatMap((n) => [1,2,3,4].map((k) => n + '.' + k))"
            ".filter((h) => !window.keezbord.state.pawns.some((p) => p.hole === h))"
        )
        _click(page, free[0])
    # The referee's reading once the board settled (a move, a flag, or the board as it
    # was): no pawns left "being checked". A pause past the settle time was no bound on
    # when it reaches the page on a loaded machine.
    page.wait_for_function("() => !window.keezbord.state.settling.length", timeout=10000)
    if page.evaluate("window.keezbord.state.turn") != 0:
        return
    if page.evaluate("!!window.keezbord.state.flag"):
        _put_right(page)
    want = Position.from_text(lesson(lesson_id).steps[step - 1].position)
    assert _drawn(page) == colours(want)


def _lit(page: Any) -> dict[str, str]:
    leds = page.evaluate("window.keezbord.state.leds")
    return {h: r for h, r in leds.items() if r != "turn"}


def test_the_lights_show_the_drawn_boards_way_back(serve: Serve, page: Any, tmp_path: Path) -> None:
    # The jack swapped with a protected pawn (item 2): the referee reads the board as
    # before and lit red's jack moves from T5 (blue is drawn there). The lights now follow
    # the drawing's way back, one pawn at a time, and following them puts the board right.
    srv = _sim(serve, tmp_path)
    _lesson(page, srv, "jack", 2)
    page.click(".card[data-card='J']")
    page.wait_for_selector("#played:not(:empty)")
    _click(page, "T5", "T16", "T5", "T16")
    _flag(page)
    page.wait_for_function("() => window.keezbord.state.leds['T5'] === 'error'")
    lit = _lit(page)
    assert lit.pop("T5") == "error"  # blue, drawn on T5: back to its nest first
    assert list(lit.values()) == ["restore"] and next(iter(lit)).startswith("N1.")
    shot(page, "drawing-lights-way-back")
    for _ in range(8):
        lit = _lit(page)
        if not page.evaluate("!!window.keezbord.state.flag") or set(lit) == {"T5", "T16"}:
            break  # put right, or right but read otherwise (then: "put the board right")
        assert set(lit.values()) <= {"error", "restore"}, lit
        held = page.evaluate("window.keezbord.state.held.length")
        want = "restore" if held else "error"
        _click(page, next(h for h, r in lit.items() if r == want))
        page.wait_for_function(
            "(n) => window.keezbord.state.held.length !== n", arg=held, timeout=10000
        )
    if page.evaluate("!!window.keezbord.state.flag"):
        _put_right(page)
    assert _drawn(page) == {"T5": 0, "T16": 1, "T30": 1}
