"""The journal's trouble where a person looks (web/journal_notice.py): a failing fsync
on the page's instruction line and in the health while the game goes on, gone once
the disk works again; the broadcast key changes with it, so every page is told, in the
simulator too by the same periodic check (nothing else need change on the board)."""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest
from web_helpers import run_async

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


def test_the_simulator_tells_its_pages_of_a_failing_fsync_before_the_next_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``keezbord sim`` with every seat a person: nothing happens on the board, yet the
    pages are told of the failing fsync (before: only at the next change)."""
    monkeypatch.setattr(journal_sync, "FIRST_BACKOFF_S", 0.01)
    monkeypatch.setattr(journal_sync, "MAX_BACKOFF_S", 0.02)

    async def scenario() -> dict[str, object]:
        opts = HubOptions(db=tmp_path / "s.sqlite", tick_ms=5, health_ms=10)
        hub = Hub.open_sim(opts, kinds=["human"] * 4)  # (SQLite in this thread)
        await hub.start()
        try:
            told: asyncio.Queue[int] = asyncio.Queue()
            hub.listeners.add(told)
            syncer = hub.session.journal.syncer
            assert syncer is not None

            def fsync(fd: int) -> None:
                raise OSError(errno.EIO, "Input/output error")

            syncer.fsync = fsync
            syncer.ask()  # a durable commit's fsync, as a move's would be

            async def journal_line() -> dict[str, object]:
                while True:
                    await told.get()  # a broadcast: what the pages now get
                    shown = hub.page_state()["instruction"]
                    if shown is not None and shown["source"] == "journal":
                        return dict(shown)

            return await asyncio.wait_for(journal_line(), 60)
        finally:
            await hub.stop()

    shown = run_async(scenario)
    text = shown["text"]
    assert isinstance(text, dict) and "fsync" in text["en"] and "fsync" in text["nl"]
