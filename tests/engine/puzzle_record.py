"""One puzzle as a line of a puzzles file (FORMATS.md), for the tests that serve or solve
puzzles from a file of their own (the command line's, the socket's), so the shipped
set's make-up does not matter to them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# Blue to play on T22 with A, 6, A; yellow on T28: the 6 captures it.
PUZZLE: dict[str, Any] = {
    "id": "kz-d8a48c0c",
    "position": "NNNT60/NNNT22/NNNT28/NNNN 1 standard",
    "hand": ["A", "6", "A"],
    "card": "6",
    "solution": "6 1:T22-T28",
    "known": ["A", "K", "9", "2", "10", "5", "8", "A", "6", "4", "4"],
    "themes": ["capture"],
    "sizes": [3, 3, 3, 0],
    "win": 0.447,
    "gap": 0.077,
    "second": "A 1:N-S",
    "source": "selfplay 4 seats standard seed 2034, turn 8",
}
PID = str(PUZZLE["id"])


def write_puzzle_file(path: Path) -> Path:
    """``path`` holding the one puzzle (a club's ``puzzles.jsonl``, or a ``--file``)."""
    path.write_text(json.dumps(PUZZLE) + "\n")
    return path
