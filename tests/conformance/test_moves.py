"""Every conformance vector of ../shared/conformance/moves.jsonl: the engine's legal moves
of the card must lead to exactly the expected set of positions (pawns only, compared as
sets, turn ignored)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keezbord.engine.movegen import successors
from keezbord.engine.position import Position


def _vectors(shared: Path) -> list[dict[str, Any]]:
    path = shared / "conformance" / "moves.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} missing: conformance vectors NOT run")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_vector_file_is_complete(shared_dir: Path) -> None:
    vectors = _vectors(shared_dir)
    assert len(vectors) >= 150
    assert {v["card"] for v in vectors} == {
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
    }


def test_every_vector(shared_dir: Path) -> None:
    failures = []
    for i, vec in enumerate(_vectors(shared_dir), 1):
        pos = Position.from_dict(vec["position"])
        got = {
            tuple(tuple(row) for row in after.pawn_strings())
            for _, after in successors(pos, vec["card"])
        }
        want = {tuple(tuple(row) for row in exp) for exp in vec["expect"]}
        if got != want:
            failures.append(
                f"line {i} card {vec['card']}: missing {sorted(want - got)[:2]}, "
                f"extra {sorted(got - want)[:2]}"
            )
    assert not failures, "\n".join(failures)


def test_resulting_turn_is_next_seat(shared_dir: Path) -> None:
    for vec in _vectors(shared_dir):
        pos = Position.from_dict(vec["position"])
        for _, after in successors(pos, vec["card"]):
            assert after.turn == (pos.turn + 1) % pos.seats
