"""The journal's fsync is off the event path (issue 14): commits are in the WAL when
``append`` returns (safe from the process dying: test_journal.py kills it 150 times), a
syncer thread fsyncs the durable ones and checkpoints the WAL into the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from keezbord.host import journal as journal_mod
from keezbord.host.journal import Journal


def _move(i: int) -> list[dict[str, object]]:
    return [{"t": i, "type": "move", "seat": 0, "move": f"5 0:T{i}-T{i + 5}"}]


def test_the_event_path_neither_fsyncs_nor_checkpoints(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as j:
        assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert j.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0


def test_flush_waits_for_the_syncer_and_durable_says_so(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as j:
        g = j.new_game({"seats": 4})
        assert j.durable()  # new_game waits for its fsync
        for i in range(20):
            j.append(g, i, {"t": i, "type": "tick"}, _move(i))
        assert j.flush(timeout=30)
        assert j.durable()
        s = j._syncer
        assert s is not None and s.done == s.asked >= 2 and s.error is None


def test_the_syncer_checkpoints_the_wal_into_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_mod, "CHECKPOINT_S", 0.0)
    db = tmp_path / "j.db"
    with Journal(db) as j:
        g = j.new_game({"seats": 4})
        for i in range(50):
            j.append(g, i, {"t": i, "type": "tick"}, _move(i))
        assert j.flush(timeout=30)
        # The database file itself (without its WAL) holds every row: read a copy of it.
        copy = tmp_path / "copy.db"
        copy.write_bytes(db.read_bytes())
        with sqlite3.connect(copy) as c:
            assert c.execute("SELECT count(*) FROM inputs").fetchone()[0] == 50


def test_close_leaves_everything_in_the_database(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as j:
        g = j.new_game({"seats": 4})
        j.append(g, 0, {"t": 0, "type": "tick"}, _move(0))
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    with Journal(db, readonly=True) as j:
        assert len(j.inputs(g)) == 1 and j.durable()
