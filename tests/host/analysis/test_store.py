"""Analyses kept in the journal (host/analysis/store.py, schema version 3): a journal of
version 1 gains the table and keeps its games; a document saved is read back; a journal
opened read-only before its migration has none; the export's move list annotated."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from keezbord.host.analysis.store import annotate, load, save
from keezbord.host.journal import SCHEMA, Journal
from keezbord.host.journal_schema import MIGRATIONS, SCHEMA_VERSION, schema_version

DOC = {
    "game": 1,
    "rows": [
        {"type": "decision", "n": 1, "move": "K 0:N-S", "label": None, "comment": None},
        {"type": "discard", "seat": 1, "cards": ["5"]},
        {
            "type": "decision",
            "n": 2,
            "move": "5 1:T16-T21",
            "label": "mistake",
            "comment": {"nl": "Dat kon beter.", "en": "There was a better move."},
        },
        {"type": "decision", "n": 3, "move": "A 2:N-S", "label": "blunder", "comment": None},
    ],
}


def version_1_journal(path: Path) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(SCHEMA)
    db.execute(MIGRATIONS[1])
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO games (id, created, setup) VALUES (1, 0, ?)", (json.dumps({}),))
    db.close()


def test_a_version_1_journal_gains_the_table_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    version_1_journal(path)
    with Journal(path, readonly=True) as j:  # read-only: not migrated, no analysis
        assert schema_version(j.db) == 1 and load(j.db, 1) is None
    with Journal(path) as j:
        assert schema_version(j.db) == SCHEMA_VERSION >= 2
        assert j.game_ids() == [1] and load(j.db, 1) is None
        save(j.db, 1, DOC)
        save(j.db, 1, {**DOC, "seed": 3})  # the latest replaces the older
    with Journal(path, readonly=True) as j:
        assert load(j.db, 1) == {**DOC, "seed": 3}


def test_the_move_list_annotated_with_marks_and_comments() -> None:
    moves = ["1. seat 0: K 0:N-S", "2. seat 1: 5 1:T16-T21", "3. seat 2: A 2:N-S", "4. seat 3: 2"]
    out = annotate(moves, DOC)
    assert out[0] == moves[0] and out[3] == moves[3]
    assert out[1] == (
        "2. seat 1: 5 1:T16-T21 ? {nl: Dat kon beter.} {en: There was a better move.}"
    )
    assert out[2] == "3. seat 2: A 2:N-S ??"
    assert annotate(moves, None) == moves
    # A move list that is not the analysed game's is left as it is.
    other = ["1. seat 0: A 0:N-S", "2. seat 1: 6 1:T16-T22"]
    assert annotate(other, DOC) == other
