"""Analyses kept in the journal (table ``analyses``, journal_schema.py version 3): one JSON
document a game, its rows, summary and curve, so the page shows a finished game's chart
again after a restart and ``keezbord journal export`` writes the annotated move list.

The document: ``{"game", "playouts", "seed", "rows": [...], "summary": {...}, "teams":
[[seats]...], "curve": [[chance per team]...]}``, rows as ``Row.to_json()`` (comments in
both languages)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from keezbord.engine.analysis import MARKS, GameAnalysis


def document(game: int | None, analysis: GameAnalysis) -> dict[str, Any]:
    return {
        "game": game,
        "playouts": analysis.playouts,
        "seed": analysis.seed,
        "rows": [r.to_json() for r in analysis.rows],
        "summary": analysis.summary(),
        "teams": [list(t) for t in analysis.teams()],
        "curve": [[round(v, 4) for v in c] for c in analysis.curve()],
    }


def save(db: sqlite3.Connection, game: int, doc: Mapping[str, Any]) -> None:
    """Keep ``doc`` as the game's analysis (replacing an older one), in one transaction."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(
            "INSERT OR REPLACE INTO analyses (game, data) VALUES (?, ?)",
            (game, json.dumps(doc, ensure_ascii=False)),
        )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def load(db: sqlite3.Connection, game: int) -> dict[str, Any] | None:
    """The game's analysis, if one was made (a journal from before version 3: none)."""
    try:
        row = db.execute("SELECT data FROM analyses WHERE game = ?", (game,)).fetchone()
    except sqlite3.OperationalError:  # no such table: an older journal opened read-only
        return None
    if row is None:
        return None
    doc: dict[str, Any] = json.loads(row[0])
    return doc


def annotate(moves: Sequence[str], doc: Mapping[str, Any] | None) -> list[str]:
    """The export's move list (``n. seat s: MOVE``) with each labelled decision's mark
    (?! inaccuracy, ? mistake, ?? blunder) and the coach's comment, Dutch and English,
    PGN style in braces."""
    if doc is None:
        return list(moves)
    by_n = {r["n"]: r for r in doc.get("rows", ()) if r.get("type") == "decision"}
    out = []
    for line in moves:
        number, _, rest = line.partition(". ")
        row = by_n.get(int(number)) if number.isdigit() else None
        if row is None or not row.get("label") or not rest.endswith(row["move"]):
            out.append(line)
            continue
        text = f"{line} {MARKS[row['label']]}"
        comment = row.get("comment") or {}
        if comment:
            text += f" {{nl: {comment.get('nl', '')}}} {{en: {comment.get('en', '')}}}"
        out.append(text)
    return out
