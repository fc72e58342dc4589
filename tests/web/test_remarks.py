"""Issue 25 item 7 in real headless Chromium: advice no longer vanishes. The hints, the
answers to "which card?" and the coach's remarks stay in the move list beside their
move after the next moves, for the referee and that seat's player while the game is on
(a hint reveals a hand: spectators get none), and a person may ask which card to play
before tapping one (hints "full")."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from test_hints_page import start, tap
from web_helpers import link, opening_seed, options

from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

Serve = Callable[[Callable[[], Hub]], LiveServer]

# The move list's items in order: "remark-<kind>" or "move-<n>".
ORDER = """() => [...document.querySelectorAll('#moves li')].map((e) =>
  e.dataset.kind === 'remark' ? 'remark-' + e.dataset.remark
  : e.classList.contains('move') ? 'move-' + e.dataset.n : e.dataset.kind || 'other')"""


def test_which_card_and_the_hint_stay_with_their_move_after_the_bots_play(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed(0)
    opts = options(tmp_path / "g.sqlite", seed=seed, bot_speed=0.2, think_ms=300, hint_ms=30)
    srv = serve(
        lambda: Hub.open_sim(opts, kinds=["human", "greedy", "greedy", "greedy"], hints="full")
    )
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page, watch = ctx.new_page(), ctx.new_page()
        page.goto(link(srv, lang="nl"))
        watch.goto(link(srv, Role.SPECTATOR, lang="nl"))
        page.wait_for_selector("#ask-card:not([hidden]):has-text('Welke kaart?')")
        page.click("#ask-card")
        page.wait_for_selector("#ask-answer:not([hidden])", timeout=15000)
        answer = page.inner_text("#ask-answer")
        assert "%" in answer and answer[0].isupper(), answer  # the search's choice, in words
        assert page.is_disabled("#ask-card")  # asked once a move
        page.wait_for_selector("#moves li.remark-card")
        assert page.inner_text("#moves li.remark-card").startswith("#1 · Welke kaart (● rood): ")
        # The card tapped: its hint (hints "full") joins the move list too.
        page.click(f".card[data-card='{card}']")
        page.wait_for_selector("#ask-card", state="hidden")
        page.wait_for_selector("#moves li.remark-hint", timeout=15000)
        assert page.inner_text("#moves li.remark-hint").startswith("#1 · Tip (● rood): ")
        page.click(".hole[data-hole='N0.1']")
        page.wait_for_selector("#inhand button.held")
        page.click(".hole[data-hole='T0']")
        # The bots play on: the advice stays, before the move it was for.
        page.wait_for_function("window.keezbord.state.history.length >= 3", timeout=30000)
        order = page.evaluate(ORDER)
        assert order.index("remark-card") < order.index("remark-hint") < order.index("move-1")
        assert order.index("move-1") < order.index("move-2")
        # A spectator gets none of it while the game is on (a hint reveals a hand).
        watch.wait_for_function("window.keezbord.state.history.length >= 3")
        assert watch.evaluate("window.keezbord.state.remarks") == []
        assert watch.locator("#moves li.remark").count() == 0
        assert watch.is_hidden("#ask-card")
        page.click("#lang")
        page.wait_for_selector("#moves li.remark-hint:has-text('Hint (● red)')")
    finally:
        ctx.close()


def board_move(srv: LiveServer, gpio: Any, card: str, frm: str, to: str) -> None:
    """A hand on the real board (the fake Pi's switches): tap, lift, put down."""
    tap(srv, card)
    time.sleep(0.3)
    gpio.set(frm, False)
    time.sleep(0.2)
    gpio.set(to, True)


def test_the_coach_remark_stays_after_the_next_move(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv, gpio = start(serve, tmp_path / "c.sqlite", "coach")
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='T40']")
    board_move(srv, gpio, "5", "T40", "T45")
    page.wait_for_selector("#moves li.remark-coach", timeout=15000)
    text = page.inner_text("#moves li.remark-coach")
    assert text.startswith("#1 · Coach (● red): ") and "T14" in text, text
    # Blue plays its 5 (T14 home to H1.3): the coach's last remark leaves the messages,
    # not the move list.
    board_move(srv, gpio, "5", "T14", "H1.3")
    page.wait_for_selector("#moves li.move[data-n='2']", timeout=15000)
    page.wait_for_function("window.keezbord.state.coach === null")
    assert page.locator("#log li.coach").count() == 0
    order = page.evaluate(ORDER)
    assert order.index("move-1") < order.index("remark-coach") < order.index("move-2"), order


@pytest.mark.parametrize("hints", ["targets", "coach"])
def test_which_card_is_refused_below_hints_full(tmp_path: Path, hints: str) -> None:
    import warnings

    from web_helpers import ws_path

    from keezbord.host.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    seed, _ = opening_seed(0)
    opts = options(tmp_path / "g.sqlite", seed=seed)
    app = create_app(lambda: Hub.open_sim(opts, kinds=["human"] * 4, hints=hints))
    with TestClient(app) as c, c.websocket_connect(ws_path()) as ws:
        ws.receive_json()
        ws.send_json({"type": "ask_card", "id": 7})
        for _ in range(50):
            msg = ws.receive_json()
            if msg.get("type") == "error":
                break
        assert msg["id"] == 7 and msg["text"]["en"] == "only with hints 'full'"
        assert msg["text"]["nl"] == "alleen bij hulp 'volledig'"
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        assert hub.remarks.entries == []
