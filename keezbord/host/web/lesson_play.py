"""A lesson's step played from the page (issue 26 part 2): the page's ``lesson`` request
starts a game that sets the board up as the step's position (on a real board the set-up
mode, docs/setup.md; the simulated board shows it at once, the learner holding the
step's hand as the simulated hand) and then lets the learner play; each decision of the referee
is judged against the step (lessons/judge.py). A right move is kept in the learner's
progress (the journal's ``lesson_progress``); a legal move that is not the task is
taken back (undo: the board shows where to put the pawns back) so the learner tries
again; a refused one is the referee's flag, with the rule it breaks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.text import Text
from keezbord.host.lessons import (
    Lesson,
    Progress,
    Verdict,
    judge_record,
    lesson,
    named_holes,
    next_step,
)

from .board_task import BoardTask

if TYPE_CHECKING:
    from .hub import Hub


class LessonPlay(BoardTask):
    key = "lesson"

    def __init__(self, hub: Hub, les: Lesson, step: int, learner: str | None) -> None:
        super().__init__(hub)
        self.lesson = les
        self.step = step  # 0-based
        self.learner = learner
        self.verdict: Verdict | None = None

    @classmethod
    def from_field(cls, hub: Hub, d: Mapping[str, Any]) -> LessonPlay:
        return cls(hub, lesson(str(d["id"])), int(d["step"]), d.get("learner"))

    def judge(self, record: Mapping[str, Any]) -> None:
        old = self.verdict
        if old is not None and old.result != "right":
            # A new try: the old verdict goes once the board is put right (a wrong one)
            # or a card is tapped again (issue 40, item 11).
            kind = record.get("type")
            if kind == "card" or (kind == "resolved" and old.result == "wrong"):
                self.verdict = None
                self.hub.changed()
        v = judge_record(self.lesson.steps[self.step], record)
        if v is None:
            return
        self.verdict = v
        if v.result == "right" and self.learner:
            prog = Progress(self.hub.opts.db)
            try:
                prog.done(self.learner, self.lesson.id, self.step)
            finally:
                prog.close()
        self.settle(v.result == "right", take_back=v.result == "other")

    def task(self) -> Text:
        return self.lesson.steps[self.step].task

    def view(self) -> dict[str, Any]:
        """The page's ``lesson`` (docs/web.md)."""
        st = self.lesson.steps[self.step]
        right = self.verdict is not None and self.verdict.result == "right"
        nxt = next_step(self.lesson.id, self.step) if right else None
        return {
            "id": self.lesson.id,
            "title": self.lesson.title.as_dict(),
            "intro": self.lesson.intro.as_dict(),
            "step": self.step + 1,
            "steps": len(self.lesson.steps),
            "task": st.task.as_dict(),
            "holes": named_holes(st.task.en),
            "next": nxt,
            "course_done": right and nxt is None,
            "card": st.card,
            "hand": list(st.hand),
            "learner": self.learner,
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
        }
