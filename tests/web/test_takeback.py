"""Issue 25 item 4, the takeback, in real headless Chromium: the dialog names the move
it takes back and follows the game, the bots wait while it is open, your own move can
be taken back in one go when a bot moved after it, and the moves taken back are struck
through in the move list with no move number shown twice. (The websocket's refusals:
test_takeback_socket below.)"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from test_page_panels_sim import play_opening
from web_helpers import ONE_HUMAN, link, opening_seed, options, sim_hub, ws_path

from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

Serve = Callable[[Callable[[], Hub]], LiveServer]


def numbers(page: Any) -> list[int]:
    """The move numbers the move list shows."""
    return [
        int(x)
        for x in page.locator("#moves li.move:not(.undone)").evaluate_all(
            "els => els.map((e) => e.dataset.n)"
        )
    ]


@pytest.mark.browser
def test_the_dialog_names_the_move_and_the_bots_wait_while_it_is_open(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed(0)
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ONE_HUMAN, bot_speed=1.0, think_ms=600))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    play_opening(page, card)
    # Blue (a bot) thinks 0.6 s: the referee opens the dialog meanwhile.
    page.click("#undo")
    page.wait_for_selector("#takeback[open]")
    text = page.inner_text("#takeback-text")
    assert text.startswith("Take back move 1: red plays") and text.endswith("?"), text
    assert page.inner_text("#takeback-yes") == "Take back move 1"
    page.wait_for_selector(
        "#instruction:has-text('The referee is taking back a move: the bots wait')"
    )
    before = page.evaluate("window.keezbord.state.history.length")
    time.sleep(3)  # 5 bot think times: no bot plays while the dialog is open
    assert page.evaluate("window.keezbord.state.history.length") == before == 1
    assert page.evaluate("window.keezbord.state.bot_busy") in (None, 1)
    page.click("#takeback-yes")
    page.wait_for_function("window.keezbord.state.history.length === 0", timeout=10000)
    st = page.evaluate("window.keezbord.state")
    assert st["turn"] == 0 and st["flag"] is None and len(st["pawns"]) == 16
    # Struck through, without its number.
    page.wait_for_selector("#moves li.move.undone")
    assert page.locator("#moves li.move.undone .n").inner_text() == ""
    assert page.locator("#moves li.move.undone s").count() == 1
    assert numbers(page) == []
    # Red plays the move again: number 1 once.
    page.click(f".card[data-card='{card}']")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li.move:not(.undone)[data-move='{card} 0:N-S']", timeout=10000)
    assert numbers(page)[:1] == [1] and numbers(page).count(1) == 1


@pytest.mark.browser
def test_your_own_move_is_taken_back_in_one_go_after_the_bots(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Seed 253: red to play, and every hand holds an A or a K: the bots all move (a hand
    # shown would be past taking back: the referee takes back moves only).
    seed, card = 253, "K"
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ONE_HUMAN, bot_speed=1.0, think_ms=100))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    play_opening(page, card)
    # The three bots play; red is to play again. Its own move is 3 moves back.
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s.turn === 0 && s.hand.active && s.bot_busy === null &&
          s.history.length >= 2 && s.history[s.history.length - 1].seat !== 0; }""",
        timeout=30000,
    )
    last = page.evaluate("window.keezbord.state.history.length")
    page.click("#undo")
    page.wait_for_selector("#takeback[open]")
    assert last == 4
    assert page.inner_text("#takeback-text").startswith("Take back move 4: green ")
    assert page.inner_text("#takeback-mine") == "Back to your own move 1 (4 moves)"
    page.click("#takeback-mine")
    page.wait_for_function("window.keezbord.state.history.length === 0", timeout=15000)
    st = page.evaluate("window.keezbord.state")
    assert st["turn"] == 0 and st["flag"] is None and st["hand"]["active"]
    page.wait_for_function(f"document.querySelectorAll('#moves li.move.undone').length === {last}")
    assert numbers(page) == []


