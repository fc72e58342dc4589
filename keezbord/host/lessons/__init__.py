"""Lessons for newcomers (issue 26 part 2): a course in Dutch and English, each lesson a
few steps of position, task, the learner's card and move, judged by the referee and
explained by the engine; progress per learner in the journal. docs/lessons.md."""

from .course import COURSE, Lesson, LessonStep, lesson, named_holes, next_step
from .judge import Verdict, judge, judge_record, judge_referee, step_setup
from .progress import ANSWER_SHOWN, Progress, PuzzleTried, valid_name

__all__ = [
    "ANSWER_SHOWN",
    "COURSE",
    "Lesson",
    "LessonStep",
    "Progress",
    "PuzzleTried",
    "Verdict",
    "judge",
    "judge_record",
    "judge_referee",
    "lesson",
    "named_holes",
    "next_step",
    "step_setup",
    "valid_name",
]
