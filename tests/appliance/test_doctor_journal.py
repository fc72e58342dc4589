"""keezbord doctor on the journal itself (appliance/checks_journal.py): the game in
progress resumed from a damaged journal, a game that cannot be resumed, a file that is
not a journal, and the running service's word on its writes (a full disk, a failing
fsync), each with its fix, in Dutch and English."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fake_tree import good_probes, healthy_service, pi5_pico

from keezbord.host.appliance.doctor import Finding, run_checks
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.probes import ServiceReport
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate


def _found(
    layout: Layout, service: ServiceReport | None = None, free: int = 8 * 1024**3
) -> dict[str, Finding]:
    return {f.check: f for f in run_checks(layout, good_probes(service=service, free=free))}


def _game(layout: Layout) -> int:
    game = simulate(4, "standard", 21)
    s = GameSession.start(layout.journal, {**game.setup, "mode": "run"})
    for ev in game.events[:60]:
        s.feed(ev)
    s.close()
    return len(game.events[:60])


def test_a_game_resumed_from_a_damaged_journal_is_named_with_what_was_set_aside(
    tmp_path: Path,
) -> None:
    layout = pi5_pico(tmp_path)
    n = _game(layout)
    found = _found(layout)
    assert found["journal game"].ok  # an undamaged game reads
    with sqlite3.connect(layout.journal) as c:
        c.execute("UPDATE inputs SET data = 'garbage' WHERE game = 1 AND seq = 30")
    GameSession.resume(layout.journal).close()  # the service's start sets them aside
    bad = _found(layout)["journal game"]
    assert not bad.ok
    assert f"game 1 resumed after input 30, {n - 30} input(s) set aside" in bad.text.en
    assert "spel 1 hervat na invoer 30" in bad.text.nl
    assert bad.fix is not None and "sudo -u keezbord" in bad.fix.en
    assert "journal export --game 1" in bad.fix.en and "zettenlijst" in bad.fix.nl


def test_a_game_whose_setup_does_not_read_is_named_with_the_set_aside_command(
    tmp_path: Path,
) -> None:
    layout = pi5_pico(tmp_path)
    _game(layout)
    with sqlite3.connect(layout.journal) as c:
        c.execute("UPDATE games SET setup = substr(setup, 2) WHERE id = 1")
    bad = _found(layout)["journal game"]
    assert not bad.ok and "game 1 cannot be resumed" in bad.text.en
    assert bad.fix is not None and "journal set-aside --game 1 --config" in bad.fix.en
    assert "sudo systemctl restart" in bad.fix.en and "apart" in bad.fix.nl


def test_a_file_that_is_not_a_journal_is_named(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    layout.journal.write_bytes(b"not a database " * 100)
    bad = _found(layout)["journal file"]
    assert not bad.ok and "not a keezbord journal" in bad.text.en
    assert bad.fix is not None and "sudo mv" in bad.fix.en


def _service_saying(en: str, nl: str) -> ServiceReport:
    health = healthy_service().health or {}
    return ServiceReport(
        healthy_service().version,
        {**health, "journal": {"ok": False, "text": {"nl": nl, "en": en}}},
    )


def test_what_the_running_service_says_of_its_journal_writes(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    full = _service_saying(
        "the journal cannot be written: the disk is full",
        "het journaal kan niet worden geschreven: de schijf is vol",
    )
    bad = _found(layout, service=full)["journal writes"]
    assert not bad.ok and "the disk is full" in bad.text.en and "schijf is vol" in bad.text.nl
    assert bad.fix is not None and "free some space" in bad.fix.en
    fsync = _service_saying(
        "the journal cannot be made safe on disk (fsync: EIO); tried again",
        "het journaal kan niet veilig op schijf worden gezet (fsync: EIO)",
    )
    bad = _found(layout, service=fsync)["journal writes"]
    assert "fsync" in bad.text.en and bad.fix is not None and "SD card" in bad.fix.en
    assert "journal writes" not in _found(layout)  # a healthy service: nothing to say


def test_a_full_disk_says_the_journal_cannot_be_written(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    bad = _found(layout, free=4096)["journal"]
    assert not bad.ok and "the journal cannot be written: the disk is full" in bad.text.en
    assert "de schijf is vol" in bad.text.nl
