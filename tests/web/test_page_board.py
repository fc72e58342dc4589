"""Issue 13, the board side, in real headless Chromium: undo in the simulator and on a
real board (defect 1), capturing by click (3), restore guidance on the drawn board (14),
the 7 split (10), the last-move marks and the bots' flights (11). Screenshots go to
test-artifacts/web/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from test_run_mode import FakeGpio, nests
from web_helpers import link, opening_seed, options, sim_hub, sim_hub_at

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
EMPTY = ["N", "N", "N", "N"]


def watch_flags(page: Any) -> None:
    """Count every state with a flag the page receives (window.flagsSeen)."""
    page.evaluate(
        """() => { window.flagsSeen = 0;
        window.keezbord.onState.push((s) => { if (s.flag) window.flagsSeen++; }); }"""
    )


def confirm(page: Any) -> None:
    """Take back the move the takeback dialog names."""
    page.wait_for_selector("#takeback[open]")
    page.click("#takeback-yes")


def test_undo_in_the_simulator_puts_the_pawns_back_and_the_bots_play_on(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, _ = opening_seed(0)
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["greedy", "human", "human", "human"]))
    page.goto(link(srv, lang="en"))
    # The bot (red) opens; then it is blue's (a person's) turn.
    page.wait_for_function("window.keezbord.state?.history.length === 1", timeout=20000)
    first = page.evaluate("window.keezbord.state.history[0].move")
    watch_flags(page)
    page.click("#undo")
    confirm(page)
    page.wait_for_function("window.keezbord.state.history.length === 0")
    # The simulated table puts the pawn back and the bot plays again: no flag, no
    # "put the board right".
    page.wait_for_function("window.keezbord.state.history.length === 1", timeout=20000)
    st = page.evaluate("window.keezbord.state")
    assert st["history"][0]["move"] == first
    assert page.evaluate("window.flagsSeen") == 0
    assert len(st["pawns"]) == 16 and st["flag"] is None
    assert st["turn"] == 1


def test_undo_on_a_real_board_names_what_to_put_back(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    gpio = FakeGpio(nests())
    opts = options(tmp_path / "r.sqlite", mode="run")
    setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
    srv = serve(lambda: Hub.open_run(opts, setup, gpio.board))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='N0.1']")
    gpio.set("N0.1", False)
    page.wait_for_selector(".hole[data-hole='T0'][data-led='target']")
    gpio.set("T0", True)
    page.wait_for_selector("#moves li[data-move='A 0:N-S']")
    page.click("#undo")
    confirm(page)
    page.wait_for_selector("#flag:not([hidden])", timeout=10000)
    assert page.inner_text("#flag-reason") == "Taken back: put red's pawn from T0 back in its nest"
    # The hole the words name is labelled on the board, its mark well visible.
    assert page.text_content(".holelabel[data-for='T0']") == "T0"
    size = page.eval_on_selector(
        ".hole[data-hole='T0'] .ledmark", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 12
    shot(page, "board-undo-run")
    page.click("#lang")
    page.wait_for_selector("html[lang='nl']")
    assert page.inner_text("#flag-reason") == (
        "Teruggenomen: zet de pion van rood van T0 terug in zijn nest"
    )
    gpio.set("T0", False)
    gpio.set("N0.1", True)
    page.wait_for_selector("#flag", state="hidden", timeout=10000)


def test_restore_guidance_labels_its_holes_and_offers_both_ways_out(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human"] * 4))
    page.goto(link(srv, lang="en"))
    page.click(f".card[data-card='{card}']")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector(".hole[data-hole='T0'][data-led='target']")
    page.click(".hole[data-hole='T5']")
    page.wait_for_selector("#flag:not([hidden])", timeout=10000)
    guidance = page.inner_text("#flag-guidance")
    assert "put red's pawn from T5 back in its nest" in guidance
    assert "or finish the move: put the pawn from T5 on T0" in guidance
    # Every hole the guidance names by its label carries that label on the board.
    for hole in ("T5", "T0"):
        assert page.text_content(f".holelabel[data-for='{hole}']") == hole
    assert (
        page.eval_on_selector(
            ".hole[data-hole='T5'] .ledmark", "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        >= 12
    )
    shot(page, "board-guidance")
    # The second way out: finish the move on T0.
    page.click(".hole[data-hole='T5']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']", timeout=10000)
    assert page.locator(".holelabel:not(:empty)").count() == 0


def min_opacity(page: Any, selector: str, samples: int = 30) -> float:
    """The lowest opacity of an element over about 1.5 s (every animation frame counts)."""
    return float(
        page.evaluate(
            """async ([sel, n]) => { let lo = 1;
            for (let i = 0; i < n; i++) {
              lo = Math.min(lo, parseFloat(getComputedStyle(document.querySelector(sel)).opacity));
              await new Promise((r) => setTimeout(r, 50)); }
            return lo; }""",
            [selector, samples],
        )
    )


def test_capture_by_click_then_the_victim_home(serve: Serve, page: Any, tmp_path: Path) -> None:
    # Seed 0: red to play with an 8; red on T2, yellow on T10.
    pawns = [["T2", "N", "N", "N"], EMPTY, ["T10", "N", "N", "N"], EMPTY]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 0, pawns))
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='8']")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector(".hole[data-hole='T10'][data-led='target']")
    # T10's light is under yellow's pawn: the drawing rings it and lights its free
    # neighbours, as the board's LEDs do ("around")
    assert page.locator(".hole[data-hole='T10'].covered").count() == 1
    around = page.eval_on_selector_all(
        ".hole[data-led='around']", "es => es.map((e) => e.dataset.hole).sort()"
    )
    assert around == ["T11", "T9"]
    page.click(".hole[data-hole='T10']")  # the lit target: the moving pawn goes down
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s.pawns.some((p) => p.hole === "T10" && p.seat === 0) && s.held.length === 1; }"""
    )
    nest = ".hole[data-led='victim']"
    page.wait_for_selector(nest)
    assert page.evaluate("window.keezbord.state.held") == [2]
    # The "captured pawn goes here" ring never goes dark.
    assert min_opacity(page, f"{nest} .led") > 0.3
    shot(page, "board-capture-victim")
    page.click(nest)
    page.wait_for_selector("#moves li[data-move='8 0:T2-T10']", timeout=10000)
    st = page.evaluate("window.keezbord.state")
    assert st["flag"] is None and not st["held"]
    # The last move is marked: where it left and where it landed, in red.
    assert page.locator(".hole[data-hole='T2'].last-from[data-last-seat='0']").count() == 1
    assert page.locator(".hole[data-hole='T10'].last-to[data-last-seat='0']").count() == 1
    assert st["last_moves"][-1]["from"] == ["T2"] and st["last_moves"][-1]["to"] == ["T10"]


