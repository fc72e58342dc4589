"""Issue 13, the board side on every screen, in real headless Chromium: the phone
(defect 4), 8 seats on a laptop (5), the keyboard (16), offline (17), identical cards and
the header at 768 px (18). Screenshots go to test-artifacts/web/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot, start_server
from web_helpers import link, opening_seed, sim_hub, sized_page

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def pit_px(page: Any, hole: str) -> float:
    box = page.locator(f".hole[data-hole='{hole}'] .pit").bounding_box()
    return float(box["width"])


@pytest.mark.parametrize("seats", [4, 8])
def test_phone_zooms_to_finger_sized_holes_with_a_compact_header(
    serve: Serve, browser: Any, tmp_path: Path, seats: int
) -> None:
    seed, card = opening_seed(0, seats)
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human"] * seats, seats=seats))
    page = sized_page(browser, 390, 844, mobile=True)
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    # The zoomed view: holes of at least 24 px around the action (the seat to play).
    page.wait_for_selector("#board.zoomed")
    assert pit_px(page, "T0") >= 24
    board = page.locator("#board").bounding_box()
    assert board["width"] >= 370  # the board fills the width
    # The header: two lines at most, the language button on screen.
    header = page.locator("header").bounding_box()
    assert header["height"] <= 64
    lang = page.locator("#lang").bounding_box()
    assert lang["x"] + lang["width"] <= 390 and lang["y"] + lang["height"] <= header["height"]
    shot(page, f"phone-{seats}-zoomed")
    # Play from the zoomed view; the hand and the log scroll under the board, which
    # stays in view.
    page.click(f".card[data-card='{card}']")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']", timeout=10000)
    page.locator("#log").scroll_into_view_if_needed()
    box = page.locator("#board").bounding_box()
    assert box["y"] >= 0 and box["y"] < 200  # still on screen under the header
    # The whole board is one tap away.
    page.click("#zoom")
    page.wait_for_selector("#board:not(.zoomed)")
    shot(page, f"phone-{seats}-whole")
    page.context.close()


def test_eight_seats_on_a_laptop_larger_holes_and_dark_pawns_outlined(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    seed, _ = opening_seed(0, 8)
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human"] * 8, seats=8))
    page = sized_page(browser, 1366, 768)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='N7.1'] .pawn[visibility='visible']")
    assert page.locator("#board.zoomed").count() == 0  # the whole board on a laptop
    assert pit_px(page, "T0") >= 10  # 8 px before
    page.click("#zoom")  # and a zoomed view on request
    page.wait_for_selector("#board.zoomed")
    assert pit_px(page, "T0") >= 24
    page.click("#zoom")
    symbol = page.eval_on_selector(
        ".hole[data-hole='N0.1'] .pawn text", "e => e.getBoundingClientRect().height"
    )
    assert symbol >= 8
    # Black (seat 7) is outlined in light grey, so it shows on the dark pits.
    stroke = page.eval_on_selector(
        ".hole[data-hole='N7.1'] .pawn circle", "e => getComputedStyle(e).stroke"
    )
    assert stroke == "rgb(244, 244, 244)"
    shot(page, "laptop-8")
    page.context.close()


def test_keyboard_cards_first_and_the_board_is_one_stop_with_arrows(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "g.sqlite", seed, ["human"] * 4))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    page.evaluate("document.activeElement.blur()")
    # Before the hand: the header's buttons, the zoom switch and the board (one stop).
    header = page.locator("header button:visible, header a:visible").count()
    stops = 0
    while not page.evaluate("!!document.activeElement.closest('.card')"):
        page.keyboard.press("Tab")
        stops += 1
        assert stops <= header + 3, "too many tab stops before the first card"  # 98 before
    assert page.locator(".hole[tabindex='0']").count() == 1
    # Into the board: arrows move between holes, Space lifts, Enter places.
    page.keyboard.press("Enter")  # tap the card
    page.wait_for_selector(".card.tapped")
    page.focus(".hole[data-hole='N0.1']")
    page.keyboard.press("Space")
    page.wait_for_selector(".hole[data-hole='T0'][data-led='target']")
    page.focus(".hole[data-hole='T1']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    moved = page.evaluate("document.activeElement.dataset.hole")
    assert moved and moved != "T1"
    page.focus(".hole[data-hole='T0']")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']", timeout=10000)
    # Tab leaves the board at once (one stop).
    page.focus(".hole[data-hole='T0']")
    page.keyboard.press("Tab")
    assert not page.evaluate("!!document.activeElement.closest('#board')")


def test_offline_disables_input_and_resumes(serve: Serve, page: Any, tmp_path: Path) -> None:
    seed, card = opening_seed()
    db = tmp_path / "g.sqlite"
    srv = serve(sim_hub(db, seed, ["human"] * 4))
    port = int(srv.url.rsplit(":", 1)[1])
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    srv.stop()
    page.wait_for_selector("body.offline")
    assert page.evaluate("document.querySelector('main').inert")
    assert "No connection" in page.inner_text("#instruction")
    shot(page, "offline")
    # A click does nothing (no vanishing move): the board is inert.
    page.click(".hole[data-hole='N0.1']", force=True)
    assert not page.evaluate("window.keezbord.state.held.length")
    srv2 = start_server(sim_hub(db, seed, ["human"] * 4), port)
    try:
        page.wait_for_selector("body:not(.offline)", timeout=15000)
        page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
        assert "No connection" not in page.inner_text("#instruction")
        page.click(f".card[data-card='{card}']")
        page.click(".hole[data-hole='N0.1']")
        page.wait_for_selector("#inhand button.held")
        page.click(".hole[data-hole='T0']")
        page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']", timeout=10000)
    finally:
        srv2.stop()


def test_one_of_two_identical_cards_is_tapped_and_the_header_stays(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # Seed 44: red to play holding A, A.
    srv = serve(sim_hub(tmp_path / "g.sqlite", 44, ["human"] * 4))
    page = sized_page(browser, 1366, 768)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".card[data-card='A']:not([disabled])")
    assert page.locator(".card[data-card='A']").count() == 2
    page.click(".card[data-card='A'] >> nth=1")
    page.wait_for_selector(".card.tapped")
    assert page.locator(".card.tapped").count() == 1
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0  # the side is longer than the screen
    assert page.locator("header").bounding_box()["y"] == 0
    assert page.is_visible("#lang")
    page.context.close()
