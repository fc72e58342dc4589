"""Write tests/engine/golden/perft.json: legal-move counts for fixed positions.

For every position below and every card: the number of distinct legal moves (by
notation) and of distinct resulting positions. Plus "depth 2" counts: for a fixed card
sequence, the sum over every move of the first card of the number of moves of the next
card for the next seat. See README.md for how the positions were chosen and which counts
were checked by hand.

Run from the repo root:  .venv/bin/python tests/engine/golden/make_perft.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from keezbord.engine.cards import RANKS
from keezbord.engine.movegen import successors
from keezbord.engine.position import Position

OUT = Path(__file__).with_name("perft.json")

N4 = ["N", "N", "N", "N"]
H4 = ["H1", "H2", "H3", "H4"]

# name -> position (JSON form). Literal positions so the golden file never depends on
# game play or on the random generator of the day.
POSITIONS: dict[str, dict[str, Any]] = {
    # --- hand-built, small enough to count by hand ---
    "formats_example": {
        "seats": 4,
        "profile": "standard",
        "turn": 0,
        "pawns": [["S", "T20", "N", "N"], ["T33", "N", "N", "N"], ["H4", "H3", "T60", "N"], N4],
    },
    "opening_2": {"seats": 2, "profile": "standard", "turn": 0, "pawns": [N4, N4]},
    "team_control_enter": {
        "seats": 4,
        "profile": "standard",
        "turn": 0,
        "pawns": [H4, ["T20", "N", "N", "N"], N4, ["T50", "N", "N", "N"]],
    },
    "seven_remainder_to_partner": {
        "seats": 4,
        "profile": "standard",
        "turn": 0,
        "pawns": [["H2", "H3", "H4", "T62"], ["T20", "N", "N", "N"], ["T40", "S", "N", "N"], N4],
    },
    "mid_seven_win": {
        "seats": 4,
        "profile": "bordspel",
        "turn": 0,
        "pawns": [["H2", "H3", "H4", "T62"], ["T20", "N", "N", "N"], H4, N4],
    },
    "blockades_nk": {
        "seats": 4,
        "profile": "nk",
        "turn": 0,
        "pawns": [
            ["T12", "T14", "T61", "N"],
            ["S", "T9", "N", "N"],
            ["T3", "N", "N", "N"],
            ["S", "T44", "N", "N"],
        ],
    },
    "may_pass_keezspel": {
        "seats": 4,
        "profile": "keezspel",
        "turn": 0,
        "pawns": [
            ["T0", "T62", "T2", "H4"],
            ["T5", "T30", "N", "N"],
            ["T1", "T60", "N", "N"],
            ["T63", "N", "N", "N"],
        ],
    },
    "king13_reiseditie": {
        "seats": 6,
        "profile": "reiseditie",
        "turn": 1,
        "pawns": [
            ["T3", "N", "N", "N"],
            ["T16", "T7", "H2", "N"],
            ["S", "T40", "N", "N"],
            ["T50", "N", "N", "N"],
            ["T29", "N", "N", "N"],
            ["T90", "H1", "N", "N"],
        ],
    },
    "wikipedia_5_individual": {
        "seats": 5,
        "profile": "wikipedia",
        "turn": 2,
        "pawns": [
            ["H2", "H3", "H4", "N"],
            ["T30", "N", "N", "N"],
            ["T31", "T28", "H1", "N"],
            N4,
            ["T35", "N", "N", "N"],
        ],
    },
    # Seat 0 all home without teams: it has won, and controls nobody's pawns.
    "teams_none_4": {
        "seats": 4,
        "profile": "standard",
        "teams": "none",
        "turn": 0,
        "pawns": [H4, ["T20", "N", "N", "N"], ["T40", "N", "N", "N"], N4],
    },
    "segment_12_3": {
        "seats": 3,
        "segment": 12,
        "profile": "standard",
        "turn": 2,
        "pawns": [["T5", "N", "N", "N"], ["S", "N", "N", "N"], ["T20", "T33", "H4", "N"]],
    },
    # --- crowded mid-game positions (the most crowded moment of seeded greedy games) ---
    "mid_2_nk": {
        "seats": 2,
        "profile": "nk",
        "turn": 0,
        "pawns": [["N", "N", "S", "H4"], ["N", "S", "T19", "T22"]],
    },
    "mid_3_keezspel": {
        "seats": 3,
        "profile": "keezspel",
        "turn": 1,
        "pawns": [["S", "T12", "H3", "H4"], ["T19", "T27", "H3", "H4"], ["S", "T5", "H3", "H4"]],
    },
    "mid_4_standard": {
        "seats": 4,
        "profile": "standard",
        "turn": 3,
        "pawns": [
            ["S", "T49", "T59", "H1"],
            ["S", "T14", "H2", "H4"],
            ["N", "S", "T63", "H3"],
            ["N", "N", "T20", "H4"],
        ],
    },
    "mid_5_wikipedia": {
        "seats": 5,
        "profile": "wikipedia",
        "turn": 3,
        "pawns": [
            ["N", "T68", "T70", "T76"],
            ["N", "S", "T79", "H4"],
            ["N", "N", "N", "S"],
            ["N", "N", "N", "S"],
            ["T44", "T55", "T58", "H3"],
        ],
    },
    "mid_6_reiseditie": {
        "seats": 6,
        "profile": "reiseditie",
        "turn": 4,
        "pawns": [
            ["N", "S", "T31", "H4"],
            ["T65", "H2", "H3", "H4"],
            ["T1", "T30", "H3", "H4"],
            ["S", "T8", "H3", "H4"],
            ["S", "T34", "T73", "H4"],
            ["S", "T28", "H2", "H4"],
        ],
    },
    "mid_7_bordspel": {
        "seats": 7,
        "profile": "bordspel",
        "turn": 5,
        "pawns": [
            ["N", "N", "N", "T25"],
            ["N", "N", "N", "T36"],
            ["T28", "T50", "H1", "H4"],
            ["N", "N", "N", "T63"],
            ["N", "S", "T54", "H2"],
            ["N", "S", "T92", "H3"],
            ["N", "N", "T13", "H4"],
        ],
    },
    "mid_8_keezspel": {
        "seats": 8,
        "profile": "keezspel",
        "turn": 5,
        "pawns": [
            ["N", "S", "H3", "H4"],
            ["S", "T3", "H1", "H4"],
            ["S", "T1", "T53", "H2"],
            ["N", "S", "T31", "H4"],
            ["S", "T74", "T76", "T115"],
            ["N", "T46", "T85", "H4"],
            ["N", "N", "N", "H3"],
            ["N", "T19", "H2", "H3"],
        ],
    },
    "mid_8_reiseditie": {
        "seats": 8,
        "profile": "reiseditie",
        "turn": 3,
        "pawns": [
            ["N", "T124", "H3", "H4"],
            ["T21", "H1", "H3", "H4"],
            ["S", "T44", "T116", "H4"],
            ["N", "N", "T41", "T115"],
            ["T13", "T22", "H1", "H3"],
            ["N", "N", "T76", "H4"],
            ["S", "T39", "T87", "H4"],
            ["N", "T59", "T60", "T114"],
        ],
    },
    "mid_6_nk": {
        "seats": 6,
        "profile": "nk",
        "turn": 0,
        "pawns": [
            ["S", "T13", "H1", "H4"],
            ["N", "S", "T45", "H4"],
            ["N", "N", "S", "H4"],
            ["T12", "T37", "T58", "H4"],
            ["N", "N", "T94", "H4"],
            ["N", "S", "T6", "H4"],
        ],
    },
    "mid_4_keezspel": {
        "seats": 4,
        "profile": "keezspel",
        "turn": 2,
        "pawns": [
            ["T20", "T28", "T30", "H4"],
            ["S", "T13", "T14", "T63"],
            ["S", "T38", "T50", "H4"],
            ["N", "T1", "H2", "H4"],
        ],
    },
}

# (position name, card sequence) for depth-2 counts.
DEPTH2: list[tuple[str, tuple[str, str]]] = [
    ("formats_example", ("7", "4")),
    ("mid_4_standard", ("7", "7")),
    ("mid_8_reiseditie", ("J", "K")),
    ("may_pass_keezspel", ("7", "J")),
]


def counts(pos: Position, card: str) -> list[int]:
    """[distinct legal moves by notation, distinct resulting positions]."""
    moves: set[str] = set()
    after: set[Position] = set()
    for move, a in successors(pos, card):
        moves.add(str(move))
        after.add(a)
    return [len(moves), len(after)]


def depth2(pos: Position, cards: tuple[str, str]) -> int:
    first, second = cards
    return sum(counts(a, second)[0] for _, a in successors(pos, first))


def build() -> dict[str, Any]:
    out: dict[str, Any] = {"positions": [], "depth2": []}
    for name, data in POSITIONS.items():
        pos = Position.from_dict(data)
        out["positions"].append(
            {"name": name, "position": data, "counts": {c: counts(pos, c) for c in RANKS}}
        )
    for name, cards in DEPTH2:
        pos = Position.from_dict(POSITIONS[name])
        out["depth2"].append({"name": name, "cards": list(cards), "moves": depth2(pos, cards)})
    return out


def main() -> int:
    OUT.write_text(json.dumps(build(), indent=1) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
