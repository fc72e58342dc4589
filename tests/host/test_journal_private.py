"""The journal is 0600 whoever starts the host: it holds each virtual deal's seed, and a
hand-started ``run`` has the person's umask (often 022; the service's is 0077)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from keezbord.host.journal import Journal


@pytest.fixture
def person_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_a_new_journal_and_its_wal_are_0600_under_a_person_umask(
    tmp_path: Path, person_umask: None
) -> None:
    db = tmp_path / "j.sqlite"
    with Journal(db) as j:
        j.append(j.new_game({"seats": 4}), 0, {"t": 0, "type": "tick"}, [])
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
        assert {p.name: _mode(p) for p in files} == {p.name: 0o600 for p in files}


def test_a_journal_readable_by_others_is_narrowed_when_opened(
    tmp_path: Path, person_umask: None
) -> None:
    db = tmp_path / "j.sqlite"
    Journal(db).close()
    db.chmod(0o644)  # as an older keezbord left it
    Journal(db).close()
    assert _mode(db) == 0o600
