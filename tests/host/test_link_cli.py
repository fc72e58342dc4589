"""``keezbord firmware``: board.json from options or board.toml, the mpremote commands,
and the MAINTENANCE request against the firmware under the unix port."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from keezbord.host.cli import main
from keezbord.host.commands import firmware as fwcmd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))
from unix_pico import UnixPico, micropython_binary


def test_dry_run_prints_board_json_and_mpremote(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "firmware",
                "install",
                "--chips",
                "12",
                "--leds",
                "96",
                "--port",
                "/dev/ttyACM3",
                "--brightness",
                "80",
                "--dry-run",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    # a board built to the reference design: tail level 1 and the 0xA5 signature chip
    assert json.loads(out[0].removeprefix("# board.json: ")) == {
        "chips": 12,
        "leds": 96,
        "brightness": 80,
        "signature": 0xA5,
        "tail_level": 1,
    }
    cp = out[2].split()
    assert cp[:5] == ["mpremote", "connect", "/dev/ttyACM3", "fs", "cp"]
    copied = {Path(a).name for a in cp[5:-1]}
    assert copied == {*fwcmd.FIRMWARE_FILES, "board.json", "version.py"}
    assert "fakes.py" not in copied and cp[-1] == ":"
    assert out[3] == "mpremote connect /dev/ttyACM3 reset"


def test_board_toml_sets_chips_leds_and_port(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "board.toml"
    toml.write_text(
        '[board]\nseats = 6\n[scanner]\nport = "/dev/ttyACM7"\n'
        "[leds]\nbrightness = 0.5\nbudget_ma = 1200\n"
    )
    assert main(["firmware", "install", "--config", str(toml), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    cfg = json.loads(out[0].removeprefix("# board.json: "))
    # 6 seats x 16 + 6 x 8 = 144 holes: 18 chips, 144 LEDs
    assert cfg["chips"] == 18 and cfg["leds"] == 144
    assert cfg["brightness"] == 128 and cfg["max_ma"] == 1200
    assert cfg["signature"] == 0xA5  # the key left out: the reference design's chip
    assert "/dev/ttyACM7" in out[2]
    toml.write_text('[board]\nseats = 4\n[scanner]\nsignature = "none"\n')
    assert main(["firmware", "install", "--config", str(toml), "--dry-run"]) == 0
    cfg = json.loads(capsys.readouterr().out.splitlines()[0].removeprefix("# board.json: "))
    assert cfg["signature"] is None and cfg["tail_level"] == 1 and cfg["chips"] == 12
    assert main(["firmware", "install", "--chips", "4", "--signature", "none", "--dry-run"]) == 0
    cfg = json.loads(capsys.readouterr().out.splitlines()[0].removeprefix("# board.json: "))
    assert cfg["signature"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dry-run"], "--chips"),
        (["--chips", "0", "--dry-run"], "--chips must be 1 to 255"),
        (["--chips", "4", "--scan-hz", "50", "--dry-run"], "--scan-hz must be 200"),
        (["--chips", "4", "--firmware-dir", "/nonexistent", "--dry-run"], "firmware files missing"),
        (["--chips", "4", "--signature", "0x100", "--dry-run"], "--signature must be 0 to 255"),
        (["--chips", "4", "--signature", "A5", "--dry-run"], "--signature must be a byte"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "install", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_install_runs_mpremote(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[list[str]] = []
    sent: list[str] = []

    def fake_run(cmd: list[str], check: bool = False) -> Any:
        ran.append(cmd)
        if cmd[-1] == ":":
            board = Path(cmd[-2])
            sent.append(board.read_text())
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setattr("keezbord.host.drivers.port_holder.service_active", lambda: False)
    monkeypatch.setattr(fwcmd, "_wait_for_firmware", lambda port: "keezbord-fw x answers")
    assert (
        main(["firmware", "install", "--chips", "3", "--port", "/dev/x", "--no-maintenance"]) == 0
    )
    assert [c[1:4] for c in ran] == [["-m", "mpremote", "connect"]] * 2
    assert json.loads(sent[0]) == {"chips": 3, "leds": 24, "signature": 0xA5, "tail_level": 1}
    assert "installed on /dev/x" in capsys.readouterr().out


@pytest.mark.micropython
@pytest.mark.skipif(micropython_binary() is None, reason="no MicroPython unix port")
@pytest.mark.timeout(30)
def test_maintenance_request_stops_the_firmware(tmp_path: Path) -> None:
    pico = UnixPico(tmp_path / "strip.txt", "--chips", "1", "--leds", "2")
    try:
        fwcmd._request_maintenance(pico.path, reappear_s=0)
        # The unix harness has no machine.reset(): its run loop returns and it exits.
        assert pico.proc.wait(timeout=10) == 0
    finally:
        pico.stop()


def test_install_opens_the_port_exclusively() -> None:
    """`firmware install` cannot share the Pico's port with a running `keezbord run`."""
    import os

    import serial

    from keezbord.host.errors import UsageError

    master, slave = os.openpty()
    path = os.ttyname(slave)
    held = serial.Serial(path, 115200, exclusive=True)  # what `keezbord run` holds
    try:
        # One line: who holds it (this test's process) and how to free it.
        with pytest.raises(UsageError, match=rf"{path} is held by pid {os.getpid()} \("):
            fwcmd._request_maintenance(path, reappear_s=0)
    finally:
        held.close()
        os.close(master)
        os.close(slave)


def test_install_is_refused_while_the_service_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The service takes the Pico's port whenever it is free, also between mpremote's
    # commands: refused before anything is copied, in one line with the way out.
    monkeypatch.setattr("keezbord.host.drivers.port_holder.service_active", lambda: True)
    ran: list[Any] = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: ran.append(a))
    assert main(["firmware", "install", "--chips", "3", "--port", "/dev/x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ran == []
    assert "sudo systemctl stop keezbord" in err and "sudo systemctl start keezbord" in err


@pytest.mark.micropython
@pytest.mark.skipif(micropython_binary() is None, reason="no MicroPython unix port")
@pytest.mark.timeout(60)
def test_install_ends_only_when_the_new_firmware_answers(tmp_path: Path) -> None:
    # After `mpremote reset` the Pico's port is gone for a moment: install waits for the
    # firmware to answer with this keezbord's version (found by the rehearsal: a doctor
    # right after it found no Pico). The source tree's firmware says "keezbord-fw dev".
    from keezbord.host.errors import UsageError

    pico = UnixPico(tmp_path / "strip.txt", "--chips", "1", "--leds", "2")
    try:
        with pytest.raises(UsageError, match=r"answers keezbord-fw dev, not keezbord-fw "):
            fwcmd._wait_for_firmware(pico.path, within_s=15)
    finally:
        pico.stop()
    import os

    master, slave = os.openpty()
    try:
        with pytest.raises(UsageError, match="did not answer within 1 s"):
            fwcmd._wait_for_firmware(os.ttyname(slave), within_s=1)
    finally:
        os.close(master)
        os.close(slave)