def test_capture_with_the_victim_carried_home_first(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    pawns = [["T2", "N", "N", "N"], EMPTY, ["T10", "N", "N", "N"], EMPTY]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 0, pawns))
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='8']")
    page.click(".hole[data-hole='T10']")  # the victim off first
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='N2.4']")  # ... into its nest
    page.wait_for_function("!window.keezbord.state.held.length")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T10']")
    page.wait_for_selector("#moves li[data-move='8 0:T2-T10']", timeout=10000)
    assert page.evaluate("window.keezbord.state.flag") is None


def test_seven_split_says_the_steps_left_and_lights_the_pawns(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Seed 38: red to play with a 7; red on T2 and T20.
    pawns = [["T2", "T20", "N", "N"], EMPTY, EMPTY, EMPTY]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 38, pawns))
    page.goto(link(srv, lang="en"))
    page.click(".card[data-card='7']")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T5']")  # 3 of the 7 steps
    page.wait_for_selector("#instruction:has-text('4 steps left')", timeout=10000)
    assert page.locator(".hole[data-hole='T20'].split-source").count() == 1
    shot(page, "board-seven-split")
    page.click(".hole[data-hole='T20']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T24']")
    page.wait_for_selector("#moves li[data-move^='7 ']", timeout=10000)
    page.wait_for_selector("#instruction:not(:has-text('steps left'))")


def test_bot_moves_are_marked_and_fly(serve: Serve, page: Any, tmp_path: Path) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human", "greedy", "greedy", "greedy"]))
    page.goto(link(srv, lang="en"))
    page.click(f".card[data-card='{card}']")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']", timeout=10000)
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s.turn === 0 && s.hand.active && s.history.length >= 2; }""",
        timeout=30000,
    )
    st = page.evaluate("window.keezbord.state")
    movers = {h["seat"] for h in st["history"]}
    assert {m["seat"] for m in st["last_moves"]} == movers
    for m in st["last_moves"]:
        for hole in m["to"]:
            sel = f".hole[data-hole='{hole}'].last-to[data-last-seat='{m['seat']}']"
            assert page.locator(sel).count() == 1
    assert page.locator(".lastline.latest").count() >= 1
    # Every bot move flew across the board.
    assert page.evaluate("window.keezbord.flights") >= len(movers - {0})
    shot(page, "board-last-moves")
