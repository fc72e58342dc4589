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

from keezbord.host.lessons import Lesson, Progress, Verdict, judge_record, lesson
from keezbord.host.sim.restore import put_back_on

from .instruction import MODE, Instruction

if TYPE_CHECKING:
    from .hub import Hub


class LessonPlay:
    def __init__(self, hub: Hub, les: Lesson, step: int, learner: str | None) -> None:
        self.hub = hub
        self.lesson = les
        self.step = step  # 0-based
        self.learner = learner
        self.verdict: Verdict | None = None

    @classmethod
    def of_setup(cls, hub: Hub, raw: Mapping[str, Any]) -> LessonPlay | None:
        """The lesson a game's setup line names (``"lesson"``), if any."""
        d = raw.get("lesson")
        if not isinstance(d, dict):
            return None
        try:
            return cls(hub, lesson(str(d["id"])), int(d["step"]), d.get("learner"))
        except (KeyError, ValueError, TypeError):
            return None

    def __call__(self, records: list[dict[str, Any]]) -> None:
        """The referee's decisions on an input (the hub's observers)."""
        st = self.lesson.steps[self.step]
        for r in records:
            if self.verdict is not None and self.verdict.result == "right":
                return  # the step is done: what follows is the game going on
            v = judge_record(st, r)
            if v is None:
                continue
            self.verdict = v
            self.hub.instruct("lesson", self.instruction())  # done: the game's own step
            if v.result == "right" and self.learner:
                prog = Progress(self.hub.opts.db)
                try:
                    prog.done(self.learner, self.lesson.id, self.step)
                finally:
                    prog.close()
            elif v.result == "other":
                self.hub.call_soon(self._take_back)  # taken back: try again

    def _take_back(self) -> None:
        """Undo the move; in the simulator the simulated table puts the pawns back
        itself (as the page's undo does there), on a real board the lights show how."""
        hub = self.hub
        if hub.bots is not None:
            hub.bots.cancel()  # the next seat's bot waits: the learner plays again
        hub.undo()
        if hub.sim is not None and hub.opts.mode == "sim":
            put_back_on(hub)

    def instruction(self) -> Instruction | None:
        """The step's task in the instruction line (once the board is set up: the set-up's
        own instruction comes first) until it is done."""
        if self.verdict is not None and self.verdict.result == "right":
            return None
        return Instruction(self.lesson.steps[self.step].task, "lesson", rank=MODE)

    def view(self) -> dict[str, Any]:
        """The page's ``lesson`` (docs/web.md)."""
        st = self.lesson.steps[self.step]
        return {
            "id": self.lesson.id,
            "title": self.lesson.title.as_dict(),
            "step": self.step + 1,
            "steps": len(self.lesson.steps),
            "task": st.task.as_dict(),
            "card": st.card,
            "hand": list(st.hand),
            "learner": self.learner,
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
        }


def attach(hub: Hub) -> None:
    """The hub's game is a lesson's step (its setup names one): judge it; else no more."""
    hub.observers[:] = [o for o in hub.observers if not isinstance(o, LessonPlay)]
    play = LessonPlay.of_setup(hub, hub.session.setup_raw)
    if play is not None:
        hub.observers.append(play)
    hub.instruct("lesson", None if play is None else play.instruction())


def lesson_view(hub: Hub) -> dict[str, Any] | None:
    """The page state's ``lesson``: the step being played, null when none is."""
    play = next((o for o in hub.observers if isinstance(o, LessonPlay)), None)
    return None if play is None else play.view()
