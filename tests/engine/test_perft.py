"""Legal-move counts of fixed positions against the checked-in golden file
(tests/engine/golden/perft.json, written by make_perft.py; see golden/README.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from keezbord.engine.cards import RANKS
from keezbord.engine.position import Position

GOLDEN_DIR = Path(__file__).with_name("golden")
sys.path.insert(0, str(GOLDEN_DIR))
import make_perft  # noqa: E402

GOLDEN: dict[str, Any] = json.loads((GOLDEN_DIR / "perft.json").read_text())


def test_golden_covers_every_card_seat_count_and_profile() -> None:
    entries = GOLDEN["positions"]
    assert {p["position"]["seats"] for p in entries} == set(range(2, 9))
    assert {p["position"]["profile"] for p in entries} == {
        "standard",
        "keezspel",
        "wikipedia",
        "reiseditie",
        "nk",
        "bordspel",
    }
    for p in entries:
        assert set(p["counts"]) == set(RANKS)
    assert sum(p["counts"]["7"][0] for p in entries) > 100


@pytest.mark.parametrize("entry", GOLDEN["positions"], ids=lambda e: e["name"])
def test_counts_match_golden(entry: dict[str, Any]) -> None:
    pos = Position.from_dict(entry["position"])
    got = {card: make_perft.counts(pos, card) for card in RANKS}
    assert got == entry["counts"]


@pytest.mark.parametrize("entry", GOLDEN["depth2"], ids=lambda e: e["name"])
def test_depth2_matches_golden(entry: dict[str, Any]) -> None:
    pos = Position.from_dict(make_perft.POSITIONS[entry["name"]])
    assert make_perft.depth2(pos, tuple(entry["cards"])) == entry["moves"]


def test_hand_checked_counts() -> None:
    """Counted by hand from RULES.md (see golden/README.md)."""
    by_name = {p["name"]: p["counts"] for p in GOLDEN["positions"]}
    fe = by_name["formats_example"]
    assert fe["A"] == [2, 2] and fe["4"] == [2, 2] and fe["J"] == [2, 2]
    assert fe["K"] == [0, 0] and fe["7"] == [14, 8]
    assert by_name["team_control_enter"]["A"] == [1, 1]
    assert by_name["seven_remainder_to_partner"]["7"] == [2, 2]
    assert by_name["seven_remainder_to_partner"]["5"] == [0, 0]
    assert by_name["mid_seven_win"]["7"] == [1, 1]
    wi = by_name["wikipedia_5_individual"]
    assert wi["A"] == [4, 4] and wi["2"] == [2, 2] and wi["3"] == [2, 2]
    assert wi["5"] == [0, 0] and wi["7"] == [4, 3]


def test_golden_file_is_what_the_generator_writes() -> None:
    assert make_perft.build() == GOLDEN
