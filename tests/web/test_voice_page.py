"""The page's voice (docs/voice.md) in headless Chromium, speech synthesis recorded:
headless Chromium has no voices and refuses a real ``speak()`` without a gesture, so
``speechSynthesis.speak``/``cancel`` are replaced before the page's scripts run and each
call is kept (text, language). A refereed game (a conformance trace with a mistake put
right) is fed to a run-mode hub; what each page queued is checked: the table's words in
the page's language on a page whose sound switch was tapped on, nothing on one that was
not, and a hint (a card of a hidden hand) only on its own seat's device."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import REMOTE_TOKENS, link, options

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.referee.trace import input_from_dict
from keezbord.host.voice.attach import attach
from keezbord.host.web.hub import Hub

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host" / "voice"))
from conformance_speech import GOLDEN, overshoot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RECORD = """
window.__spoken = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = (u) => window.__spoken.push({ text: u.text, lang: u.lang });
  window.speechSynthesis.cancel = () => window.__spoken.push({ cancel: true });
}
"""
LINES = overshoot()[:40]  # to green's 6 put right and a few moves after it
HINT = {"nl": "speel je 7: vijf en twee", "en": "play your 7: five and two"}
COACH = {
    "n": 0,
    "seat": 1,
    "played": "5 1:T20-T25",
    "better": "7 1:T20-T27",
    "holes": [],
    "played_win": 0.3,
    "better_win": 0.5,
    "text": {
        "nl": "Dat kon beter: de zeven: blauw T20 → T27 geeft je team een geschatte "
        "winkans van 50%, jouw zet 30%.",
        "en": "There was a better move: the seven: blue T20 → T27 gives your team an "
        "estimated win chance of 50%, yours 30%.",
    },
}


def _spoken(page: Any) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = page.evaluate("window.__spoken")
    return got


def _words(page: Any) -> list[tuple[str, str]]:
    return [(s["text"], s["lang"]) for s in _spoken(page) if s.get("text")]


def _on_loop(hub: Hub, fn: Any) -> Any:
    """``fn()`` run on the hub's loop (the voice's view is the loop's), its result."""
    done = threading.Event()
    box: list[Any] = []

    def go() -> None:
        box.append(fn())
        done.set()

    hub.call_soon(go)
    assert done.wait(10)
    return box[0]


def _feed(hub: Hub, d: dict[str, Any]) -> int:
    """Feed ``d`` on the hub's loop; the voice's next number once it is in."""

    def go() -> int:
        hub.feed(input_from_dict(d))
        return int(hub.views["voice"]()["next"])

    n: int = _on_loop(hub, go)
    return n


