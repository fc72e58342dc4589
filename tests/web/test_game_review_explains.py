"""The review after a game as a newcomer reads it (issue 40, item 14), in real headless
Chromium on a finished simulator game whose analysis the journal already holds: the
chart's axes, legend and key to the marks; the loss shown beside a label never says a
mistake lost as much as a blunder; a mistake's review says the better move and why in
words; the luck split in words, numbers second; Dutch numbers; "next mistake" walks
through the labelled moves (buttons and Shift+arrows)."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer, shot
from finished import finished_sim_game
from web_helpers import link, options

from keezbord.engine.analysis import analyse_game
from keezbord.engine.text import card_label
from keezbord.host.analysis.record import record_of_journal
from keezbord.host.analysis.store import document, save
from keezbord.host.journal import Journal
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]
ORDER = ["inaccuracy", "mistake", "blunder"]
NOTATION = re.compile(r"\b\d:(?:T\d|S|N|H\d)")  # a move's notation, "Q 0:T11-T23"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game (persons on seats 0 and 2 playing at random) analysed at a small
    budget and kept in the journal, as a host keeps it: the page shows it at once."""
    db = tmp_path_factory.mktemp("review") / "g.sqlite"
    gid = finished_sim_game(db)
    with Journal(db, readonly=True) as journal:
        record = record_of_journal(journal, gid)
    doc = document(gid, analyse_game(record, playouts=2))
    con = sqlite3.connect(db, isolation_level=None)
    try:
        save(con, gid, doc)
    finally:
        con.close()
    return db


def open_page(serve: Serve, page: Any, analysed: Path, tmp_path: Path, lang: str) -> Any:
    db = tmp_path / "g.sqlite"
    shutil.copy(analysed, db)
    srv = serve(lambda: Hub.open_sim(options(db, analysis_playouts=2)))
    page.goto(link(srv, "player", lang=lang))
    page.wait_for_selector("#analysis-summary li.player")
    data: Any = page.evaluate("analysisView.data")
    return data


def labelled(data: Any) -> list[dict[str, Any]]:
    return [r for r in data["rows"] if r["type"] == "decision" and r["label"]]


def test_the_chart_has_axes_a_legend_and_a_key_to_the_marks(
    serve: Serve, page: Any, analysed: Path, tmp_path: Path
) -> None:
    data = open_page(serve, page, analysed, tmp_path, "en")
    moves = sum(1 for r in data["rows"] if r["type"] == "decision")
    # The win chance's axis from 0 to 100%, named; the moves' axis numbered, named.
    ys = [t.text_content() for t in page.locator("#analysis-chart .y-tick").all()]
    assert ys[0] == "0%" and ys[-1] == "100%" and "50%" in ys
    assert page.text_content("#analysis-chart .y-title") == "win chance"
    assert page.text_content("#analysis-chart .x-title") == "move"
    xs = [int(t.text_content()) for t in page.locator("#analysis-chart .x-tick").all()]
    assert len(xs) >= 3 and xs == sorted(xs) and xs[-1] <= moves
    # A legend of the teams' lines, in their colours; a key to ?!, ? and ??.
    legend = page.locator("#analysis-legend .legend-teams li")
    assert legend.count() == len(data["teams"]) == 2
    for team, li in zip(data["teams"], legend.all(), strict=True):
        assert li.get_attribute("data-seats") == ",".join(map(str, team))
        assert li.inner_text().startswith("team ") and "+" in li.inner_text()
    key = page.inner_text("#analysis-legend .legend-marks")
    for mark, word in (("?!", "inaccuracy"), ("?", "mistake"), ("??", "blunder")):
        assert f"{mark} {word}" in key
    assert "A dot is a move" in page.inner_text("#analysis-legend")
    shot(page, "review-chart-axes")
    page.click("#lang")  # Dutch: the axes and the key follow
    page.wait_for_function(
        "() => document.querySelector('#analysis-chart .y-title').textContent === 'winkans'"
    )
    assert page.text_content("#analysis-chart .x-title") == "zet"
    key = page.inner_text("#analysis-legend .legend-marks")
    assert "?! onnauwkeurigheid" in key and "?? blunder" in key and "? fout" in key


