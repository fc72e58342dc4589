"""Issue 26 part 1 in real headless Chromium: on the players' link of a real board (a
fake GPIO chain behind mock pins), a position is asked in the "Set up a position" form;
the instruction box says what to do in Dutch, the board lights its holes, the pawns are
moved on the (fake) board, and the game begins from the position."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from test_run_mode import FakeGpio, nests
from web_helpers import link, options

from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_a_position_set_up_from_the_page(serve: Serve, page: Any, tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    opts = options(tmp_path / "r.sqlite", mode="run")
    setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
    srv = serve(lambda: Hub.open_run(opts, setup, gpio.board))
    page.goto(link(srv, Role.PLAYER, lang="nl"))
    page.wait_for_selector("#setupform:not([hidden])")
    assert page.is_hidden("#setup")
    page.fill("#setupform input[name=position]", "NNNT5/NNNN/NNNN/NNNN 0 standard")
    page.click("#setupform button[type=submit]")
    page.wait_for_selector("#setup:not([hidden])")
    assert page.inner_text("#setup-title") == "Zet het bord klaar"
    assert page.inner_text("#setup-text") == "Zet een rode pion uit het nest van rood op T5"
    assert page.inner_text("#setup-left") == "nog 1 stap"
    assert page.inner_text("#status") == "Zet het bord klaar"  # not "red to play" yet
    page.wait_for_selector(".hole[data-hole='T5'][data-led='target']")
    assert page.locator(".hole[data-hole='N0.1'][data-led='source']").count() == 1
    shot(page, "setup-1-asked")
    gpio.set("N0.1", False)
    gpio.set("T5", True)
    page.wait_for_selector("#setup", state="hidden")
    page.wait_for_function("() => window.keezbord.state.position.pawns[0][3] === 'T5'")
    assert page.locator(".hole[data-hole='T5'][data-led='target']").count() == 0
    shot(page, "setup-2-done")
