"""The journal's syncer thread (journal.py): it fsyncs the WAL after each durable commit
(one fsync covers every commit before it) and now and then checkpoints the WAL into the
database, with a connection of its own, so the event path never waits for the disk.

A failing fsync or checkpoint (a worn SD card, a full disk) does not end the thread: it
says so once in the log, keeps the error (``error``, ``failures``: the journal's health
says so, journal_status.py),
tries again after a pause that doubles up to ``MAX_BACKOFF_S``, and clears it once a pass
succeeds. Until then ``flush()`` returns False at once. A checkpoint is tried as soon as
the WAL holds more than ``WAL_LIMIT`` bytes, whatever the time since the last one, so the
WAL stays bounded once the disk works again.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

CHECKPOINT_S = 2.0  # the syncer checkpoints the WAL at most this often
WAL_LIMIT = 1 << 20  # ... or as soon as the WAL holds more than this (bytes)
FIRST_BACKOFF_S = 0.1  # after a failure, the first pause before trying again
MAX_BACKOFF_S = 5.0


class Syncer:
    def __init__(
        self,
        path: Path,
        fsync: Callable[[int], None] = os.fsync,
        backoff: tuple[float, float] | None = None,
    ) -> None:
        self.path = path
        self.wal = Path(f"{path}-wal")
        self.fsync = fsync
        self.backoff = backoff or (FIRST_BACKOFF_S, MAX_BACKOFF_S)
        self.cond = threading.Condition()
        self.asked = 0  # durable commits so far
        self.done = 0  # of those, fsynced
        self.error: OSError | sqlite3.Error | None = None  # the last pass's, until one works
        self.failures = 0  # passes failed in a row
        self.failed_total = 0  # passes failed since the journal was opened
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="journal-sync", daemon=True)
        self.thread.start()

    def ask(self) -> int:
        with self.cond:
            self.asked += 1
            self.cond.notify_all()
            return self.asked

    def wait(self, upto: int, timeout: float | None) -> bool:
        """Until ``upto`` is fsynced (True), or a timeout or a failing disk (False)."""
        with self.cond:
            return (
                self.cond.wait_for(lambda: self.done >= upto or self.error is not None, timeout)
                and self.done >= upto
            )

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        self.thread.join()

    def _sync(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            self.fsync(fd)
        finally:
            os.close(fd)

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        dir_synced = False
        last_checkpoint = time.monotonic()
        pause = self.backoff[0]
        while True:
            with self.cond:
                self.cond.wait_for(lambda: self.asked > self.done or self.stopping)
                if self.asked == self.done and self.stopping:
                    break
                upto = self.asked
            try:
                self._sync(self.wal)
                if not dir_synced:  # the WAL file's own name, once
                    self._sync(self.path.parent)
                    dir_synced = True
                if time.monotonic() - last_checkpoint >= CHECKPOINT_S or _size(self.wal) > (
                    WAL_LIMIT
                ):
                    if db is None:
                        db = sqlite3.connect(self.path, isolation_level=None)
                        db.execute("PRAGMA cache_size = -64")  # it only checkpoints
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    last_checkpoint = time.monotonic()
            except (OSError, sqlite3.Error) as e:  # the writer's next commit still works
                if self.failures == 0:  # said once a spell (the health says it meanwhile)
                    print(f"keezbord: the journal's fsync failed ({e}); tried again", flush=True)
                with self.cond:
                    self.error = e
                    self.failures += 1
                    self.failed_total += 1
                    self.cond.notify_all()
                    if self.stopping:
                        break
                    # Tried again after the pause (at once when asked to stop).
                    self.cond.wait_for(lambda: self.stopping, pause)
                pause = min(pause * 2, self.backoff[1])
                continue
            pause = self.backoff[0]
            if self.failures:
                print("keezbord: the journal's fsync works again", flush=True)
            with self.cond:
                self.done = upto
                self.error = None
                self.failures = 0
                self.cond.notify_all()
        if db is not None:
            db.close()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
