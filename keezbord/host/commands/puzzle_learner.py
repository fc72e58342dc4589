"""``keezbord puzzles`` for a learner (issue 40, item 13): ``hint`` and ``answer`` on
request, and with ``--learner NAME`` (the lessons' name) the first-try solves kept in
the journal beside their lessons (host/lessons/progress.py): ``try`` says whether a
solve is one and counts it, ``list`` marks the puzzles solved and gives their themes
(the others keep them to themselves: a theme names the answer's idea)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from keezbord.engine.text import Text
from keezbord.host.commands.journal_option import add_journal_arguments, journal_path
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError

if TYPE_CHECKING:
    from keezbord.engine.puzzles import Puzzle, Verdict
    from keezbord.host.lessons import Progress, PuzzleTried


def add_learner_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--learner",
        default=None,
        metavar="NAME",
        help="the learner's name (as the lessons'): first-try solves are kept and counted",
    )


def add_help_arguments(sub: Any) -> None:
    """``puzzles hint`` and ``puzzles answer``."""
    hint = sub.add_parser("hint", help="a hint for a puzzle: the card (--pawn: and the pawn)")
    hint.add_argument("id", help="the puzzle's id (keezbord puzzles list)")
    hint.add_argument("--pawn", action="store_true", help="the second hint: the pawn too")
    ans = sub.add_parser("answer", help="a puzzle's answer, written out, with why")
    ans.add_argument("id", help="the puzzle's id (keezbord puzzles list)")
    for p in (hint, ans):
        p.add_argument("--file", default=None, help="the puzzle file to look in")
        add_learner_argument(p)
        add_journal_arguments(p)
        add_lang_argument(p, "the hint" if p is hint else "the answer")


def learner(args: argparse.Namespace) -> str | None:
    from keezbord.host.lessons import valid_name

    if args.learner is None:
        return None
    try:
        return valid_name(args.learner)
    except ValueError as e:
        raise UsageError(f"--learner: {e}") from None


def progress(args: argparse.Namespace) -> Progress:
    from keezbord.host.lessons import Progress

    return Progress(journal_path(args))


def tried(args: argparse.Namespace) -> dict[str, PuzzleTried] | None:
    """The learner's record of each puzzle tried (None: no learner named)."""
    name = learner(args)
    if name is None:
        return None
    with progress(args) as prog:
        return prog.puzzles(name)


def list_mark(rec: PuzzleTried | None, themes: str, lang: str) -> str:
    """A puzzle's mark in the plain list: solved (at the first try), then its themes."""
    if rec is None or not rec.solved:
        return ""
    first = Text("✓ in één keer", "✓ first try") if rec.first_try else Text("✓", "✓")
    return f"{first.get(lang)} ({themes})"


def count_text(name: str, n: int) -> Text:
    from keezbord.engine.puzzle_help import first_tries_text

    said = first_tries_text(n)
    return Text(f"{name}: {said.nl}", f"{name}: {said.en}")


def told(args: argparse.Namespace, puzzle: Puzzle, verdict: Verdict) -> dict[str, Any]:
    """``puzzles try``'s answer: the verdict as the page tells it (a wrong one without
    the answer), and with a learner whether a solve is at the first try, and the count."""
    from keezbord.engine.puzzle_help import solved_note, solved_text, wrong_text

    right = verdict.outcome != "wrong"
    out: dict[str, Any] = {
        "id": puzzle.id,
        "outcome": verdict.outcome,
        "played": verdict.played,
        "played_win": _round(verdict.played_win),
        "solution_win": _round(verdict.solution_win),
    }
    name = learner(args)
    text = verdict.text
    if name is not None:
        with progress(args) as prog:
            prog.puzzle_answered(name, puzzle.id, right)
            rec = prog.puzzle(name, puzzle.id)
            n = prog.first_tries(name)
        assert rec is not None
        if right:
            note = solved_note(rec.tries, rec.helped, rec.first_try)
            text = solved_text(puzzle, verdict, note)
            out["first_try"] = rec.first_try
        out["first_tries"] = n
        out["count"] = count_text(name, n).get(args.lang)
    if right:
        out["solution"] = verdict.solution
    else:
        pid = puzzle.id
        again = Text(
            f" Probeer het nog eens, vraag een hint (keezbord puzzles hint {pid}) of het "
            f"antwoord (keezbord puzzles answer {pid}).",
            f" Try again, ask for a hint (keezbord puzzles hint {pid}) or the answer "
            f"(keezbord puzzles answer {pid}).",
        )
        said = wrong_text(verdict)
        text = Text(said.nl + again.nl, said.en + again.en)
    out["text"] = text.get(args.lang)
    return out


def run_help(args: argparse.Namespace, puzzle: Puzzle) -> int:
    """``puzzles hint`` and ``puzzles answer``: printed, and kept for a learner (a solve
    after them is no first-try solve)."""
    from keezbord.engine.puzzle_help import answer_text, hint
    from keezbord.host.lessons import ANSWER_SHOWN

    out: dict[str, Any] = {"id": puzzle.id}
    if args.action == "hint":
        level = 2 if args.pawn else 1
        out |= {"hint": level, "text": hint(puzzle, level).get(args.lang)}
    else:
        level = ANSWER_SHOWN
        out |= {"solution": str(puzzle.solution), "text": answer_text(puzzle).get(args.lang)}
    name = learner(args)
    if name is not None:
        with progress(args) as prog:
            prog.puzzle_helped(name, puzzle.id, level)
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)
