"""``keezbord analyse``: a finished game judged decision by decision, with the moves that
lost it and luck told apart from skill (engine/analysis.py, docs/analysis.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from keezbord.host.commands.journal_option import add_journal_arguments, journal_path
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError


def add_analyse_arguments(p: argparse.ArgumentParser) -> None:
    from keezbord.engine.judge import ANALYSIS_PLAYOUTS

    p.add_argument(
        "trace",
        nargs="?",
        default=None,
        metavar="TRACE",
        help="a sensor trace or an exported game (JSON lines); default: a game of the journal",
    )
    p.add_argument("--game", type=int, default=None, help="a journal game (default: the latest)")
    add_journal_arguments(p)
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--playouts",
        type=int,
        default=None,
        help=f"playouts per candidate move in the first pass (default {ANALYSIS_PLAYOUTS}; half "
        "at 6 seats; close calls get more, docs/analysis.md); with --seed the same labels "
        "every time",
    )
    budget.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="time a decision, turned into playouts by measuring this machine (the result "
        "then depends on it)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the analysis (default 0)")
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes judging decisions at once (default 1; the cores: faster, the same result)",
    )
    p.add_argument(
        "--no-save",
        action="store_true",
        help="a journal game's analysis is kept in the journal (the page and `journal "
        "export` show it); not with this",
    )
    add_lang_argument(p, "the comments")


def run_analyse(args: argparse.Namespace) -> int:
    from keezbord.engine.analysis import GameAnalysis, Row
    from keezbord.engine.judge import ANALYSIS_PLAYOUTS
    from keezbord.host.analysis.parallel import analyse_rows, check_jobs
    from keezbord.host.commands.progress import Progress

    if args.trace is not None and args.game is not None:
        raise UsageError("give a TRACE or --game N, not both")
    playouts = ANALYSIS_PLAYOUTS if args.playouts is None else args.playouts
    if playouts < 1:
        raise UsageError("--playouts must be at least 1")
    try:
        check_jobs(args.jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    record, gid, db = _record(args)
    total = None
    if args.budget_ms is not None:
        if not args.budget_ms > 0:
            raise UsageError("--budget-ms must be more than 0")
        from keezbord.host.search_budget import playouts_for_ms

        pos = record.start
        total = playouts_for_ms(args.budget_ms, pos.seats, pos.profile.name)
    if not record.decisions:
        raise UsageError(f"{record.source}: no move was played")
    analysis = GameAnalysis(record, playouts if total is None else total, args.seed)
    with Progress(len(record.decisions), "analyse") as bar:
        analysis.rows.extend(
            analyse_rows(
                record,
                playouts=playouts,
                total=total,
                seed=args.seed,
                jobs=args.jobs,
                progress=lambda done, of: bar.step(),
            )
        )
    if db is not None and gid is not None and not args.no_save:
        _save(db, gid, analysis)
    out = sys.stdout
    if args.json:
        for row in analysis.rows:
            d = row.to_json(args.lang) if isinstance(row, Row) else row.to_json()
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
        out.write(json.dumps({**analysis.summary(), "game": gid}, ensure_ascii=False) + "\n")
    else:
        _text(analysis, args.lang, out)
    return 0


def _record(args: argparse.Namespace) -> tuple[Any, int | None, Path | None]:
    """The game to analyse: (record, journal game id or None, journal path or None)."""
    from keezbord.host.referee import TraceError

    if args.trace is not None:
        from keezbord.host.analysis.record import game_record, read_trace

        path = Path(args.trace)
        if not path.is_file():
            raise UsageError(f"{path}: no such trace")
        try:
            setup, events = read_trace(path)
        except TraceError as e:
            raise UsageError(str(e) if str(e).startswith(str(path)) else f"{path}: {e}") from None
        return game_record(setup, events, source=path.name), None, None
    from keezbord.host.analysis.record import record_of_journal
    from keezbord.host.journal import Journal, JournalError

    db = journal_path(args)
    if not db.exists():
        raise UsageError(f"{db}: no such journal")
    try:
        with Journal(db, readonly=True) as journal:
            gid = journal.game(args.game)
            return record_of_journal(journal, gid), gid, db
    except (JournalError, TraceError) as e:
        raise UsageError(str(e)) from None


def _save(db: Path, gid: int, analysis: Any) -> None:
    from keezbord.host.analysis.store import document, save
    from keezbord.host.journal import Journal

    with Journal(db) as journal:  # opened for writing: migrated to the analyses table
        save(journal.db, gid, document(gid, analysis))


def _text(analysis: Any, lang: str, out: Any) -> None:
    from keezbord.engine.analysis import LABEL_WORDS, MARKS, Row
    from keezbord.engine.topology import SEAT_COLOURS

    nl = lang == "nl"
    for r in analysis.rows:
        who = SEAT_COLOURS[r.seat]
        name = f"{who.symbol} {who.nl if nl else who.en}"
        if not isinstance(r, Row):
            shown = " ".join(r.cards) or "-"
            out.write(f"     {name:<10} {'laat zien' if nl else 'shows'}: {shown}\n")
            continue
        mark = MARKS.get(r.label or "", "")
        line = f"{r.n:4}. {name:<10} {r.move + ' ' + mark:<30} {round(100 * r.win):3}%"
        if r.label is not None:
            line += (
                f"  {'beter' if nl else 'better'} {r.best_move} {round(100 * r.best_win)}%"
                f"  {LABEL_WORDS[r.label].get(lang)}"
            )
        if not r.hand_known:
            line += "  (" + ("hand onbekend" if nl else "hand unknown") + ")"
        out.write(line + "\n")
        if r.comment is not None:
            out.write(f"        {r.comment.get(lang)}\n")
        if r.why is not None:
            out.write(f"        {r.why.get(lang)}\n")
    s = analysis.summary()
    out.write("\n")
    for p in s["players"]:
        who = SEAT_COLOURS[p["seat"]]
        acc = "-" if p["accuracy"] is None else f"{p['accuracy']}%"
        out.write(
            f"{who.symbol} {who.nl if nl else who.en:<8} "
            f"{'nauwkeurigheid' if nl else 'accuracy'} {acc}, "
            f"?! {p['inaccuracy']}, ? {p['mistake']}, ?? {p['blunder']}\n"
        )
    for t in s["teams"]:
        seats = "+".join(str(x) for x in t["seats"])
        out.write(
            f"{'team' if len(t['seats']) > 1 else 'seat'} {seats}: "
            f"{_pts(t['swing'])} = {'eigen keuzes' if nl else 'own decisions'} {_pts(t['own'])}"
            f", {'kaarten' if nl else 'cards'} {_pts(t['cards'])}"
            f", {'de anderen' if nl else 'the others'} {_pts(t['others'])}\n"
        )


def _pts(x: float) -> str:
    return f"{100 * x:+.0f}%"
