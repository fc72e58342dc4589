"""A full disk and a read-only journal, on real file systems: a small tmpfs in a mount
namespace of its own (``unshare -m``), in a subprocess bounded in time. CI runs as root,
which writes through a read-only mode bit, so a read-only *mount* is the honest test.

- A full disk: the page (a new game asked for too) and the health say "the journal
  cannot be written: the disk is full", the log says it once (before: 471 lines of "cannot
  rollback - no transaction is active", the ROLLBACK hiding the real error), the board's
  state is kept, and the game goes on when space is back.
- A read-only journal is "not writable" (before: "not a keezbord journal"), and ``run``
  exits with status 3, on which the service's unit does not restart (appliance/unit.py).
- The journal is 0600 under a person's umask (022): it holds each virtual deal's seed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.unit import service_unit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _unshare() -> None:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare(1) for a mount namespace (CI runs as root)")


def _in_namespace(tmp: Path, script: str, size: str = "1m") -> subprocess.CompletedProcess[str]:
    """``script`` (sh) in a new mount namespace with a ``size`` tmpfs on ``tmp/mnt``."""
    mnt = tmp / "mnt"
    mnt.mkdir()
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{HERE}", "MNT": str(mnt)}
    return subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c",
         f"mount -t tmpfs -o size={size} tmpfs \"$MNT\" && {script}"],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip


def test_a_full_disk_is_said_everywhere_keeps_the_state_and_goes_on_after(
    tmp_path: Path,
) -> None:
    _unshare()
    r = _in_namespace(tmp_path, f'{sys.executable} {HERE / "journal_disk_probe.py"} full "$MNT"')
    assert r.returncode == 0, r.stderr
    seen: dict[str, Any] = json.loads(r.stdout.splitlines()[-1])
    assert seen["state_kept"]  # nothing refereed that is not journalled
    # A new game asked for meanwhile is refused with the reason (before: "internal error",
    # the old game's journal closed under the board); the game in progress goes on.
    assert seen["new_game"] == {
        "en": "the journal cannot be written: the disk is full",
        "nl": "het journaal kan niet worden geschreven: de schijf is vol",
    }
    assert seen["same_game"]
    shown = seen["instruction"]
    assert shown["source"] == "journal" and shown["tone"] == "fix"
    assert shown["text"]["en"] == "The journal cannot be written: the disk is full"
    assert shown["text"]["nl"] == "Het journaal kan niet worden geschreven: de schijf is vol"
    health = seen["health"]
    assert not health["ok"] and health["text"]["en"] == (
        "the journal cannot be written: the disk is full"
    )
    full = [line for line in seen["log"] if "disk is full" in line]
    assert len(full) == 1, seen["log"]  # once, not once an input
    assert not any("rollback" in line for line in seen["log"]), seen["log"]
    # Space back: the game goes on, and says so.
    assert seen["after"] == seen["before"] + 2 and seen["health_after"]["ok"]
    assert seen["instruction_after"] is None or seen["instruction_after"]["source"] != "journal"
    assert any("written again" in line for line in seen["log"])
    assert seen["mode"] == "0o600" and seen["wal_mode"] == "0o600"


def test_a_read_only_journal_is_not_writable_and_run_exits_3(tmp_path: Path) -> None:
    _unshare()
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        '[scanner]\nport = "/nonexistent/pico"\n[rfid]\nreader = "none"\n'
        f'[files]\njournal = "{tmp_path / "mnt" / "games.sqlite"}"\n'
    )
    make = (
        f'{sys.executable} -c "from keezbord.host.journal import Journal; '
        f"Journal('$MNT/games.sqlite').close()\""
    )
    cli = f"{sys.executable} -m keezbord.host.cli"
    r = _in_namespace(
        tmp_path,
        f'{make} && mount -o remount,ro "$MNT" && '
        f"{cli} run --host 127.0.0.1 --port 0 --config {cfg}",
    )
    assert r.returncode == 3, (r.stdout, r.stderr)
    (line,) = r.stderr.splitlines()
    assert "the journal cannot be written: not writable" in line
    assert "read-only file system" in line and "not a keezbord journal" not in line
    unit = service_unit(Layout(), ["/opt/keezbord/bin/keezbord"], groups=[])
    assert "RestartPreventExitStatus=3" in unit.splitlines()
