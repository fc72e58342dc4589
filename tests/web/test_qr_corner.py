"""The QR corner of the page (issue 16), in real headless Chromium: the spectators' code
is shown and loads, its caption follows the page's language; on the Pi's own screen (the
page opened on 127.0.0.1) the players' code joins it when the board has players' tokens."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer

from keezbord.host.web.hub import Hub, HubOptions

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_the_qr_corner_shows_the_spectators_code(serve: Serve, page: Any, tmp_path: Path) -> None:
    opts = HubOptions(db=tmp_path / "g.sqlite", seed=1)
    srv = serve(lambda: Hub.open_sim(opts, kinds=["human", "greedy", "greedy", "greedy"]))
    page.goto(srv.url + "/?lang=en")
    page.wait_for_function("() => window.keezbord && window.keezbord.state")
    page.wait_for_selector("#qr:not([hidden]) figure[data-role=spectator] img")
    page.wait_for_function(
        "() => document.querySelector('#qr figure[data-role=spectator] img').naturalWidth > 0"
    )
    caption = page.locator("#qr figure[data-role=spectator] figcaption")
    assert caption.inner_text() == "Watch: scan with your phone"
    page.click("#lang")
    page.wait_for_function(
        "() => document.querySelector('#qr figcaption').textContent.startsWith('Kijk mee')"
    )
    # The players' code only where the board has players' tokens (run, and sim with roles).
    has_players = getattr(getattr(srv.hub.opts, "tokens", None), "player", None) is not None
    # A refused image removes its figure (on its error event, whenever that comes): the
    # count is read once every figure left has its image loaded, none still on its way.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#qr figure img')].every((i) => i.naturalWidth > 0)"
    )
    assert page.locator("#qr figure").count() == (2 if has_players else 1)