def shown_loss(page: Any, row: dict[str, Any]) -> float:
    """The loss the review of ``row`` shows beside its label."""
    sel = f"#analysis-chart .dot[data-n='{row['n']}'][data-move='{row['move']}'] title"
    title = page.locator(sel).text_content()
    m = re.search(r"\(−(\d+(?:[.,]\d+)?)%\)", title)
    assert m, title
    return float(m.group(1).replace(",", "."))


def test_a_mistake_says_why_in_words_and_never_loses_a_blunders_share(
    serve: Serve, page: Any, analysed: Path, tmp_path: Path
) -> None:
    data = open_page(serve, page, analysed, tmp_path, "en")
    rows = labelled(data)
    # Every label's losses shown stand apart: no mistake says -5% beside a blunder's -5%.
    shown: dict[str, list[float]] = {k: [] for k in ORDER}
    for r in rows:
        shown[r["label"]].append(shown_loss(page, r))
    for lower, higher in pairwise(ORDER):
        if shown[lower] and shown[higher]:
            assert max(shown[lower]) < min(shown[higher]), (lower, higher, shown)

    # "Next mistake" opens the first labelled move (everyone's: a player's page walks
    # its own seat's by default): the better move in words, not notation, and why.
    page.select_option("#mistake-whose", "all")
    page.click("#analysis-next-mistake")
    first = rows[0]
    page.wait_for_selector(f"#moves li.reviewed[data-n='{first['n']}']")
    facts = page.locator("#review-facts")
    label = facts.locator("li[data-fact='label']").inner_text()
    assert label.startswith(f"Verdict: {first['label']}")
    assert f"(−{shown_loss(page, first):g}%)" in label
    better = facts.locator("li[data-fact='better']").inner_text()
    assert better.startswith(f"Better move: {first['best']['words']['en']}")
    assert not NOTATION.search(better), better
    reason = facts.locator("li[data-fact='reason']").inner_text()
    assert reason == f"Why: {first['why']['en']}" and len(first["why"]["en"]) > 20
    shot(page, "review-mistake-why")

    # Walk on: the button, then Shift+arrows, back and forth.
    def at(row: dict[str, Any]) -> None:
        page.wait_for_selector(
            f"#moves li.reviewed[data-n='{row['n']}'][data-move='{row['move']}']"
        )

    page.click("#review-next-mistake")
    at(rows[1])
    page.keyboard.press("Shift+ArrowRight")
    at(rows[2])
    page.keyboard.press("Shift+ArrowLeft")
    at(rows[1])
    page.click("#review-prev-mistake")
    at(rows[0])
    assert "Shift+← → previous/next mistake" in page.inner_text("#review-keys")

    # A person's mistake tried again with the better move: "The best move!" once.
    mine = next(r for r in rows if r["seat"] in data["people"])
    while not page.locator(
        f"#moves li.reviewed[data-n='{mine['n']}'][data-move='{mine['move']}']"
    ).count():
        page.click("#review-next-mistake")
        page.wait_for_selector("#review-facts li[data-fact='label']")
    page.click("#retry-start")
    card = mine["best"]["move"].split()[0]
    page.click(f"#retry .card[data-card='{card}']")
    page.click(f"#retry .retry-moves button[data-move='{mine['best']['move']}']")
    page.wait_for_selector("#retry-verdict[data-outcome='best']", timeout=60_000)
    verdict = page.inner_text("#retry-verdict")
    assert verdict.startswith("The best move!") and "best choice" not in verdict.lower()

    # Dutch: the same review in Dutch words and numbers.
    page.click("#lang")
    page.wait_for_function(
        "() => document.querySelector('#review-next-mistake').textContent === 'Volgende fout'"
    )
    assert not re.search(r"\d\.\d", page.inner_text("#review-facts"))
    assert "Waarom: " in page.inner_text("#review-facts")
    # The hand tried again shows its cards as a Dutch deck prints them (H, V, B; this
    # game's hand may hold no king, queen or jack: then they read as the notation's).
    cards = [b.inner_text() for b in page.locator("#retry .card").all()]
    assert cards == [card_label(c).nl for c in mine["hand"]]
    shot(page, "review-mistake-why-nl")


