"""The journal's fsync is off the event path (issue 14): commits are in the WAL when
``append`` returns (safe from the process dying: test_journal.py kills it 150 times), a
syncer thread fsyncs the durable ones and checkpoints the WAL into the database."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from keezbord.host import journal_sync
from keezbord.host.journal import Journal
from keezbord.host.journal_status import health


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
    monkeypatch.setattr(journal_sync, "CHECKPOINT_S", 0.0)
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


class _FailingDisk:
    """An fsync that fails ``n`` times (EIO, as a worn SD card), then works."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.calls = 0

    def __call__(self, fd: int) -> None:
        self.calls += 1
        if self.left > 0:
            self.left -= 1
            raise OSError(errno.EIO, "Input/output error")
        os.fsync(fd)


def test_a_failing_fsync_is_tried_again_said_in_the_health_and_the_wal_checkpointed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, the first failing fsync ended the syncer thread for good: nothing was
    fsynced or checkpointed again and no caller said so."""
    monkeypatch.setattr(journal_sync, "FIRST_BACKOFF_S", 0.01)
    monkeypatch.setattr(journal_sync, "MAX_BACKOFF_S", 0.05)
    db = tmp_path / "j.db"
    disk = _FailingDisk(0)
    with Journal(db, fsync=disk) as j:
        g = j.new_game({"seats": 4})
        disk.left = 10**9  # failing until the disk is mended below
        j.append(g, 0, {"t": 0, "type": "tick"}, _move(0))
        s = j.syncer
        assert s is not None
        with s.cond:  # failed and tried again (the condition, not the clock)
            assert s.cond.wait_for(lambda: s.failed_total >= 3, 30)
        assert s.thread.is_alive() and not j.flush(timeout=30)  # flush: False at once
        h = health(j)  # while it fails: said, in both languages
        assert not h["ok"] and "fsync" in h["text"]["en"] and "fsync" in h["text"]["nl"]
        failed = s.failed_total
        monkeypatch.setattr(journal_sync, "CHECKPOINT_S", 0.0)
        disk.left = 0  # mended
        with s.cond:
            assert s.cond.wait_for(lambda: s.error is None and s.done == s.asked, 30)
        assert j.flush(timeout=30) and s.failed_total >= failed
        h = health(j)
        assert h["ok"] and h["text"] is None and h["sync_failures"] == s.failed_total
        log = capsys.readouterr().out  # once a spell, not once a try
        assert log.count("the journal's fsync failed") == 1 and "works again" in log
        for i in range(1, 20):  # it goes on: fsyncs and checkpoints
            j.append(g, i, {"t": i, "type": "tick"}, _move(i))
        assert j.flush(timeout=30)
        copy = tmp_path / "copy.db"
        copy.write_bytes(db.read_bytes())  # the database file alone: checkpointed
        with sqlite3.connect(copy) as c:
            assert c.execute("SELECT count(*) FROM inputs").fetchone()[0] == 20


def test_the_wal_is_checkpointed_once_it_passes_its_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_sync, "CHECKPOINT_S", 3600.0)  # never by the clock
    monkeypatch.setattr(journal_sync, "WAL_LIMIT", 64 * 1024)
    db = tmp_path / "j.db"
    with Journal(db) as j:
        g = j.new_game({"seats": 4})
        for i in range(200):
            j.append(g, i, {"t": i, "type": "tick", "pad": "x" * 1000}, _move(i))
            assert j.flush(timeout=30)
        wal = Path(f"{db}-wal").stat().st_size
        assert wal < 256 * 1024  # 200 kB of inputs written: the WAL was reused, not grown
