"""``keezbord puzzles``: list the puzzles, mine new ones from the journal's games and from
self-play, try a move in one, ask a hint or the answer (engine/puzzles.py,
docs/puzzles.md); a learner's first-try solves: puzzle_learner.py."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from keezbord.host.commands.journal_option import add_journal_arguments, journal_path
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.commands.puzzle_learner import (
    add_help_arguments,
    add_learner_argument,
    list_mark,
    run_help,
    tried,
)
from keezbord.host.errors import UsageError


def _budgets(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not playouts a candidate: {text!r}") from None
    if len(out) != 2 or min(out) < 1:
        raise argparse.ArgumentTypeError("two budgets of at least 1, lower first: 100,400")
    return out


def _margin(text: str) -> float:
    try:
        m = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < m < 1:
        raise argparse.ArgumentTypeError("a win chance between 0 and 1: 0.05")
    return m


def add_puzzles_arguments(p: argparse.ArgumentParser) -> None:
    from keezbord.engine.puzzles import BUDGETS, JUDGE_PLAYOUTS, MARGIN, SCREEN
    from keezbord.engine.themes import THEMES

    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ls = sub.add_parser("list", help="the puzzles: the shipped set and the club's own")
    ls.add_argument("--json", action="store_true", help="one JSON object a line")
    ls.add_argument("--theme", choices=sorted(THEMES), default=None, help="only this theme")
    ls.add_argument("--shipped", action="store_true", help="only the set keezbord ships")
    ls.add_argument("--file", default=None, help="list this puzzle file instead")
    add_learner_argument(ls)
    add_journal_arguments(ls)
    add_lang_argument(ls, "the themes")

    mine = sub.add_parser("mine", help="find puzzles in the journal's games and in self-play")
    add_journal_arguments(mine)
    mine.add_argument(
        "--game",
        type=int,
        action="append",
        default=None,
        help="a journal game (repeat for more; default: every game of the journal)",
    )
    mine.add_argument("--no-journal", action="store_true", help="self-play games only")
    mine.add_argument("--selfplay", type=int, default=0, help="self-play games too (default 0)")
    mine.add_argument("--seats", type=int, default=4, choices=range(2, 9), metavar="2..8")
    mine.add_argument("--profile", default="standard")
    mine.add_argument("--bot", default="greedy", help="the self-play bots: one kind, or one a seat")
    mine.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first self-play game (evaluations: seeded by each puzzle id)",
    )
    mine.add_argument(
        "--budgets",
        type=_budgets,
        default=BUDGETS,
        help=f"the only-move test's two budgets, playouts a candidate (default "
        f"{BUDGETS[0]},{BUDGETS[1]})",
    )
    mine.add_argument(
        "--screen",
        type=int,
        default=SCREEN,
        help=f"playouts a candidate of the first look (default {SCREEN})",
    )
    mine.add_argument(
        "--margin", type=_margin, default=MARGIN, help=f"the only-move margin (default {MARGIN})"
    )
    mine.add_argument("--limit", type=int, default=None, help="stop after this many puzzles")
    mine.add_argument(
        "--out",
        default=None,
        help="puzzle file to add them to (default: puzzles.jsonl beside the journal; - "
        "for standard output)",
    )

    tr = sub.add_parser("try", help="judge a move in a puzzle: solved, as good, or not")
    tr.add_argument("id", help="the puzzle's id (keezbord puzzles list)")
    tr.add_argument("move", help="the move in notation, e.g. '7 0:T5-T8 0:T20-T24'")
    tr.add_argument(
        "--playouts",
        type=int,
        default=JUDGE_PLAYOUTS,
        help=f"playouts a move when it differs from the solution (default {JUDGE_PLAYOUTS})",
    )
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--file", default=None, help="the puzzle file to look in")
    add_learner_argument(tr)
    add_journal_arguments(tr)
    add_lang_argument(tr, "the verdict")
    add_help_arguments(sub)


def run_puzzles(args: argparse.Namespace) -> int:
    from keezbord.host.puzzles import PuzzleFileError

    try:
        if args.action == "list":
            return _list(args)
        if args.action == "mine":
            return _mine(args)
        if args.action in ("hint", "answer"):
            return run_help(args, _find(args))
        return _try(args)
    except PuzzleFileError as e:
        raise UsageError(str(e)) from None


def _club_file(args: argparse.Namespace) -> Path:
    from keezbord.host.puzzles import club_file

    return club_file(journal_path(args))


def _all(args: argparse.Namespace) -> list[Any]:
    from keezbord.host.puzzles import read, shipped

    if args.file is not None:
        path = Path(args.file)
        if not path.is_file():
            raise UsageError(f"{path}: no such puzzle file")
        return read(path)
    out = shipped()
    if not getattr(args, "shipped", False):
        ids = {p.id for p in out}
        out += [p for p in read(_club_file(args)) if p.id not in ids]
    return out


def _list(args: argparse.Namespace) -> int:
    from keezbord.engine.themes import THEMES

    puzzles = [p for p in _all(args) if args.theme is None or args.theme in p.themes]
    records = tried(args)  # a learner's: which are solved, at the first try or not
    out = sys.stdout
    for p in puzzles:
        rec = None if records is None else records.get(p.id)
        if args.json:
            d = p.to_json()
            if records is not None:
                d |= {"solved": bool(rec and rec.solved), "first_try": bool(rec and rec.first_try)}
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
        else:
            # No theme until it is solved: it would name the answer's idea.
            themes = ", ".join(THEMES[t].get(args.lang) for t in p.themes)
            mark = list_mark(rec, themes, args.lang)
            line = f"{p.id}  {p.position.to_text():<44} hand {','.join(p.hand):<14} {mark}"
            out.write(line.rstrip() + "\n")
    if records is not None and not args.json:
        from keezbord.host.commands.puzzle_learner import count_text, learner

        n = sum(1 for r in records.values() if r.first_try)
        out.write(count_text(learner(args) or "", n).get(args.lang) + "\n")
    return 0


def _mine(args: argparse.Namespace) -> int:
    from keezbord.engine.bot_kinds import BOT_KINDS
    from keezbord.engine.profiles import PROFILES
    from keezbord.engine.puzzles import mine
    from keezbord.host.puzzles import add

    if args.selfplay < 0 or args.screen < 1 or (args.limit is not None and args.limit < 1):
        raise UsageError("--selfplay must not be negative, --screen and --limit at least 1")
    if args.profile not in PROFILES:
        raise UsageError(f"unknown profile {args.profile!r} ({', '.join(sorted(PROFILES))})")
    kinds = args.bot.split(",")
    kinds = kinds * args.seats if len(kinds) == 1 else kinds
    if len(kinds) != args.seats or any(k not in BOT_KINDS for k in kinds):
        raise UsageError(f"--bot: one of {', '.join(BOT_KINDS)}, or {args.seats} of them")
    if args.no_journal and args.game:
        raise UsageError("--no-journal mines no journal game: leave out --game")
    if args.no_journal and not args.selfplay:
        raise UsageError("--no-journal needs --selfplay N")
    from keezbord.host.commands.progress import Progress

    records, total = _records(args, kinds)
    found = []
    with Progress(total, "puzzles: mining games") as bar:
        for p in mine(
            _counted(records, bar),
            margin=args.margin,
            budgets=args.budgets,
            screen=args.screen,
        ):
            found.append(p)
            if args.limit is not None and len(found) >= args.limit:
                break
    if args.out == "-":
        for p in found:
            sys.stdout.write(json.dumps(p.to_json(), ensure_ascii=False) + "\n")
        return 0
    path = Path(args.out) if args.out is not None else _club_file(args)
    if not path.parent.is_dir():
        raise UsageError(f"--out {path}: the folder {path.parent} does not exist")
    new = add(path, found)
    print(f"{len(found)} puzzles found, {new} new -> {path}")
    return 0


def _counted(records: Iterator[Any], bar: Any) -> Iterator[Any]:
    for r in records:
        yield r
        bar.step()


def _records(args: argparse.Namespace, kinds: list[str]) -> tuple[Iterator[Any], int]:
    """The games to mine, and how many there are."""
    from keezbord.engine.hand_record import bots_for, record_selfplay

    games: list[int] = []
    db: Path | None = None
    if not args.no_journal:
        from keezbord.host.journal import Journal, JournalError

        db = journal_path(args)
        if not db.exists():
            if args.game or not args.selfplay:
                raise UsageError(f"{db}: no such journal")
        else:
            try:
                with Journal(db, readonly=True) as journal:
                    wanted = args.game or journal.game_ids()
                    games = [journal.game(g) for g in wanted]
            except JournalError as e:
                raise UsageError(str(e)) from None

    def gen() -> Iterator[Any]:
        if games and db is not None:
            from keezbord.host.analysis.record import record_of_journal
            from keezbord.host.journal import Journal

            with Journal(db, readonly=True) as journal:
                for gid in games:
                    yield record_of_journal(journal, gid)
        for g in range(args.selfplay):
            seed = args.seed + g
            yield record_selfplay(
                args.seats, args.profile, seed, bots_for(kinds, seed), source=None
            )

    return gen(), len(games) + args.selfplay


def _try(args: argparse.Namespace) -> int:
    from keezbord.engine.notation import IllegalMoveError
    from keezbord.engine.puzzles import judge
    from keezbord.host.commands.puzzle_learner import learner, told

    if args.playouts < 1:
        raise UsageError("--playouts must be at least 1")
    learner(args)  # a bad name: said before the judging
    puzzle = _find(args)
    try:
        verdict = judge(puzzle, args.move, playouts=args.playouts, seed=args.seed)
    except IllegalMoveError as e:
        raise UsageError(str(e)) from None
    sys.stdout.write(json.dumps(told(args, puzzle, verdict), ensure_ascii=False) + "\n")
    return 0


def _find(args: argparse.Namespace) -> Any:
    puzzle = next((p for p in _all(args) if p.id == args.id), None)
    if puzzle is None:
        raise UsageError(f"no puzzle {args.id!r} (keezbord puzzles list)")
    return puzzle
