"""The course (issue 26 part 2): one concept a lesson, in words a child of ten follows,
from RULES.md and the published rule texts (../shared/seeds/). Every position is on the
common board of 4 seats (16 holes a seat): red (seat 0, the learner) starts on T0 and
enters its home from there; blue is seat 1 (start T16), yellow seat 2 (T32, red's
partner), green seat 3 (T48). Each step: the position, the card (or the hand, to sit
out), the move the lesson wants (written as ``keezbord moves`` prints it; "discard":
show the hand), the task, why the move is right, and a typical wrong move to try
(``wrong``: pawns carried from hole to hole, by the switches' hole names: ``H0.4`` for
red's fourth home hole, ``N2.4`` for a hole of yellow's nest) that the referee must
refuse. ``only``: the step says its move is the only good one (tests/host/test_lessons.py
holds it to that).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from keezbord.engine.text import Text

from .course_texts import LESSONS


@dataclass(frozen=True, slots=True)
class LessonStep:
    position: str  # the one-line text form (docs/formats.md); red (seat 0) to play
    card: str | None  # None: the learner holds ``hand`` and has no card to play
    move: str  # the move wanted, or "discard"
    task: Text
    why: Text
    hand: tuple[str, ...] = ()
    only: bool = False
    wrong: tuple[tuple[str, str], ...] = ()  # a wrong move to try: (from, to) carries
    hint: Text | None = None  # a legal move that is not the task: what to try instead

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "card": self.card,
            "hand": list(self.hand) or ([self.card] if self.card else []),
            "move": self.move,
            "only": self.only,
            "task": self.task.as_dict(),
            "why": self.why.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    title: Text
    intro: Text
    steps: tuple[LessonStep, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title.as_dict(),
            "intro": self.intro.as_dict(),
            "steps": [s.to_dict() for s in self.steps],
        }


def _step(d: dict[str, Any]) -> LessonStep:
    return LessonStep(
        d["position"],
        d.get("card"),
        d["move"],
        Text(*d["task"]),
        Text(*d["why"]),
        tuple(d.get("hand", ())),
        d.get("only", False),
        tuple((w[0], w[1]) for w in d.get("wrong", ())),
        Text(*d["hint"]) if "hint" in d else None,
    )


COURSE: tuple[Lesson, ...] = tuple(
    Lesson(d["id"], Text(*d["title"]), Text(*d["intro"]), tuple(_step(s) for s in d["steps"]))
    for d in LESSONS
)


def lesson(lesson_id: str) -> Lesson:
    """The lesson called ``lesson_id``; KeyError if there is none."""
    for les in COURSE:
        if les.id == lesson_id:
            return les
    raise KeyError(lesson_id)


def next_step(lesson_id: str, step: int) -> dict[str, Any] | None:
    """The step after ``step`` (0-based) of ``lesson_id`` as the page asks for it
    (``{"lesson", "step"}``, 1-based, and the lesson's title), the next lesson's first
    when the lesson is done; None after the course's last step."""
    ids = [les.id for les in COURSE]
    i = ids.index(lesson_id)
    if step + 1 < len(COURSE[i].steps):
        les, n = COURSE[i], step + 2
    elif i + 1 < len(COURSE):
        les, n = COURSE[i + 1], 1
    else:
        return None
    return {"lesson": les.id, "step": n, "title": les.title.as_dict()}


_HOLE = re.compile(r"\b(?:T\d+|[HN]\d\.\d)\b")


def named_holes(text: str) -> list[str]:
    """The holes a task names (T24, H0.4): the board labels them."""
    return sorted(set(_HOLE.findall(text)))
