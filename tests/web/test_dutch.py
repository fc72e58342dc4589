"""Issue 25 item 12, Dutch loose ends, in real headless Chromium: in Dutch a card reads as
a Dutch deck prints it (H, V, B for the king, queen and jack, as ../shared/seeds' rule
texts write them), in the tray, "Gespeeld", a refused card and a hand shown; English
keeps K, Q, J. (A touch screen told "tik": test_instruction_line.py; "bot (gretig)":
test_page_cosmetics.py.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, sim_hub

from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]


def test_cards_read_h_v_b_in_dutch_and_k_q_j_in_english(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Seed 0: red to play holding K, 9, 8, Q, 2, every pawn in the nest.
    srv = serve(sim_hub(tmp_path / "g.sqlite", 0))
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(".card[data-card='K']:not([disabled])")
    labels = [t.split()[0] for t in page.locator("#cards .card").all_inner_texts()]
    assert labels == ["H", "9", "8", "V", "2"]
    page.click(".card[data-card='Q']")  # no pawn out: the queen is refused
    page.wait_for_selector("#log li[data-kind='card_rejected']")
    refused = page.inner_text("#log li[data-kind='card_rejected']")
    assert "V: " in refused and "Q" not in refused, refused
    page.click(".card[data-card='K']")
    page.wait_for_selector("#played:not(:empty)")
    assert page.inner_text("#played") == "Gespeeld: H"
    assert page.inner_text("#instruction-text").startswith("Gespeeld: H — ")
    page.click("#lang")
    page.wait_for_selector("html[lang='en']")
    assert [t.split()[0] for t in page.locator("#cards .card").all_inner_texts()] == [
        "K",
        "9",
        "8",
        "Q",
        "2",
    ]
    assert page.inner_text("#played") == "Played: K"


def test_a_hand_shown_names_its_cards_the_dutch_way(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    # Seed 9: red to play with 10, 3, 9, Q, 3 and nothing to move: it shows its hand.
    srv = serve(sim_hub(tmp_path / "g.sqlite", 9))
    page.goto(link(srv, lang="nl"))
    page.wait_for_selector(".card[data-card='Q']:not([disabled])")
    page.click("#discard")
    page.wait_for_selector("#moves li[data-kind='discard']", timeout=10000)
    said = page.inner_text("#moves li[data-kind='discard']")
    assert "(10, 3, 9, V, 3)" in said and "Q" not in said, said
    page.click("#lang")
    page.wait_for_selector("#moves li[data-kind='discard']:has-text('(10, 3, 9, Q, 3)')")
