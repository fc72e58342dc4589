"""Issue 13, the side of the page in the simulator, in real headless Chromium: player
panels for every seat (defect 6), "Played" never under the hand for a bot's card (defect
7), hints full only for the person and in words (defect 9), your turn unmistakable
(defect 12), the partner exchange told (defect 13)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, opening_seed, sim_hub

from keezbord.engine.game import Game
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def play_opening(page: Any, card: str) -> None:
    page.click(f".card[data-card='{card}']")
    page.wait_for_selector("#played:not(:empty)")
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    page.wait_for_selector(f"#moves li[data-move='{card} 0:N-S']")


def test_player_panels_for_every_seat(serve: Serve, page: Any, tmp_path: Path) -> None:
    seed, _ = opening_seed(0, 6)
    kinds = ["human", "greedy", "random", "greedy", "greedy", "greedy"]
    srv = serve(sim_hub(tmp_path / "p.sqlite", seed, kinds, seats=6, teams="pairs"))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#players li.player >> nth=5")
    st = page.evaluate("() => window.keezbord.state")
    rows = page.locator("#players li.player")
    assert rows.count() == 6
    red = page.inner_text("#players li[data-seat='0']")
    assert "red" in red and "you" in red and "team with" in red and "5 cards" in red
    partner = st["players"][0]["team"][1]
    assert st["players"][partner]["colour"]["en"] in red
    assert "bot (random)" in page.inner_text("#players li[data-seat='2']")
    dealer = st["table"]["dealer"]
    assert "dealer" in page.inner_text(f"#players li[data-seat='{dealer}']")
    assert page.locator("#players li.turn").count() == 1
    assert "to play" in page.inner_text(f"#players li[data-seat='{st['turn']}']")
    symbol = page.inner_text("#players li[data-seat='1'] .swatch")
    assert symbol == st["players"][1]["colour"]["symbol"]


def test_your_turn_is_unmistakable_and_played_is_only_your_card(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()
    srv = serve(sim_hub(tmp_path / "y.sqlite", seed, ["human", "greedy", "greedy", "greedy"]))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#yourturn:not([hidden])")
    assert page.inner_text("#yourturn").startswith("Your turn — ● red")
    assert page.title().startswith("▶ Your turn")
    assert page.get_attribute("#sound", "aria-pressed") == "false"  # sound off by default
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("() => window.keezbord.beeps || 0") == 0
    # While a bot plays its card, no "Played" under the person's hand. The listener is
    # registered before the person's move: the bot taps its card soon after that move,
    # and a listener registered later could miss the only state that shows it.
    page.evaluate(
        """() => { window.botCardSeen = new Promise((resolve) => {
            let done = false;
            const check = (s) => {
                const text = (id) => document.getElementById(id).textContent;
                if (!done && s.bot_busy !== null && s.card) {
                    done = true;
                    resolve([s.card, text("played"), text("instruction")]);
                }
            };
            window.keezbord.onState.push(check);
        }); }"""
    )
    play_opening(page, card)
    page.wait_for_selector("#yourturn", state="hidden")
    assert not page.title().startswith("▶")
    seen = page.evaluate("() => window.botCardSeen")
    # What the bot does is the instruction line's (issue 25 items 5, 11).
    assert seen[1] == "" and f"(bot) plays {seen[0]}" in seen[2], seen
    # The turn comes back: banner, title and (switched on) one sound.
    page.wait_for_selector("#yourturn:not([hidden])", timeout=30000)
    assert page.title().startswith("▶ Your turn")
    assert page.evaluate("() => window.keezbord.beeps") == 1


def test_full_hints_are_for_the_person_and_in_words(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    seed, card = opening_seed()
    srv = serve(
        sim_hub(tmp_path / "h.sqlite", seed, ["human", "greedy", "greedy", "greedy"], hints="full")
    )
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
    page.click(f".card[data-card='{card}']")
    page.wait_for_selector("#log li[data-kind='hint']", timeout=20000)
    hint = page.inner_text("#log li[data-kind='hint']")
    assert "0:N-S" not in hint and "Hint" in hint
    page.click(".hole[data-hole='N0.1']")
    page.wait_for_selector("#inhand button.held")
    page.click(".hole[data-hole='T0']")
    # The bots tap their cards too: hints are for people, so none is searched for a bot
    # (host/advisor.py) and none is shown.
    page.wait_for_function(
        """() => { const s = window.keezbord.state;
        return s.decisions.some((d) => d.type === "move" && d.seat !== 0); }""",
        timeout=30000,
    )
    bot_hints = page.evaluate(
        """() => window.keezbord.state.decisions.filter((d) => d.type === "hint" && d.seat !== 0)
              .map((d) => d.reason.en)"""
    )
    assert bot_hints == [] and srv.hub.advisor.asked == 1  # the person's tap only


def test_the_partner_exchange_is_told(serve: Serve, browser: Any, tmp_path: Path) -> None:
    seed = 0
    srv = serve(
        sim_hub(
            tmp_path / "e.sqlite",
            seed,
            ["human", "greedy", "greedy", "greedy"],
            profile="reiseditie",
            teams="pairs",
        )
    )
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(link(srv, lang="en"))
        page.wait_for_selector("#cards .card.give")
        give = page.get_attribute("#cards .card.give >> nth=1", "data-card")
        page.click("#cards .card.give >> nth=1")
        page.wait_for_selector("#log li.exchange >> nth=1")
        log = page.inner_text("#log")
        hub = srv.hub
        assert hub.sim is not None
        got = hub.sim.info.exchanges["0.0"][2]  # what yellow, red's partner, passed
        assert f"Your partner gave you a card: ▲ yellow: {got}" in log
        assert "blue gives green a card" in log
        moves = page.inner_text("#moves")
        assert f"red gives yellow the {give}" in moves or f"red gives yellow {give}" in moves
        watch = ctx.new_page()
        watch.goto(link(srv, "spectator", lang="en"))
        watch.wait_for_selector("#log li.exchange")
        seen = watch.inner_text("#log") + watch.inner_text("#moves")
        assert "yellow gives red a card" in seen and f"yellow gives red the {got}" not in seen
        assert Game(4, "reiseditie", seed, teams="pairs").hand(0)  # the deal the test assumes
    finally:
        ctx.close()
