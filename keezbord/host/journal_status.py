"""What a person is told of the journal's own health: a disk that refuses its writes
(full, read-only), an fsync that fails (the syncer tries again, journal_sync.py), a game
resumed from a damaged journal (journal_damage.py). One text for every place a person
looks: the page's instruction line (web/journal_notice.py), ``GET /api/health``'s
``journal`` (docs/web.md), the log (once per change) and ``keezbord doctor``.

Also the journal's file mode: 0600 whoever creates it (a hand-started ``run`` has the
user's umask, often 022; the service's is 0077): the journal holds each virtual deal's
seed (docs/remote.md).
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import Any, Protocol

from keezbord.engine.text import Text
from keezbord.host.journal_sync import Syncer

FULL = Text(
    "het journaal kan niet worden geschreven: de schijf is vol",
    "the journal cannot be written: the disk is full",
)
READONLY = Text(
    "het journaal kan niet worden geschreven: niet beschrijfbaar",
    "the journal cannot be written: not writable",
)
_FULL_CODES = frozenset({"SQLITE_FULL"})


class JournalWriteError(OSError):
    """An input that could not be written (``kind``: "full", "readonly" or "other"):
    nothing of it is in the journal."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind


class Watched(Protocol):
    """What the health reads of a journal (journal.py's ``Journal``)."""

    write_error: JournalWriteError | None

    @property
    def syncer(self) -> Syncer | None: ...


def private(path: Path) -> None:
    """Make the journal 0600 (and its WAL and shared-memory files, which SQLite creates
    with the database's mode): created so if new, narrowed if wider."""
    if not path.parent.is_dir():
        return  # SQLite's error says so (the command checks the folder first)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.close(fd)
        return
    except FileExistsError:
        pass
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            mode = p.stat().st_mode & 0o777
            if mode & 0o077:
                p.chmod(mode & 0o700)
        except OSError:  # not there, or not ours to change (it is still opened)
            pass


def kind_of(e: BaseException) -> str:
    """Why a write failed: "full", "readonly" or "other"."""
    name = getattr(e, "sqlite_errorname", "") or ""
    if name in _FULL_CODES or (isinstance(e, OSError) and e.errno == errno.ENOSPC):
        return "full"
    if name.startswith("SQLITE_READONLY") or (
        isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
    ):
        return "readonly"
    if isinstance(e, sqlite3.Error) and "disk is full" in str(e):
        return "full"
    return "other"


def write_error(e: sqlite3.Error) -> JournalWriteError:
    kind = kind_of(e)
    text = {"full": FULL, "readonly": READONLY}.get(kind)
    return JournalWriteError(kind, text.en if text else f"the journal cannot be written: {e}")


def cannot_start(e: BaseException) -> Text:
    """A new game the journal did not take (a JournalWriteError, or a JournalError on
    opening it), as the page says it."""
    detail = str(e)
    kind = getattr(e, "kind", None) or kind_of(e)
    if kind == "full" or FULL.en in detail:
        return FULL
    if kind == "readonly" or READONLY.en in detail:
        return READONLY
    return Text(
        f"het journaal kan niet worden geschreven ({detail})",
        f"the journal cannot be written ({detail})",
    )


def not_writable(path: Path, e: BaseException, readonly: bool) -> str | None:
    """Why a journal opened for writing cannot be written, if that is the reason:
    "not writable" (a read-only file system, a file or folder of another user) or a
    full disk, never "not a keezbord journal"; None: another reason."""
    if readonly:
        return None
    if kind_of(e) == "full":
        return FULL.en
    name = getattr(e, "sqlite_errorname", "") or ""
    locked = [p for p in (path, path.parent) if p.exists() and not os.access(p, os.W_OK)]
    if locked or name.startswith("SQLITE_READONLY") or kind_of(e) == "readonly":
        where = locked[0] if locked else path
        return f"{READONLY.en} ({where}: {_why(where)})"
    return None


def _why(path: Path) -> str:
    try:
        st = os.statvfs(path)
    except OSError as e:
        return e.strerror or str(e)
    if st.f_flag & os.ST_RDONLY:
        return "a read-only file system"
    return "no write permission for this user"


def health(journal: Watched, damage: Any = None) -> dict[str, Any]:
    """The journal's health (``GET /api/health``'s ``journal``, the page): ``ok``, and
    for a problem its ``text`` in both languages; ``damage``: a resume's report
    (journal_damage.Damage), kept for the whole run."""
    out: dict[str, Any] = {"ok": True, "text": None, "sync_failures": 0}
    syncer = journal.syncer
    problem: Text | None = None
    if journal.write_error is not None:
        problem = {"full": FULL, "readonly": READONLY}.get(
            journal.write_error.kind,
            Text(
                f"het journaal kan niet worden geschreven: {journal.write_error}",
                str(journal.write_error),
            ),
        )
    elif syncer is not None and syncer.error is not None:
        if kind_of(syncer.error) == "full":
            problem = FULL
        else:
            e = syncer.error
            problem = Text(
                f"het journaal kan niet veilig op schijf worden gezet (fsync: {e}); "
                "het wordt opnieuw geprobeerd",
                f"the journal cannot be made safe on disk (fsync: {e}); tried again",
            )
    if syncer is not None:
        out["sync_failures"] = syncer.failed_total
    if problem is not None:
        out.update(ok=False, text=problem.as_dict())
    if damage is not None:
        out["resumed"] = damage.to_dict()
    return out
