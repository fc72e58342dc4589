"""The shared conformance games and the worked opening example, through ``keezbord replay``'s
own code path: every move accepted in order, nothing flagged."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from keezbord.host.referee.replay import replay
from keezbord.host.referee.trace import parse_trace

GAMES = ("g101-4seats-standard", "g102-6seats-standard", "g103-4seats-keezspel", "g104-2seats-nk")


def _replay(path: Path) -> list[dict[str, Any]]:
    setup, events = parse_trace(path.read_text(encoding="utf-8").splitlines())
    return list(replay(setup, events))


def _pawns(rows: list[list[str]]) -> list[list[str]]:
    return [sorted(r) for r in rows]


@pytest.mark.parametrize("name", GAMES)
def test_conformance_game(shared_dir: Path, name: str) -> None:
    games = shared_dir / "conformance" / "games"
    expect = json.loads((games / f"{name}.expect.json").read_text())
    out = _replay(games / f"{name}.trace.jsonl")
    moves = [d for d in out if d["type"] == "move"]
    assert [(m["seat"], _pawns(m["position"]["pawns"])) for m in moves] == [
        (e["seat"], _pawns(e["pawns"])) for e in expect["moves"]
    ]
    discards = [d for d in out if d["type"] == "discard"]
    assert all(d["ok"] for d in discards)
    assert len(discards) == expect["discards_ok"]
    bad = ("illegal", "second_card", "ambiguous", "card_rejected")
    assert [d for d in out if d["type"] in bad] == []
    wins = [d["seats"] for d in out if d["type"] == "win"]
    assert wins == ([] if expect["win"] is None else [expect["win"]])
    assert out[-1]["type"] == "state"


def test_opening_example(shared_dir: Path) -> None:
    ex = shared_dir / "examples"
    out = _replay(ex / "opening.trace.jsonl")
    essential = [d for d in out if d["type"] not in ("turn", "leds")]
    summary = [(d["type"], d.get("seat"), d.get("move"), d.get("ok")) for d in essential]
    assert summary[:6] == [
        ("move", 0, "K 0:N-S", None),
        ("move", 1, "A 1:N-S", None),
        ("card_rejected", 2, None, None),
        ("discard", 2, None, True),
        ("move", 3, "K 3:N-S", None),
        ("move", 0, "4 0:S-T60", None),
    ]
    assert essential[2]["card"] == "5"
    text = (ex / "opening.decisions.md").read_text()
    final = json.loads(re.search(r"pawns `(\[\[.*?\]\])`", text).group(1))  # type: ignore[union-attr]
    assert out[-1]["type"] == "state"
    assert _pawns(out[-1]["position"]["pawns"]) == _pawns(final)
    assert out[-1]["position"]["turn"] == 1