def test_the_luck_split_is_said_in_words_first(
    serve: Serve, page: Any, analysed: Path, tmp_path: Path
) -> None:
    data = open_page(serve, page, analysed, tmp_path, "en")
    teams = page.locator("#analysis-summary li.team")
    assert teams.count() == len(data["summary"]["teams"])
    for tm, li in zip(data["summary"]["teams"], teams.all(), strict=True):
        text = li.inner_text()
        head = text.splitlines()[0]
        # Words first: who won or lost, and mostly by what; the numbers after.
        assert re.match(
            r"Team .+ (won|lost|ended), mostly by (its own moves|the others' moves|"
            r"the cards \(luck\))",
            head,
        ), head
        assert "own decisions" not in text and not re.search(r"[−+]\d+%", text), text
        own = li.locator("li[data-part='own']").inner_text()
        n = abs(round(100 * tm["own"]))
        verb = "gave" if tm["own"] >= 0 else "cost"
        assert own == f"Its own moves: {verb} {n} points of win chance"
        assert li.locator("li[data-part='cards']").inner_text().startswith("The cards (luck): ")
    assert "A point is one percent of win chance" in page.inner_text("#analysis-summary")
    shot(page, "review-luck-words")
    page.click("#lang")
    page.wait_for_function(
        "() => document.querySelector('#analysis-summary').innerText.includes('vooral door')"
    )
    summary = page.inner_text("#analysis-summary")
    assert "Eigen zetten: " in summary and "punten winkans" in summary
    assert "nauwkeurigheid" in summary and not re.search(r"\d\.\d", summary), summary


def test_a_chart_dot_says_its_move_in_words_in_the_pages_language(
    serve: Serve, page: Any, analysed: Path, tmp_path: Path
) -> None:
    data = open_page(serve, page, analysed, tmp_path, "nl")
    rows = {(r["n"], r["move"]): r for r in labelled(data)}
    dots = page.locator("#analysis-chart .dot")
    assert dots.count() == len(rows) > 1

    def row_of(dot: Any) -> dict[str, Any]:
        return rows[(int(dot.get_attribute("data-n")), dot.get_attribute("data-move"))]

    tip = page.locator("#analysis-tip")
    assert tip.is_hidden()
    # The mouse on the dot drawn last (on top of any it overlaps): the tip under the chart
    # says its move as the move list does, in Dutch, with no notation.
    top = dots.last
    row = row_of(top)
    top.hover()
    tip.wait_for(state="visible")
    said = tip.inner_text()
    assert said.startswith(f"{row['n']}. ") and row["words"]["nl"] in said, said
    assert not NOTATION.search(said) and row["move"] not in said, said
    assert top.locator("title").text_content() == said == top.get_attribute("aria-label")
    # Assistive technology finds it as a button named by its move, in the chart as a group
    # named by its title: ARIA makes an image's children presentational (some readers
    # hide them; Playwright and Chromium do not, hence the chart's role is looked for).
    title = page.locator("#analysis-title").inner_text()
    chart = page.get_by_role("group", name=title, exact=True)
    assert chart.get_by_role("button", name=said, exact=True).count() >= 1
    # The keyboard: a focused dot says its own move.
    first = dots.first
    other = row_of(first)
    assert other is not row
    page.mouse.move(0, 0)
    first.focus()
    page.wait_for_function(
        "(w) => document.querySelector('#analysis-tip').textContent.includes(w)",
        arg=other["words"]["nl"],
    )
    assert not NOTATION.search(tip.inner_text())
    shot(page, "analysis-dot-words-nl")
    # English: the words follow the language.
    page.click("#lang")
    page.wait_for_function(
        "(w) => document.querySelector('#analysis-chart .dot:last-of-type title')"
        ".textContent.includes(w)",
        arg=row["words"]["en"],
    )
    assert not NOTATION.search(top.locator("title").text_content() or "")
