"""A puzzle solved with the real pawns (issue 26 part 3, docs/puzzles.md): the page's
``puzzle`` request starts a game that sets the board up as the puzzle's position
(board_task.py: the flow lessons use too); the solver holds the puzzle's hand (taps the
card played on a reader, or without one may choose it on the page: ``puzzle_card``),
and the move made with the pawns is judged by engine/puzzles.judge off the loop: solved,
as good (within the margin), or not: then the better move is shown with its reason and
the move is taken back to be tried again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.puzzles import Puzzle, Verdict, judge, puzzle_seed
from keezbord.engine.text import Text

from .board_task import BoardTask, hold_text, holes_of, move_of_hand

if TYPE_CHECKING:
    from .hub import Hub

NOT_IN_HAND = Text(
    "Die zet kan met geen kaart uit je hand. Probeer het nog eens.",
    "No card of your hand makes that move. Try again.",
)


class PuzzlePlay(BoardTask):
    key = "puzzle"

    def __init__(self, hub: Hub, puzzle: Puzzle) -> None:
        super().__init__(hub)
        self.puzzle = puzzle
        self.chosen: str | None = None  # the card chosen on the page (no reader)
        self.verdict: Verdict | None = None
        self.tries = 0
        self.refused = False  # the last move was no move of the hand

    @classmethod
    def from_field(cls, hub: Hub, d: Mapping[str, Any]) -> PuzzlePlay:
        return cls(hub, Puzzle.from_json(d))

    def task(self) -> Text:
        return hold_text(
            self.puzzle.position,
            self.puzzle.hand,
            Text("speel de beste zet met de pionnen", "play the best move with the pawns"),
        )

    def judge(self, record: Mapping[str, Any]) -> None:
        if record.get("type") != "move" or self.judging:
            return
        p = self.puzzle
        tapped = self.hub.session.state.config.reader
        move = move_of_hand(p.position, record, p.hand, tapped, (self.chosen, p.card))
        self.tries += 1
        if move is None:
            self.verdict = None
            self.refused = True
            self.settle(False, take_back=True)
            return
        self.refused = False
        found = move
        self.off_loop(lambda: judge(p, found, seed=puzzle_seed(p.id)), self._judged)

    def _judged(self, v: Verdict) -> None:
        self.verdict = v
        self.settle(v.outcome != "wrong", take_back=v.outcome == "wrong")

    def choose(self, card: str) -> None:
        """The card the solver plays, chosen on the page (a board without a reader)."""
        self.chosen = card
        self.hub.changed()

    def view(self) -> dict[str, Any]:
        """The page's ``puzzle`` (docs/web.md)."""
        p, v = self.puzzle, self.verdict
        out: dict[str, Any] = {
            "id": p.id,
            "themes": list(p.themes),
            "seat": p.position.turn,
            "hand": list(p.hand),
            "known": list(p.known),
            "task": self.task().as_dict(),
            "chosen": self.chosen,
            "judging": self.judging,
            "tries": self.tries,
            "done": self.done,
            "verdict": None,
        }
        if self.refused:
            out["verdict"] = {"outcome": "wrong", "text": NOT_IN_HAND.as_dict(), "reason": None}
        elif v is not None:
            out["verdict"] = {
                "outcome": v.outcome,
                "played": v.played,
                "solution": v.solution,
                "played_win": v.played_win,
                "solution_win": v.solution_win,
                "text": v.text.as_dict(),
                "reason": None if v.reason is None else v.reason.as_dict(),
            }
            if v.outcome == "wrong":  # the better move, lit on the page's board
                out["verdict"]["better"] = {"move": v.solution, **holes_of(p.position, p.solution)}
        return out
