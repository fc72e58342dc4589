"""``keezbord replay`` and ``keezbord journal export`` (FORMATS.md "Commands")."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError

if TYPE_CHECKING:
    from keezbord.host.journal import Journal


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("trace", help="a sensor trace (JSON lines), or - for standard input")
    p.add_argument("--leds", action="store_true", help="also print the LED frames")
    add_lang_argument(p, "the reasons")


def run_replay(args: argparse.Namespace) -> int:
    from keezbord.host.referee import TraceError, parse_trace, replay

    try:
        if args.trace == "-":
            lines = sys.stdin.read().splitlines()
        else:
            lines = Path(args.trace).read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise UsageError(f"{args.trace}: not UTF-8 text ({e.reason})") from None
    try:
        setup, events = parse_trace(lines)
    except TraceError as e:
        raise UsageError(f"{args.trace}: {e}") from None
    out = sys.stdout
    for d in replay(setup, events, leds=args.leds, lang=args.lang):
        out.write(json.dumps(d, ensure_ascii=False) + "\n")
    return 0


def add_journal_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ex = sub.add_parser(
        "export", help="write a game from the journal as a trace plus its move list"
    )
    ex.add_argument(
        "--config",
        default=None,
        metavar="FILE",
        help="board TOML whose [files] journal to read (default ./board.toml, "
        "else /etc/keezbord/board.toml)",
    )
    ex.add_argument(
        "--db",
        default=None,
        help="journal database (default: the journal of the configuration, else "
        "keezbord.sqlite in the user's data folder, as every command)",
    )
    ex.add_argument("--game", type=int, default=None, help="game id (default: the latest game)")
    ex.add_argument(
        "--all",
        action="store_true",
        help="every game, into the folder --out (game-<id>.jsonl and game-<id>.moves.txt "
        "each; the nightly copy of docs/install-pi.md)",
    )
    ex.add_argument(
        "--out",
        default="-",
        help="trace file to write (default: standard "
        "output); the move list goes beside it as "
        "<out>.moves.txt",
    )
    _add_set_aside(sub)


def _add_set_aside(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from keezbord.host.commands.journal_option import add_journal_arguments as journal_args

    sa = sub.add_parser(
        "set-aside",
        help="the referee's word: a game whose setup does not read is set aside (kept in "
        "the journal), so that the next start begins a new game (docs/referee.md)",
    )
    journal_args(sa)
    sa.add_argument("--game", type=int, required=True, help="the game to set aside")


def _set_aside(db: Path, game: int) -> int:
    from keezbord.host.journal import Journal, JournalError
    from keezbord.host.journal_damage import set_aside_game

    try:
        with Journal(db) as journal:
            journal.game(game)
            set_aside_game(journal.db, game, "set aside by the referee")
            journal.flush()
    except JournalError as e:
        raise UsageError(str(e)) from None
    print(f"game {game} set aside (it stays in {db}); the next start begins a new game")
    return 0


def run_journal(args: argparse.Namespace) -> int:
    from keezbord.host.config import find_config, journal_of
    from keezbord.host.journal import Journal, JournalError

    db = journal_of(find_config(args.config), args.db)
    if not db.exists():
        raise UsageError(f"{db}: no such journal")
    if args.action == "set-aside":
        return _set_aside(db, args.game)
    if args.all:
        return _export_all(db, args)
    try:
        with Journal(db, readonly=True) as journal:
            lines, moves = journal.export(args.game)
            moves = _annotated(journal, journal.game(args.game), moves)
    except JournalError as e:
        raise UsageError(str(e)) from None
    if args.out == "-":
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stderr.write("\n".join(moves) + ("\n" if moves else ""))
    else:
        out = Path(args.out)
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.with_name(out.name + ".moves.txt").write_text(
            "\n".join(moves) + ("\n" if moves else ""), encoding="utf-8"
        )
    return 0


def _export_all(db: Path, args: argparse.Namespace) -> int:
    """Every game of the journal into the folder ``--out`` (made if its parent exists);
    a game already there is written again (a game in progress grows)."""
    from keezbord.host.journal import Journal

    if args.game is not None:
        raise UsageError("--all exports every game: leave out --game")
    if args.out == "-":
        raise UsageError("--all needs --out FOLDER (one pair of files a game)")
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--out {folder}: not a folder")
    folder.mkdir(exist_ok=True)
    with Journal(db, readonly=True) as journal:
        games = journal.game_ids()
        for gid in games:
            lines, moves = journal.export(gid)
            moves = _annotated(journal, gid, moves)
            _write_atomic(folder / f"game-{gid}.jsonl", "\n".join(lines) + "\n")
            _write_atomic(
                folder / f"game-{gid}.moves.txt", "\n".join(moves) + ("\n" if moves else "")
            )
    print(f"{len(games)} games -> {folder}")
    return 0


def _write_atomic(path: Path, text: str) -> None:
    """Write beside, then rename: a cut during the nightly copy leaves the old file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _annotated(journal: Journal, gid: int, moves: list[str]) -> list[str]:
    """The move list with the game's analysis, if the journal holds one: each labelled
    move's mark and comment (host/analysis/store.py, docs/analysis.md)."""
    from keezbord.host.analysis.store import annotate, load

    return annotate(moves, load(journal.db, gid))
