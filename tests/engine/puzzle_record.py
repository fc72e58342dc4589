"""One puzzle as a line of a puzzles file (FORMATS.md), for the tests that serve or solve
puzzles from a file of their own (the command line's, the socket's), so the shipped
set's make-up does not matter to them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# Blue to play on T22 with A, 6, A; yellow on T28 with two pawns home: the 6 captures it.
# The tests' own, made from shipped puzzle kz-d8a48c0c with two of yellow's pawns home and
# two of green's out, so that the capture is clearly best by any leaf the judge may end
# its playouts in (docs/analysis.md "The switch, tried"): at the two mining budgets the
# hand-made leaf puts it 0.06 ahead of entering a pawn, the bot's fitted one 0.10, the
# judge's (since 2026-12-06) 0.073, just clear of its margin 0.07; the ace one step on
# (the tests' wrong answer) 0.08, 0.12 and 0.09 behind; play to the end 0.06 ahead. The
# numbers below are the judge's, at 400 playouts a candidate.
PUZZLE: dict[str, Any] = {
    "id": "kz-306675b8",
    "position": "NNNT60/NNNT22/NT28H2H4/NNT40T56 1 standard",
    "hand": ["A", "6", "A"],
    "card": "6",
    "solution": "6 1:T22-T28",
    "known": ["A", "K", "9", "2", "10", "5", "8", "A", "6", "4", "4"],
    "themes": ["capture"],
    "sizes": [3, 3, 3, 0],
    "win": 0.305,
    "gap": 0.073,
    "second": "A 1:N-S",
    "source": "the tests' own, from kz-d8a48c0c (selfplay 4 seats standard seed 2034, turn 8)",
}
PID = str(PUZZLE["id"])


def write_puzzle_file(path: Path) -> Path:
    """``path`` holding the one puzzle (a club's ``puzzles.jsonl``, or a ``--file``)."""
    path.write_text(json.dumps(PUZZLE) + "\n")
    return path
