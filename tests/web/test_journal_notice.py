"""The journal's trouble where a person looks (web/journal_notice.py): a failing fsync
on the page's instruction line and in the health while the game goes on, gone once
the disk works again; the broadcast key changes with it, so every page is told."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from keezbord.host import journal_sync
from keezbord.host.web.health_view import health_key
from keezbord.host.web.hub import Hub, HubOptions

SETUP = {"type": "setup", "seats": 4, "profile": "standard", "dealer": 3, "mode": "run"}


def test_a_failing_fsync_is_on_the_page_and_in_the_health_until_it_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_sync, "FIRST_BACKOFF_S", 0.01)
    monkeypatch.setattr(journal_sync, "MAX_BACKOFF_S", 0.02)
    hub = Hub.open_run(HubOptions(mode="run", db=tmp_path / "j.sqlite"), dict(SETUP), None)
    try:
        syncer = hub.session.journal.syncer
        assert syncer is not None
        healthy = hub.health()
        assert healthy is not None and healthy["journal"]["ok"]
        broken = True

        def fsync(fd: int) -> None:
            if broken:
                raise OSError(errno.EIO, "Input/output error")
            os.fsync(fd)

        syncer.fsync = fsync
        assert not hub.session.journal.flush(timeout=30)  # asks; fails
        hub.changed()
        shown = hub.page_state()["instruction"]
        assert shown is not None and shown["source"] == "journal"
        assert "fsync" in shown["text"]["en"] and "fsync" in shown["text"]["nl"]
        sick = hub.health()
        assert sick is not None and not sick["journal"]["ok"]
        assert health_key(sick) != health_key(healthy)  # the pages are told
        broken = False
        with syncer.cond:
            assert syncer.cond.wait_for(lambda: syncer.error is None, 30)
        hub.changed()
        shown = hub.page_state()["instruction"]
        assert shown is None or shown["source"] != "journal"
        well = hub.health()
        assert well is not None and well["journal"]["ok"] and well["journal"]["sync_failures"]
    finally:
        hub.session.close()
