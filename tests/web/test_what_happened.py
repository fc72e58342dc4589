"""Issue 25 item 9, what just happened: "since your last turn" in real headless Chromium,
the pawn put down shown as being checked until the referee accepts it, and the last-move
marks of whole simulated games (pure): a mark's "to" always holds the pawn that went
there (a captured pawn's lines stayed on the board) and a nest's "left from" ring is on
an empty hole (it was drawn on an occupied one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import ONE_HUMAN, link, opening_seed, sim_hub

from keezbord.host.referee import colours, nest_seat
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate
from keezbord.host.web.hub import Hub
from keezbord.host.web.marks import last_moves

Serve = Callable[[Callable[[], Hub]], LiveServer]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_last_move_marks_point_at_the_pawns_that_moved(tmp_path: Path, seed: int) -> None:
    game = simulate(4, "standard", seed, max_turns=200)
    session = GameSession.start(tmp_path / "j.db", game.setup)
    checked = moved_on = 0
    seen = 0
    for ev in game.events:
        session.feed(ev)
        session.tick(ev.t)
        st = session.state
        if len(st.history) == seen or not st.at_rest:
            continue
        seen = len(st.history)
        now = colours(st.pos)
        marks = last_moves(st.history, 4, st.sensed)
        for m in marks:
            for hole, pawn in zip(m["to"], m["pawns"], strict=True):
                assert now.get(hole) == pawn, (seed, len(st.history), m)
            for hole in m["from"]:
                if nest_seat(hole) is not None:
                    assert hole not in st.sensed, (seed, len(st.history), m)
            checked += 1
        # Seats that have moved but get no mark: their pawn was captured or moved on.
        moved_on += len({r.seat for r in st.history}) - len(marks)
    assert checked > 100
    assert moved_on > 0  # the games do capture (else this test would show nothing)


pytestmark_browser = pytest.mark.browser


@pytestmark_browser
def test_since_your_last_turn_and_a_pawn_being_checked(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed(0)
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ONE_HUMAN, bot_speed=0.2))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    assert page.is_hidden("#since")  # nothing happened before the first move
    # Every state drawn: was the pawn put down shown as being checked?
    page.evaluate(
        """() => { window.checking = [];
        window.keezbord.onState.push((s) => {
          const g = document.querySelector(".hole[data-hole='T0']");
          if (s.settling && s.settling.length) window.checking.push([
            [...s.settling], g.classList.contains("settling"),
            document.getElementById("instruction-text").textContent]);
        }); }"""
    )
    page.click(f".card[data-card='{card}']")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']", timeout=10000)
    checking = page.evaluate("window.checking")
    assert checking and checking[0] == [["T0"], True, "Checking the move…"], checking
    assert page.locator(".hole[data-hole='T0'].settling").count() == 0  # accepted
    # The pawn left N0.1: the "left from" ring is there, on the empty hole (not N0.4).
    page.wait_for_selector(".hole[data-hole='N0.1'].last-from[data-last-seat='0']")
    assert page.locator(".hole.last-from[data-last-seat='0']").count() == 1
    # The bots play; on red's turn, what they did since red's move, in words.
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s.turn === 0 && s.hand.active && s.history.length >= 2; }""",
        timeout=60000,
    )
    page.wait_for_selector("#since:not([hidden])")
    assert page.inner_text("#since-title") == "Since your last turn"
    said = page.locator("#since-list li").all_inner_texts()
    assert len(said) >= 3
    for name in ("blue", "yellow", "green"):
        assert any(s.startswith(name) for s in said), said
    # Red plays: the box goes (it is for your turn).
    page.click("#lang")
    page.wait_for_selector("#since-title:text-is('Sinds je vorige beurt')")
