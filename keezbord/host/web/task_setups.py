"""The setups of a puzzle (``puzzle``, docs/puzzles.md) and of a mistake tried again on
the board (``retry_board``, docs/analysis.md): a new game that sets the board up as the
position (setups._arranged_here, the one seam of the set-up mode) and names the task in
its setup line (web/tasks.py). The puzzles a page may choose from: the shipped set and
the club's own (GET /api/puzzles)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.engine.puzzles import Puzzle
from keezbord.engine.text import Text
from keezbord.engine.themes import THEMES
from keezbord.host import puzzles
from keezbord.host.lessons import Progress, PuzzleTried, valid_name
from keezbord.host.roles import Role

from .analyst import AnalysisError
from .hub_error import HubError
from .setups import _arranged_here, plays_alone

if TYPE_CHECKING:
    from .hub import Hub

NO_PUZZLE = Text("kies een puzzel", "choose a puzzle")
OTHER_BOARD = Text(
    "die puzzel is voor een ander bord (4 stoelen, 16 gaten per stoel)",
    "that puzzle is for another board (4 seats, 16 holes a seat)",
)


def puzzle_list(db: Path) -> list[Puzzle]:
    """The puzzles as ``keezbord puzzles list`` finds them: the shipped set, then the
    club's (mined from this journal's games, beside it)."""
    out = puzzles.shipped()
    ids = {p.id for p in out}
    try:
        club = puzzles.read(puzzles.club_file(Path(db)))
    except puzzles.PuzzleFileError as e:
        print(f"keezbord: the club's puzzles: {e}")
        club = []
    return out + [p for p in club if p.id not in ids]


def listed(db: Path, theme: str | None, learner: str | None = None) -> dict[str, Any]:
    """GET /api/puzzles: ``{"themes", "puzzles": [...], "learner", "first_tries"}``, with
    a learner's name which puzzles they solved and at the first try (the lessons'
    progress, host/lessons/progress.py); ValueError for a theme that is none or a name
    that cannot be one."""
    if theme is not None and theme not in THEMES:
        raise ValueError(theme)
    tried: dict[str, PuzzleTried] = {}
    if learner is not None:
        learner = valid_name(learner)
        with Progress(db) as prog:
            tried = prog.puzzles(learner)
    shipped = {p.id for p in puzzles.shipped()}
    out = []
    for p in puzzle_list(db):
        if theme is not None and theme not in p.themes:
            continue
        rec = tried.get(p.id)
        out.append(
            {
                "id": p.id,
                "themes": list(p.themes),
                "hand": list(p.hand),
                "position": p.position.to_text(),
                "club": p.id not in shipped,
                "source": p.source,
                "solved": rec is not None and rec.solved,
                "first_try": rec is not None and rec.first_try,
            }
        )
    return {
        "themes": [{"id": k, "name": v.as_dict()} for k, v in THEMES.items()],
        "puzzles": out,
        "learner": learner,
        "first_tries": sum(1 for r in tried.values() if r.first_try),
    }


def puzzle_setup(hub: Hub, msg: Mapping[str, Any]) -> dict[str, Any]:
    """A page's ``puzzle``: a new game that sets the board up as the puzzle's position
    and judges the solver's move (web/puzzle_play.py)."""
    pid = msg.get("puzzle")
    found = next((p for p in puzzle_list(hub.opts.db) if p.id == pid), None)
    if found is None:
        raise HubError(NO_PUZZLE)
    learner = msg.get("learner")
    try:
        name = valid_name(learner) if learner not in (None, "") else None
    except ValueError as e:
        raise HubError(Text(f"naam: {e}", f"name: {e}")) from None
    if found.position.topology != hub.session.state.pos.topology and hub.opts.mode != "sim":
        raise HubError(OTHER_BOARD)  # (the simulated board takes any shape)
    setup = _arranged_here(hub, found.position, found.hand)
    plays_alone(setup, found.position)
    setup["hints"] = "targets"  # a suggested move would give the answer away
    setup["puzzle"] = {**found.to_json(), "learner": name}
    return setup


def retry_setup(hub: Hub, msg: Mapping[str, Any], role: Role) -> dict[str, Any]:
    """A page's ``retry_board``: a new game that sets the board up as the position
    before move ``n`` of the reviewed game, to play it again (web/retry_play.py)."""
    from keezbord.engine.retry import retry_target

    n = msg.get("n")
    analyst = hub.analyst
    if isinstance(n, bool) or not isinstance(n, int) or analyst is None:
        raise HubError(Text("welke zet?", "which move?"))
    try:
        turn, _ = analyst._turn(n, role)
    except AnalysisError as e:
        raise HubError(Text(e.text["nl"], e.text["en"])) from None
    game = analyst.game_of_review()
    pos, hand = retry_target(turn)
    setup = _arranged_here(hub, pos, hand)
    plays_alone(setup, pos)
    setup["hints"] = "targets"
    setup["retry"] = {"game": game, "n": n}
    return setup
