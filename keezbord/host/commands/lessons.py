"""``keezbord lessons``: the course for newcomers (issue 26 part 2, docs/lessons.md).

``keezbord lessons --json`` lists it, one JSON object a line (``id``, ``title`` with
``nl`` and ``en``, ``intro``, ``steps``); with ``--learner NAME`` each lesson also says
which of its steps that learner has done (``done``). ``keezbord lessons answer LESSON
STEP MOVE --learner NAME`` judges a move for a step (written as ``keezbord moves``
prints it, or ``discard``) as the board would, and keeps a right one in the learner's
progress in the journal."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError

if TYPE_CHECKING:
    from keezbord.engine.notation import Move
    from keezbord.engine.position import Position


def _journal_args(p: argparse.ArgumentParser, default: object = None) -> None:
    # (The sub-command's own copies default to SUPPRESS: given before ``answer`` counts.)
    p.add_argument("--learner", default=default, metavar="NAME", help="the learner's name")
    p.add_argument("--config", default=default, metavar="FILE", help="board TOML ([files] journal)")
    p.add_argument("--db", default=default, help="journal database (default: the configuration's)")


def add_lessons_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    _journal_args(p)
    add_lang_argument(p, "the titles")
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    ans = sub.add_parser("answer", help="judge a move for a lesson's step (and keep progress)")
    ans.add_argument("lesson", metavar="LESSON", help="the lesson's id")
    ans.add_argument("step", metavar="STEP", type=int, help="the step, from 1")
    ans.add_argument("move", metavar="MOVE", help="e.g. '5 0:T3-T8', or discard")
    _journal_args(ans, argparse.SUPPRESS)
    ans.add_argument(
        "--lang", choices=("en", "nl"), default=argparse.SUPPRESS, help="language of the verdict"
    )


def _progress(args: argparse.Namespace) -> Any:
    from keezbord.host.config import find_config, journal_of
    from keezbord.host.lessons import Progress

    return Progress(journal_of(find_config(args.config), args.db))


def _name(args: argparse.Namespace) -> str:
    from keezbord.host.lessons import valid_name

    try:
        return valid_name(args.learner)
    except ValueError as e:
        raise UsageError(f"--learner: {e}") from None


def run_lessons(args: argparse.Namespace) -> int:
    from keezbord.host.lessons import COURSE

    if args.action == "answer":
        return _answer(args)
    done: dict[str, list[int]] = {}
    if args.learner is not None:
        name = _name(args)
        prog = _progress(args)
        try:
            done = prog.of(name)
        finally:
            prog.close()
    for les in COURSE:
        d = les.to_dict()
        if args.learner is not None:
            d["done"] = [s + 1 for s in done.get(les.id, [])]
        if args.json:
            sys.stdout.write(json.dumps(d, ensure_ascii=False) + "\n")
        else:
            n = len(les.steps)
            mark = f"  {len(d['done'])}/{n}" if "done" in d else f"  {n}"
            print(f"{les.id:<10} {les.title.get(args.lang)}{mark}")
            intro = textwrap.wrap(les.intro.get(args.lang), width=78)
            print("\n".join(" " * 11 + line for line in intro))
    return 0


def _answer(args: argparse.Namespace) -> int:
    from keezbord.engine.notation import parse_move
    from keezbord.engine.position import Position
    from keezbord.host.lessons import judge, lesson

    try:
        les = lesson(args.lesson)
    except KeyError:
        raise UsageError(f"no lesson {args.lesson!r} (keezbord lessons lists them)") from None
    if not 1 <= args.step <= len(les.steps):
        raise UsageError(f"lesson {les.id} has steps 1 to {len(les.steps)}, not {args.step}")
    step = les.steps[args.step - 1]
    text = " ".join(args.move.split())
    after: Position | None = None
    if text != "discard":
        card = text.split(" ", 1)[0]
        if step.card is not None and card != step.card:
            raise UsageError(f"this step's card is {step.card}, not {card}")
        pos = Position.from_text(step.position)
        try:
            made = parse_move(text, pos.topology)
        except ValueError as e:
            raise UsageError(f"{text!r}: {e}") from None
        after = _after(pos, card, made)
        if after is None:
            raise UsageError(
                f"{text!r} is not a legal move here (keezbord moves --card {card} "
                f"'{step.position}' lists them)"
            )
    verdict = judge(step, after)
    if verdict.result == "right" and args.learner is not None:
        name = _name(args)
        prog = _progress(args)
        try:
            prog.done(name, les.id, args.step - 1)
        finally:
            prog.close()
    out = {"lesson": les.id, "step": args.step, **verdict.to_dict()}
    out["says"] = verdict.text.get(args.lang)
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


def _after(pos: Position, card: str, made: Move) -> Position | None:
    """Where ``made`` leads, a 7's parts in the order written or the other (as `check`
    and the board read them: the same pawns moved the same steps); None: not legal."""
    from keezbord.engine.movegen import apply_part, successors

    moves = successors(pos, card)
    found = next((a for m, a in moves if m == made), None)
    if found is not None or len(made.parts) != 2:
        return found
    there = pos
    for part in made.parts:
        there = apply_part(there, part)
    parts = set(made.parts)
    return next((a for m, a in moves if set(m.parts) == parts and a.pawns == there.pawns), None)
