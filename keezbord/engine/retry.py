"""Learn from your mistakes (issue 27): a labelled decision set up again, the position
before it with the same hand, and the new move judged: the best, good enough (within an
inaccuracy of it), or still a mistake, in the coach's words.

A retry is a puzzle whose solution is the analysis's better move (puzzles.py judges it),
judged with the inaccuracy threshold as its margin. ``retry_target`` is what a board must
show for it: on the simulator the page puts it up at once; on a real board the LED
set-up mode (issue 26 part 1) is to take it from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .analysis import THRESHOLDS, Row
from .describe import describe_move
from .hand_record import TurnRecord
from .notation import Move, parse_move
from .position import Position
from .puzzles import JUDGE_PLAYOUTS, Puzzle, judge, puzzle_id
from .text import Text

GOOD_ENOUGH = THRESHOLDS[-1][1]  # a new move losing less than an inaccuracy is fine

Outcome = Literal["best", "good", "mistake"]


def retry_target(turn: TurnRecord) -> tuple[Position, tuple[str, ...]]:
    """The position to set up (the seat to play on turn) and the hand to hold."""
    return turn.pos, turn.hand


def as_puzzle(turn: TurnRecord, row: Row) -> Puzzle:
    pos = turn.pos
    best = parse_move(row.best_move, pos.topology)
    return Puzzle(
        puzzle_id(pos, turn.hand),
        pos,
        turn.hand,
        turn.known.seen,
        turn.known.hand_sizes,
        best.card,
        best,
        (),
        row.best_win,
        row.loss,
        row.move,
        f"move {row.n}",
    )


@dataclass(frozen=True, slots=True)
class RetryVerdict:
    outcome: Outcome
    move: str
    best: str
    win: float | None  # None: the best move itself, not played out again
    best_win: float | None
    text: Text

    def to_dict(self, lang: str | None = None) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "move": self.move,
            "best": self.best,
            "win": None if self.win is None else round(self.win, 3),
            "best_win": None if self.best_win is None else round(self.best_win, 3),
            "text": self.text.as_dict() if lang is None else self.text.get(lang),
        }


def judge_retry(
    turn: TurnRecord,
    row: Row,
    move: Move | str,
    *,
    playouts: int = JUDGE_PLAYOUTS,
    seed: int = 0,
) -> RetryVerdict:
    """The new move for the decision of ``row`` (IllegalMoveError if the hand or the
    rules do not allow it)."""
    puzzle = as_puzzle(turn, row)
    v = judge(puzzle, move, playouts=playouts, seed=seed, margin=GOOD_ENOUGH)
    if v.outcome == "solved":
        why = v.reason or Text("", "")
        if why.en == "the best choice":  # says nothing "The best move!" does not (issue 40)
            why = Text("", "")
        text = Text(
            f"De beste zet! {_cap(why.nl)}".strip(), f"The best move! {_cap(why.en)}".strip()
        )
        return RetryVerdict("best", v.played, v.solution, None, None, text)
    if v.outcome == "good":
        assert v.played_win is not None and v.solution_win is not None
        pos = puzzle.position  # the best move in words, not notation (issue 40, item 14)
        best = describe_move(pos, parse_move(v.solution, pos.topology))
        text = Text(
            f"Goed genoeg: geschatte winkans van je team {_pct(v.played_win)} na jouw zet, "
            f"{_pct(v.solution_win)} na de beste zet ({_low(best.nl)}).",
            f"Good enough: your team's estimated win chance {_pct(v.played_win)} after your "
            f"move, {_pct(v.solution_win)} after the best move ({_low(best.en)}).",
        )
        return RetryVerdict("good", v.played, v.solution, v.played_win, v.solution_win, text)
    text = Text(f"Nog steeds een fout. {v.text.nl}", f"Still a mistake. {v.text.en}")
    return RetryVerdict("mistake", v.played, v.solution, v.played_win, v.solution_win, text)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] + ("." if s and not s.endswith(".") else "")


def _low(s: str) -> str:
    return s[:1].lower() + s[1:]


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"
