"""The page's language (issue 11 item 13): the browser's language (Dutch unless it asks for
English), the player's choice remembered across visits; in real headless Chromium."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import options

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def _page_lang(browser: Any, url: str, locale: str) -> str:
    ctx = browser.new_context(locale=locale)
    try:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function("() => window.keezbord && window.keezbord.state")
        lang: str = page.get_attribute("html", "lang")
        return lang
    finally:
        ctx.close()


def test_page_follows_the_browser_then_the_players_choice(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    opts = options(tmp_path / "g.sqlite", seed=1)
    srv = serve(lambda: Hub.open_sim(opts, kinds=["human", "greedy", "greedy", "greedy"]))
    assert _page_lang(browser, srv.url, "en-GB") == "en"
    assert _page_lang(browser, srv.url, "nl-NL") == "nl"
    assert _page_lang(browser, srv.url, "de-DE") == "nl"  # Dutch unless English is asked
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(srv.url)
        page.wait_for_selector("html[lang='en']")
        # Not a choice yet: the browser's language is not stored as one.
        assert page.evaluate("() => localStorage.getItem('keezbord.lang')") is None
        page.click("#lang")
        page.wait_for_selector("html[lang='nl']")
        page.reload()
        page.wait_for_function("() => window.keezbord && window.keezbord.state")
        assert page.get_attribute("html", "lang") == "nl"  # the choice beats the browser
    finally:
        ctx.close()


def test_a_stored_language_the_page_has_not_falls_back_to_the_browsers(
    serve: Serve, browser: Any, tmp_path: Path
) -> None:
    """Found by the scripts' checker (issue 23): a stored "de" left every text undefined
    and stopped the page before it drew anything."""
    opts = options(tmp_path / "g.sqlite", seed=1)
    srv = serve(lambda: Hub.open_sim(opts, kinds=["human", "greedy", "greedy", "greedy"]))
    ctx = browser.new_context(locale="en-GB")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(srv.url)
        page.evaluate("() => localStorage.setItem('keezbord.lang', 'de')")
        page.reload()
        page.wait_for_function("() => window.keezbord && window.keezbord.state")
        assert page.get_attribute("html", "lang") == "en"
        page.wait_for_selector("#players li.player")  # the side panels drew
        assert not errors
    finally:
        ctx.close()
