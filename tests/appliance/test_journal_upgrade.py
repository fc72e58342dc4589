"""Upgrades and power cuts keep games: a journal of the previous schema opens, migrates
and resumes; a newer one is refused in one line; `journal export --all` archives every
game; a kill -9 in the middle of a game loses no accepted move (SQLite WAL)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from keezbord import __version__
from keezbord.host import journal_schema
from keezbord.host.cli import main
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.journal import SCHEMA, Journal, JournalError
from keezbord.host.journal_schema import SCHEMA_VERSION, schema_version
from keezbord.host.session import GameSession

SETUP = {"type": "setup", "seats": 4, "profile": "standard", "dealer": 3, "mode": "run"}


def _play_opening(s: GameSession) -> None:
    s.feed(CardTap(1000, "K"))
    s.feed(HoleEvent(1100, "lift", "N0.1"))
    s.feed(HoleEvent(1300, "place", "T0"))
    s.feed(Tick(2000))


def previous_schema_journal(tmp_path: Path) -> Path:
    """A journal as the previous keezbord wrote it: the first schema's SQL (version 0),
    holding a game in progress (rows copied from a game played here)."""
    scratch = GameSession.start(tmp_path / "scratch.sqlite", SETUP)
    _play_opening(scratch)
    rows = {
        t: scratch.journal.db.execute(
            f"SELECT * FROM {t} WHERE game = ?", (scratch.game,)
        ).fetchall()
        for t in ("inputs", "decisions")
    }
    scratch.close()
    old = tmp_path / "old.sqlite"
    db = sqlite3.connect(old, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO games (id, created, setup) VALUES (1, 0, ?)", (json.dumps(SETUP),))
    db.executemany("INSERT INTO inputs VALUES (1, ?, ?)", [r[1:] for r in rows["inputs"]])
    db.executemany("INSERT INTO decisions VALUES (1, ?, ?, ?)", [r[1:] for r in rows["decisions"]])
    assert schema_version(db) == 0
    db.close()
    return old


def test_a_previous_schema_journal_opens_migrates_and_resumes(tmp_path: Path) -> None:
    old = previous_schema_journal(tmp_path)
    s = GameSession.resume(old)
    assert schema_version(s.journal.db) == SCHEMA_VERSION
    snap = s.snapshot()
    assert snap["history"] == [{"t": 1800, "seat": 0, "card": "K", "move": "K 0:N-S"}]
    assert snap["turn"] == 1
    s.feed(CardTap(2500, "A"))  # the game goes on in the migrated journal
    s.close()
    s = GameSession.resume(old)
    assert s.seq == 5 and s.snapshot()["turn"] == 1
    new = s.journal.new_game(SETUP)
    versions = dict(s.journal.db.execute("SELECT id, version FROM games").fetchall())
    s.close()
    assert versions == {1: None, new: __version__}


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    old = previous_schema_journal(tmp_path)
    Journal(old).close()
    with Journal(old) as j:
        assert schema_version(j.db) == SCHEMA_VERSION
        assert j.game_ids() == [1]


def test_two_openers_of_an_old_journal_migrate_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service and a `journal export` open the old journal at once: both read version
    0, one migrates; the other, let in after it, added the column again ("duplicate
    column name": the journal was refused as "not a keezbord journal")."""
    old = previous_schema_journal(tmp_path)
    Journal(old).close()  # the first opener migrated it
    real = journal_schema.schema_version
    stale = [0]  # the second opener's read, made before the first one's migration

    def version(db: sqlite3.Connection) -> int:
        return stale.pop() if stale else real(db)

    monkeypatch.setattr(journal_schema, "schema_version", version)
    with Journal(old) as j:
        assert real(j.db) == SCHEMA_VERSION and j.game_ids() == [1]


def test_a_journal_of_a_newer_keezbord_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match=r"written by a newer keezbord.*pip install -U keezbord"):
        Journal(path)


def test_export_all_archives_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "j.sqlite"
    for _ in range(2):
        s = GameSession.start(db, SETUP)
        _play_opening(s)
        s.close()
    out = tmp_path / "backup"
    assert main(["journal", "export", "--all", "--db", str(db), "--out", str(out)]) == 0
    assert "2 games" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == [
        "game-1.jsonl", "game-1.moves.txt", "game-2.jsonl", "game-2.moves.txt",
    ]  # fmt: skip
    assert (out / "game-2.moves.txt").read_text() == "1. seat 0: K 0:N-S\n"
    assert json.loads((out / "game-1.jsonl").read_text().splitlines()[0])["seats"] == 4
    # Again, the next night: the files are rewritten, nothing else appears.
    assert main(["journal", "export", "--all", "--db", str(db), "--out", str(out)]) == 0
    assert len(list(out.iterdir())) == 4
    assert main(["journal", "export", "--all", "--db", str(db)]) == 2
    assert "--all needs --out FOLDER" in capsys.readouterr().err
    assert (
        main(["journal", "export", "--all", "--game", "1", "--db", str(db), "--out", str(out)]) == 2
    )


WRITER = """
import sys
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.session import GameSession
setup = {"type": "setup", "seats": 4, "profile": "standard", "dealer": 3}
s = GameSession.start(sys.argv[1], setup)
t = 1000
s.feed(CardTap(t, "K")); s.feed(HoleEvent(t + 100, "lift", "N0.1"))
s.feed(HoleEvent(t + 300, "place", "T0")); s.feed(Tick(t + 1000))
print("moved", s.seq, flush=True)
n = 0
while True:  # sensor noise until killed: lifts and places that decide nothing final
    n += 1
    s.feed(HoleEvent(t + 2000 + 2 * n, "lift", "T0"))
    s.feed(HoleEvent(t + 2001 + 2 * n, "place", "T0"))
    if n == 50:
        print("noise", flush=True)
"""


def test_a_kill_9_mid_game_loses_no_accepted_move(tmp_path: Path) -> None:
    db = tmp_path / "cut.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("moved")
    assert proc.stdout.readline() == "noise\n"  # well inside the writing loop
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert (tmp_path / "cut.sqlite-wal").exists()  # the tail was still in the WAL
    with Journal(db) as j:
        assert j.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    s = GameSession.resume(db)
    assert [h["move"] for h in s.snapshot()["history"]] == ["K 0:N-S"]
    assert s.seq >= 4 + 100  # at least the noise before the last line read
    s.close()
