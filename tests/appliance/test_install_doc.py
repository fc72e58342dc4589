"""docs/install-pi.md: its `keezbord` commands, in the page's order, run against a fake
Pi 5 root (paths under the root, system commands printed, not run). A command the page
adds or changes is run here too; the ones that need the real parts are named below."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from fake_tree import BOOKWORM, MODELS, write

from keezbord.host.cli import main
from keezbord.host.session import GameSession

DOC = Path(__file__).resolve().parents[2] / "docs" / "install-pi.md"
KEEZBORD = "/opt/keezbord/bin/keezbord"
# Need the card reader itself (their --reader sim path: tests/host/test_card_registry.py).
NEEDS_PARTS = {("cards", "enroll")}
# Commands whose arguments are system paths that live under the fake root.
SYSTEM = ("/etc/", "/var/", "/media/", "/dev/")


def doc_commands() -> list[list[str]]:
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    out = []
    for block in blocks:
        for line in block.splitlines():
            if KEEZBORD + " " not in line:
                continue
            tail = line.split(KEEZBORD + " ", 1)[1]
            tail = re.split(r"'|\|", tail)[0]  # the end of a quoted cron line or a pipe
            out.append(shlex.split(tail))
    return out


def test_the_page_names_the_commands_it_should() -> None:
    names = {tuple(c[:2]) for c in doc_commands()}
    assert {("service", "install"), ("service", "status"), ("service", "token")} <= names
    assert {("doctor",), ("journal", "export"), ("service", "uninstall")} <= {
        tuple(c[:2]) if c[0] != "doctor" else ("doctor",) for c in doc_commands()
    }


def test_the_commands_of_the_page_run_against_a_fake_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path
    write(root, "/proc/device-tree/model", MODELS[5] + "\x00")
    write(root, "/etc/os-release", BOOKWORM)
    write(root, "/boot/firmware/config.txt", "dtparam=audio=on\ndtparam=uart0=on\n")
    write(root, "/etc/group", "dialout:x:20:pi\ngpio:x:993:\nspi:x:994:\n")
    write(root, "/etc/passwd", "root:x:0:0::/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n")
    (root / "media/keezbord-backup").mkdir(parents=True)
    ran = []
    for argv in doc_commands():
        if tuple(argv[:2]) in NEEDS_PARTS:
            continue
        args = [str(root) + a if a.startswith(SYSTEM) else a for a in argv]
        if argv[0] in ("service", "doctor"):
            args += ["--root", str(root)]
        journal = root / "var/lib/keezbord/keezbord.sqlite"
        if argv[:2] == ["journal", "export"] and not journal.exists():
            # The service has run a game by now (the journal is where service install
            # pointed the configuration).
            GameSession.start(journal, {"type": "setup", "seats": 4, "dealer": 3}).close()
        if argv[:2] == ["firmware", "install"]:
            args += ["--dry-run", "--port", "/dev/ttyACM0"]  # no Pico here
        code = main(args)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        if argv[0] == "doctor":
            # A fake root has no USB bus and no systemd: the Pico and the service fail,
            # each with its fix.
            assert code == 1 and "FAIL pico" in out and "-> sudo" in out, out
        elif argv[:2] == ["service", "status"]:
            assert code == 3 and "installed" in out  # systemd does not answer here
        else:
            assert code == 0, (argv, out, err)
        ran.append(" ".join(argv[:2]))
    assert ran.count("service install") == 3 and "journal export" in ran
    games = root / "media/keezbord-backup/games"
    assert sorted(p.name for p in games.iterdir()) == ["game-1.jsonl", "game-1.moves.txt"]
    assert not (root / "etc/systemd/system/keezbord.service").exists()  # uninstalled last
    assert (root / "var/lib/keezbord/tokens.json").exists()  # the state stays