@pytest.mark.browser
def test_past_a_hand_shown_the_dialog_says_why_nothing_can_be_taken_back(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed(0)  # blue and yellow bring pawns out, green shows its hand
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ONE_HUMAN, bot_speed=1.0, think_ms=100))
    page.goto(link(srv, lang="en"))
    play_opening(page, card)
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s.turn === 0 && s.hand.active && s.log[s.log.length - 1].kind === "discard"; }""",
        timeout=30000,
    )
    page.click("#undo")
    page.wait_for_selector("#takeback[open]")
    assert page.inner_text("#takeback-text").startswith("There is no move to take back: a hand")
    assert page.is_hidden("#takeback-yes") and page.is_hidden("#takeback-mine")
    page.click("#takeback [value='no']")


def test_the_socket_takes_back_from_the_move_named_and_refuses_what_is_gone(
    tmp_path: Path,
) -> None:
    seed, card = opening_seed(0)
    opts = options(tmp_path / "g.sqlite", seed=seed, bot_speed=0.05, think_ms=50)
    app = create_app(lambda: Hub.open_sim(opts, kinds=["human", "greedy", "human", "human"]))
    with TestClient(app) as c, c.websocket_connect(ws_path()) as ws:
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]

        def until(pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
            for _ in range(400):
                msg: dict[str, Any] = ws.receive_json()
                if msg.get("type") == "state" and pred(msg):
                    return msg
                if msg.get("type") == "error":
                    return msg
            raise AssertionError("no such state")

        ws.receive_json()
        for m in (
            {"type": "card", "card": card},
            {"type": "lift", "hole": "N0.1"},
            {"type": "place", "hole": "T0"},
        ):
            ws.send_json(m)
        until(lambda s: len(hub.session.state.history) == 2 and hub.bot_busy is None)
        # Back to red's move 1 (the bot's move 2 after it goes too): one request.
        ws.send_json({"type": "hold", "on": True, "id": 1})
        ws.send_json({"type": "undo", "n": 1, "id": 2})
        until(lambda s: len(hub.session.state.history) == 0)
        assert hub.session.state.seat == 0 and not hub.holding()
        assert len(hub.log.undone) == 2
        ws.send_json({"type": "undo", "n": 1, "id": 3})  # gone already
        err = until(lambda s: False)
        assert err["type"] == "error" and err["id"] == 3
        assert err["text"]["en"] == "that move was taken back already"


@pytest.mark.browser
def test_a_second_card_flagged_is_taken_back_alone(serve: Serve, page: Any, tmp_path: Path) -> None:
    # Two cards tapped in one turn: the dialog offers to take back the second card only
    # (the move before it stays), as the flag's guidance says.
    # Seed 88: red to play holding an A and a K, both bring a pawn out.
    card, other = "K", "A"
    srv = serve(
        sim_hub(tmp_path / "g.sqlite", 88, ["human", "human", "human", "human"], bot_speed=1.0)
    )
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    page.click(f".card[data-card='{card}']")
    page.wait_for_function(f"window.keezbord.state.card === '{card}'")
    page.click(f".card[data-card='{other}']")
    page.wait_for_function(f"window.keezbord.state.second_card === '{other}'")
    # Said as a second card (its own decision), not as an illegal move: the board is fine.
    said = page.wait_for_selector("#log li[data-kind='second_card'].err")
    assert said is not None and said.inner_text().startswith("#1 · Tweede kaart: twee kaarten")
    assert page.query_selector("#log li[data-kind='illegal']") is None
    entries = page.evaluate("window.keezbord.state.log")
    assert [e["cards"] for e in entries if e["kind"] == "second_card"] == [[card, other]]
    page.click("#undo")
    page.wait_for_selector("#takeback[open]")
    label = page.evaluate(f"cardLabel('{other}')")
    assert page.inner_text("#takeback-text") == f"De tweede kaart ({label}) terugnemen?"
    assert page.inner_text("#takeback-yes") == "Kaart terugnemen"
    assert page.is_hidden("#takeback-mine")
    page.click("#takeback-yes")
    page.wait_for_function("window.keezbord.state.second_card === null")
    st = page.evaluate("window.keezbord.state")
    assert st["card"] == card and st["history"] == [] and st["turn"] == 0
