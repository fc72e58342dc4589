"""The tasks a game on a real board may be (board_task.py): a lesson's step, a puzzle, a
mistake tried again. The hub attaches the one its game's setup names and puts each
kind's view in the page state (null when the game is not that task)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import board_task
from .lesson_play import LessonPlay
from .puzzle_play import PuzzlePlay
from .retry_play import RetryPlay

if TYPE_CHECKING:
    from .hub import Hub

KINDS: tuple[type[LessonPlay] | type[PuzzlePlay] | type[RetryPlay], ...] = (
    LessonPlay,
    PuzzlePlay,
    RetryPlay,
)
# The setup line's fields that make a game a task: a new game leaves them out.
SETUP_KEYS = tuple(k.key for k in KINDS)


def attach(hub: Hub) -> None:
    board_task.attach(hub, KINDS)


def views(hub: Hub) -> dict[str, Callable[[], Any]]:
    """The page state's ``lesson``, ``puzzle`` and ``retry``."""

    def view_of(kind: type[LessonPlay] | type[PuzzlePlay] | type[RetryPlay]) -> Callable[[], Any]:
        def view() -> Any:
            got = board_task.task_of(hub, kind)
            return None if got is None else got.view()

        return view

    return {kind.key: view_of(kind) for kind in KINDS}
