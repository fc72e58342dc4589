"""A puzzle solved with the real pawns (issue 26 part 3, docs/puzzles.md): the page's
``puzzle`` request starts a game that sets the board up as the puzzle's position
(board_task.py: the flow lessons use too); the solver holds the puzzle's hand (taps the
card played on a reader, or without one may choose it on the page: ``puzzle_card``),
and the move made with the pawns is judged by engine/puzzles.judge off the loop: solved,
as good (within the margin), or not: then the verdict and its reason are shown, but not
the answer, and the move is taken back to be tried again. On request (``puzzle_help``)
a hint (the card, then the pawn, lit), then the answer (written out and lit). A solve
says whether it was at the first try; a learner's (the lessons' name) is kept in the
journal beside their lessons (host/lessons/progress.py) and counted (issue 40)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.movegen import apply_part
from keezbord.engine.notation import Step
from keezbord.engine.puzzle_help import (
    HINTS,
    answer_text,
    hint,
    solved_note,
    solved_text,
    wrong_text,
)
from keezbord.engine.puzzles import Puzzle, Verdict, judge, puzzle_seed
from keezbord.engine.text import Text
from keezbord.host.lessons import ANSWER_SHOWN, Progress

from .actions import pawns_of
from .board_task import BoardTask, hold_text, holes_of, move_holes, move_of_hand

if TYPE_CHECKING:
    from .hub import Hub

NOT_IN_HAND = Text(
    "Die zet kan met geen kaart uit je hand. Probeer het nog eens.",
    "No card of your hand makes that move. Try again.",
)


class PuzzlePlay(BoardTask):
    key = "puzzle"

    def __init__(self, hub: Hub, puzzle: Puzzle, learner: str | None = None) -> None:
        super().__init__(hub)
        self.puzzle = puzzle
        self.learner = learner  # the lessons' name: the first-try solves are kept
        self.chosen: str | None = None  # the card chosen on the page (no reader)
        self.verdict: Verdict | None = None
        self.tries = 0  # moves made (a move of no card of the hand too)
        self.answers = 0  # moves judged
        self.helped = 0  # 1, 2: the hints asked; ANSWER_SHOWN: the answer
        self.refused = False  # the last move was no move of the hand
        self.told: Text | None = None  # the verdict in words, as the solver may read it
        self.first_try: bool | None = None  # once solved
        self.first_tries: int | None = None  # the learner's count, once solved

    @classmethod
    def from_field(cls, hub: Hub, d: Mapping[str, Any]) -> PuzzlePlay:
        learner = d.get("learner")
        return cls(hub, Puzzle.from_json(d), learner if isinstance(learner, str) else None)

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
            self.verdict, self.told = None, None
            self.refused = True
            self.settle(False, take_back=True)
            return
        self.refused = False
        found = move
        self.off_loop(lambda: judge(p, found, seed=puzzle_seed(p.id)), self._judged)

    def _judged(self, v: Verdict) -> None:
        self.verdict = v
        self.answers += 1
        right = v.outcome != "wrong"
        tries, helped, first = self.answers, self.helped, self.answers == 1 and not self.helped
        if self.learner is not None:
            with Progress(self.hub.opts.db) as prog:
                prog.puzzle_answered(self.learner, self.puzzle.id, right)
                rec = prog.puzzle(self.learner, self.puzzle.id)
                self.first_tries = prog.first_tries(self.learner)
            assert rec is not None
            tries, helped, first = rec.tries, rec.helped, rec.first_try
        if right:
            self.first_try = first
            self.told = solved_text(self.puzzle, v, solved_note(tries, helped, first))
        else:
            self.told = wrong_text(v)
        self.settle(right, take_back=not right)

    def choose(self, card: str) -> None:
        """The card the solver plays, chosen on the page (a board without a reader)."""
        self.chosen = card
        self.hub.changed()

    def help(self, what: str) -> None:
        """A hint (the next one) or the answer, asked on the page: from now on a solve
        is no first-try solve (kept so for a learner)."""
        level = ANSWER_SHOWN if what == "answer" else min(self.helped + 1, HINTS)
        self.helped = max(self.helped, level)
        if self.learner is not None:
            with Progress(self.hub.opts.db) as prog:
                prog.puzzle_helped(self.learner, self.puzzle.id, self.helped)
        for f in self.hub.heard:  # the voice says the hint (docs/voice.md)
            f("task", None)
        self.hub.changed()

    def _lit(self) -> list[str]:
        """The holes lit on the page's drawing: the answer's move once shown, the
        hint's pawn once the second hint is asked."""
        p = self.puzzle
        if self.helped >= ANSWER_SHOWN:
            h = holes_of(p.position, p.solution)
            return sorted({*h["left"], *h["reached"]})
        if self.helped >= HINTS:
            part = p.solution.parts[0]
            seat = part.seat if isinstance(part, Step) else part.seat_a
            before = {q["hole"]: q["seat"] for q in pawns_of(p.position)}
            left = move_holes(p.position, apply_part(p.position, part))["left"]
            return [h for h in left if before.get(h) == seat][:1]
        return []

    def view(self) -> dict[str, Any]:
        """The page's ``puzzle`` (docs/web.md): the answer (and the themes, which would
        give it away) only once asked for or solved."""
        p, v = self.puzzle, self.verdict
        shown = self.helped >= ANSWER_SHOWN or self.done
        hints = min(self.helped, HINTS)
        out: dict[str, Any] = {
            "id": p.id,
            "themes": list(p.themes) if self.done else [],
            "seat": p.position.turn,
            "hand": list(p.hand),
            "known": list(p.known),
            "task": self.task().as_dict(),
            "chosen": self.chosen,
            "judging": self.judging,
            "tries": self.tries,
            "done": self.done,
            "learner": self.learner,
            "hints": [hint(p, n).as_dict() for n in range(1, hints + 1)],
            "more_hints": not self.done and hints < HINTS and not shown,
            "answer": answer_text(p).as_dict() if shown and not self.done else None,
            "lit": [] if self.done else self._lit(),
            "first_try": self.first_try,
            "first_tries": self.first_tries,
            "verdict": None,
        }
        if self.refused:
            out["verdict"] = {"outcome": "wrong", "text": NOT_IN_HAND.as_dict()}
        elif v is not None and self.told is not None:
            out["verdict"] = {
                "outcome": v.outcome,
                "played": v.played,
                "played_win": v.played_win,
                "solution_win": v.solution_win,
                "text": self.told.as_dict(),
            }
            if shown:
                out["verdict"]["solution"] = v.solution
        return out