def _open(browser: Any, url: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(RECORD)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_function("window.keezbord && window.keezbord.state !== null")
    return page


def _switch_on(page: Any) -> None:
    page.click("#sound")
    page.wait_for_function("localStorage.getItem('keezbord.sound') === 'on'")


def test_the_page_speaks_the_referee_to_those_who_switched_it_on(
    tmp_path: Path, serve: Any, browser: Any
) -> None:
    setup = {**LINES[0], "mode": "run"}

    def make() -> Hub:
        opts = options(tmp_path / "j.db", mode="run", tokens=REMOTE_TOKENS)
        hub = Hub.open_run(opts, setup, FakeBoard(), resume=False)
        # The trace's time only: a loaded machine's wall clock never runs the referee's
        # timers ahead of the trace (a 7 flagged half counted while the pages opened).
        hub.clock.hold()
        attach(hub, None)  # the page's voice only: no speaker on this machine
        return hub

    server: LiveServer = serve(make)
    referee = _open(browser, link(server, "referee", lang="nl"))
    english = _open(browser, server.url + "/?lang=en")  # a spectator, in English
    silent = _open(browser, server.url + "/?lang=nl")  # a spectator who never switched
    seat1 = _open(browser, server.url + "/?token=seat1-token&lang=nl")
    seat3 = _open(browser, server.url + "/?token=seat3-token&lang=nl")
    disputes = _open(browser, server.url + "/?lang=nl")  # a spectator: disputes only
    assert disputes.is_hidden("#voice-level")  # the level is there while the switch is on
    for page in (referee, english, seat1, seat3, disputes):
        _switch_on(page)
    disputes.select_option("#voice-level", "disputes")
    assert disputes.evaluate("localStorage.getItem('keezbord.voice')") == "disputes"
    assert disputes.get_attribute("#log", "aria-live") == "polite"  # the voice skips moves
    assert referee.get_attribute("#voice-level", "aria-label") == "Wat de stem zegt"
    assert _words(referee) == [("Geluid en stem aan.", "nl-NL")]
    assert _words(english) == [("Sound and voice on.", "en-GB")]
    # The switch is per device: the silent page's own storage says nothing of it.
    assert silent.evaluate("localStorage.getItem('keezbord.sound')") is None
    assert referee.get_attribute("#log", "aria-live") == "off"  # the voice says the moves
    assert silent.get_attribute("#log", "aria-live") == "polite"

    hub = server.hub
    # At a person's pace: each decision reaches every page before the next. A page that
    # lags gets several in one batch and rightly drops a stale word of a kind (the mistake
    # already put right): the disputes page must not lag, or it never hears the mistake.
    for d in LINES[1:]:
        n = _feed(hub, d)
        for page in (referee, english, disputes):
            page.wait_for_function("(n) => window.keezbord.state.voice.next >= n", arg=n)
    golden_nl = (GOLDEN / "g101-overshoot.nl.txt").read_text().splitlines()
    golden_en = (GOLDEN / "g101-overshoot.en.txt").read_text().splitlines()
    said = _on_loop(hub, lambda: hub.views["voice"]()["next"])
    referee.wait_for_function('window.__spoken.some((s) => s.text === "Blauw speelt een zeven.")')
    english.wait_for_function('window.__spoken.some((s) => s.text === "Blue plays a seven.")')
    nl = [w for w, lang in _words(referee)[1:]]
    assert all(lang == "nl-NL" for _, lang in _words(referee))
    # In order, each a golden line; a batch's stale word of a kind may be left out.
    # The opening ("Nieuw spel: ...") was said before the pages opened: not by them.
    assert golden_nl[0].startswith("Nieuw spel: ") and nl[:3] == golden_nl[1:4]
    assert (
        "Dat mag niet: met de 6 gaat een pion precies 6 stappen; deze ging er 7. "
        "Zet hem terug op de start van groen." in nl
    )
    rest = iter(golden_nl)
    missing = [w for w in nl if w not in rest]
    assert not missing, (missing, nl)  # a subsequence of the golden text
    en = [w for w, lang in _words(english)[1:]]
    assert en and all(w in golden_en for w in en)
    assert all(lang == "en-GB" for _, lang in _words(english))
    assert {"cancel": True} in _spoken(referee)  # the mistake cut what was still queued
    silent.wait_for_function(f"window.keezbord.state.voice.next >= {said}")
    assert _spoken(silent) == []
    # Disputes only: the mistake and its putting right, no move.
    disputes.wait_for_function(f"window.keezbord.state.voice.next >= {said}")
    assert [w for w, _ in _words(disputes)[1:]] == [
        "Dat mag niet: met de 6 gaat een pion precies 6 stappen; deze ging er 7. "
        "Zet hem terug op de start van groen.",
        "Het bord klopt weer.",
    ]

    # A hint for seat 1 names a card of its hidden hand: said on seat 1's device only.
    def hint() -> None:
        hub.remarks.hint({"seat": 1, "reason": HINT}, hub.log.entries, len(hub.log.entries))
        hub.changed()

    hub.call_soon(hint)
    seat1.wait_for_function(
        'window.__spoken.some((s) => s.text === "Tip: speel je 7: vijf en twee")'
    )
    seat3.wait_for_function("(window.keezbord.state.remarks || []).length === 0")
    referee.wait_for_function("(window.keezbord.state.remarks || []).length === 1")
    english.wait_for_function(f"window.keezbord.state.version >= {hub.version}")
    for page in (referee, english, seat3, silent):
        assert not any(
            "vijf en twee" in s.get("text", "") or "five and two" in s.get("text", "")
            for s in _spoken(page)
            if "7" in s.get("text", "")
        )

    # The coach's remark on seat 1's move: its own device, holes spoken, nobody else.
    def coach() -> None:  # as the advisor shows it (advisor.coach_for)
        hub.coach = COACH
        hub.changed()

    hub.call_soon(coach)
    seat1.wait_for_function(
        "window.__spoken.some((s) => (s.text || '').startsWith('Coach: Dat kon beter'))"
    )
    got = [w for w, _ in _words(seat1) if w.startswith("Coach: ")]
    assert got == [
        "Coach: Dat kon beter: de zeven: blauw vier na de start van blauw naar vijf voor de "
        "start van geel geeft je team een geschatte winkans van 50%, jouw zet 30%."
    ]
    referee.wait_for_function("(window.keezbord.state.remarks || []).length === 2")
    seat3.wait_for_function(f"window.keezbord.state.version >= {hub.version}")
    for page in (referee, english, seat3, silent, disputes):
        assert not any("Coach" in s.get("text", "") for s in _spoken(page))
    for page in (referee, english, silent, seat1, seat3, disputes):
        page.context.close()


def test_a_simulator_game_of_bots_is_spoken_on_the_page(
    tmp_path: Path, serve: Any, browser: Any
) -> None:
    def make() -> Hub:
        opts = options(tmp_path / "sim.db", seed=5, bot_speed=0.15, think_ms=300)
        hub = Hub.open_sim(opts, kinds=["greedy"] * 4)
        attach(hub, None)
        return hub

    server: LiveServer = serve(make)
    page = _open(browser, server.url + "/?lang=nl")  # a spectator watching the bots
    _switch_on(page)
    page.wait_for_function(
        "window.__spoken.filter((s) => / speelt een /.test(s.text || '')).length >= 3"
    )
    words = [w for w, lang in _words(page)[1:] if lang == "nl-NL"]
    view = _on_loop(server.hub, lambda: server.hub.views["voice"]())
    made = {s["text"]["nl"] for s in view["said"]}
    assert words and all(w in made for w in words)
    # The drawing's text alternatives: each hole as people name it, with what stands there.
    label = page.get_attribute(".hole[data-hole='T16']", "aria-label") or ""
    assert label.startswith("T16, de start van blauw: "), label
    # The lit holes summed up on the board, named the same way (the seat to play's start).
    page.wait_for_function(
        "/aan zet: (de start|plek)/.test("
        "document.getElementById('board').getAttribute('aria-description') || '')"
    )
    english = _open(browser, server.url + "/?lang=en")
    english.wait_for_function(
        "(document.querySelector(\".hole[data-hole='T19']\") || {}).ariaLabel?.startsWith("
        '"T19, three past blue\'s start: ")'
    )
    held = english.get_attribute(".hole[data-hole='N1.1']", "aria-label") or ""
    assert held.startswith("N1.1, blue's nest: ") and ("pawn of" in held or "empty" in held)
    english.context.close()
    page.context.close()
