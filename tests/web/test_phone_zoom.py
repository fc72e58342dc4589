"""Issue 25 item 1, the phone's zoomed view, in real headless Chromium at 390x844: it
shows the pawn you must move (not just your start), the targets of a capture without
the victim's distant nest (the nest once the capture is made), arrows to what does not
fit in one view, one finger pans it, and holes stay at least 24 px throughout."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from web_helpers import link, sim_hub_at, sized_page

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
N = ["N", "N", "N", "N"]


def phone(browser: Any) -> Any:
    return sized_page(browser, 390, 844, mobile=True)


def shown(page: Any, hole: str) -> bool:
    """The hole is drawn inside the board's view, where a finger can tap it."""
    return bool(
        page.evaluate(
            """(name) => { const g = document.querySelector(`.hole[data-hole='${name}'] .pit`);
            const r = g.getBoundingClientRect();
            const b = document.getElementById("board").getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (x < b.left || x > b.right || y < b.top || y > b.bottom) return false;
            const hit = document.elementFromPoint(x, y);
            return !!hit && !!hit.closest(`.hole[data-hole='${name}']`); }""",
            hole,
        )
    )


def pit_px(page: Any, hole: str) -> float:
    return float(page.locator(f".hole[data-hole='{hole}'] .pit").bounding_box()["width"])


def test_four_seats_the_pawn_you_must_move_is_in_view(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # Seed 12: red to play holding a 5 and no A or K: only its pawn on T17 can move.
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 12, [["T17", "N", "N", "N"], N, N, N]))
    page = phone(browser)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#board.zoomed")
    page.wait_for_selector(".card[data-card='5']:not([disabled])")
    assert shown(page, "T17")  # on your turn your pawns are in view, not only your start
    page.click(".card[data-card='5']")
    page.wait_for_selector(".card.tapped")
    page.wait_for_timeout(200)
    assert shown(page, "T17") and pit_px(page, "T17") >= 24
    page.click(".hole[data-hole='T17']")
    page.wait_for_selector(".hole[data-hole='T22'][data-led='target']")
    assert shown(page, "T22") and pit_px(page, "T22") >= 24
    page.click(".hole[data-hole='T22']")
    page.wait_for_selector("#moves li[data-move='5 0:T17-T22']", timeout=10000)
    page.context.close()


def test_eight_seats_a_capture_shows_its_target_then_the_victims_nest(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # Seed 63: red to play holding an 8; red on T2, green (seat 3, its nest far up the
    # board) on T10.
    pawns = [["T2", "N", "N", "N"], N, N, ["T10", "N", "N", "N"], N, N, N, N]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 63, pawns))
    page = phone(browser)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".card[data-card='8']:not([disabled])")
    page.wait_for_selector("#board.zoomed")
    page.click(".card[data-card='8']")
    page.click(".hole[data-hole='T2']")
    page.wait_for_selector(".hole[data-hole='T10'][data-led='target']")
    page.wait_for_selector(".hole[data-led='victim']")
    # The target is in view (the view no longer centres between it and the nest).
    assert shown(page, "T10") and pit_px(page, "T10") >= 24
    nest = page.get_attribute(".hole[data-led='victim']", "data-hole")
    assert nest is not None and nest.startswith("N3.")
    assert not shown(page, nest)
    shot(page, "zoom-8-capture-target")
    page.click(".hole[data-hole='T10']")  # the capture: the mover down, the victim in hand
    page.wait_for_function(
        "window.keezbord.state.held.length === 1 && window.keezbord.state.held[0] === 3"
    )
    page.wait_for_function(f"document.querySelector(\".hole[data-hole='{nest}']\") && true")
    page.wait_for_timeout(300)
    assert shown(page, nest) and pit_px(page, nest) >= 24  # now the nest
    page.click(f".hole[data-hole='{nest}']")
    page.wait_for_selector("#moves li[data-move='8 0:T2-T10']", timeout=10000)
    page.context.close()


def touch_drag(page: Any, frm: tuple[float, float], to: tuple[float, float]) -> None:
    """One finger on the screen (Chromium's touch events over CDP), moved, lifted."""
    cdp = page.context.new_cdp_session(page)
    steps = 8
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": frm[0], "y": frm[1]}]},
    )
    for k in range(1, steps + 1):
        x = frm[0] + (to[0] - frm[0]) * k / steps
        y = frm[1] + (to[1] - frm[1]) * k / steps
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_eight_seats_far_pawns_get_arrows_and_a_finger_pans(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    # Seed 12: red to play holding a 5; red's pawns on T2 and on T60, far up the ring.
    pawns = [["T2", "T60", "N", "N"], N, N, N, N, N, N, N]
    srv = serve(sim_hub_at(tmp_path / "g.sqlite", 12, pawns))
    page = phone(browser)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".card[data-card='5']:not([disabled])")
    page.wait_for_selector("#board.zoomed")
    assert pit_px(page, "T2") >= 24
    one = [h for h in ("T2", "T60") if shown(page, h)]
    assert len(one) == 1  # they do not fit in one view of 24 px holes
    other = "T60" if one == ["T2"] else "T2"
    assert page.locator(f".offview-arrow[data-to='{other}']").count() == 1
    shot(page, "zoom-8-arrows")
    page.click(f".offview-arrow[data-to='{other}']")  # the arrow pans there
    page.wait_for_function(
        """(name) => {
        const r = document.querySelector(`.hole[data-hole='${name}'] .pit`).getBoundingClientRect();
        const b = document.getElementById("board").getBoundingClientRect();
        return r.top >= b.top && r.bottom <= b.bottom && r.left >= b.left && r.right <= b.right;
        }""",
        arg=other,
    )
    assert shown(page, other)
    # One finger on the wood pans the view; on its way it taps nothing.
    before = page.get_attribute("#board", "viewBox")
    b = page.locator("#board").bounding_box()
    touch_drag(
        page, (b["x"] + 60, b["y"] + b["height"] / 2), (b["x"] + 300, b["y"] + b["height"] / 2 + 40)
    )
    page.wait_for_function(
        f"document.getElementById('board').getAttribute('viewBox') !== '{before}'"
    )
    assert page.evaluate("window.keezbord.state.held.length") == 0
    assert pit_px(page, "T2") >= 24
    page.context.close()
