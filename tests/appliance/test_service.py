"""keezbord service install|uninstall|status|token against a temporary root prefix: the
system commands go to a recording runner; the unit passes systemd-analyze verify."""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from fake_tree import pi5_pico, write

from keezbord.host.appliance import service
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.unit import kiosk_unit, service_unit
from keezbord.host.cli import main
from keezbord.host.config import load_config
from keezbord.host.roles import TokenStore

REPO = Path(__file__).resolve().parents[2]


def test_the_packaged_example_is_the_documented_one() -> None:
    assert service.example_config() == (REPO / "docs/board.example.toml").read_text()


def test_install_makes_config_state_tokens_user_and_unit(tmp_path: Path) -> None:
    write(tmp_path, "/etc/group", "gpio:x:993:\nspi:x:994:\ndialout:x:20:pi\n")
    layout = Layout(tmp_path)
    rec = service.Recorder()
    said = service.install(layout, rec, ["/opt/keezbord/bin/keezbord"], port=8080)
    assert any("made from the example" in t.en for t in said)
    cfg = load_config(layout.config)
    assert cfg.journal == layout.journal and cfg.cards == layout.cards
    assert stat.S_IMODE(layout.state.stat().st_mode) == 0o700
    assert stat.S_IMODE(layout.tokens.stat().st_mode) == 0o600
    useradd = rec.calls[0]
    assert useradd[0] == "useradd" and useradd[-1] == "keezbord"
    assert useradd[useradd.index("--groups") + 1] == "gpio,spi,dialout"
    assert ["chown", "-R", "keezbord:keezbord", str(layout.state)] in rec.calls
    assert rec.calls[-3:] == [
        ["systemctl", "daemon-reload"],
        ["systemctl", "enable", "keezbord.service"],
        ["systemctl", "restart", "keezbord.service"],  # an upgrade runs the new keezbord
    ]
    unit = layout.unit.read_text()
    assert (
        f"ExecStart=/opt/keezbord/bin/keezbord run --config {layout.config} "
        f"--state-dir {layout.state} --port 8080" in unit
    )
    assert "SupplementaryGroups=gpio spi dialout" in unit
    assert "Restart=on-failure" in unit and "After=network-online.target" in unit
    # No ordering on the ports (the Pico's is hot-plugged): no 90 s device timeout.
    assert ".device" not in unit
    assert "PrivateDevices" not in unit and "DevicePolicy" not in unit
    assert "StandardOutput=journal" in unit


def test_reinstall_never_overwrites_the_config_or_the_tokens(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    service.install(layout, service.Recorder(), ["keezbord"])
    layout.config.write_text("[board]\nseats = 6\n")
    before = TokenStore(layout.tokens).load()
    write(tmp_path, "/etc/passwd", "keezbord:x:990:990::/var/lib/keezbord:/usr/sbin/nologin\n")
    rec = service.Recorder()
    said = service.install(layout, rec, ["keezbord"])
    assert layout.config.read_text() == "[board]\nseats = 6\n"
    assert any(t.en.endswith(": kept") for t in said)
    assert TokenStore(layout.tokens).load() == before
    assert not any(c[0] == "useradd" for c in rec.calls)


def test_a_failing_system_command_is_one_line(tmp_path: Path) -> None:
    rec = service.Recorder(answers={"systemctl daemon-reload": (1, "Access denied\nreally")})
    with pytest.raises(
        service.ServiceError, match=r"systemctl daemon-reload failed \(1\): Access denied really"
    ):
        service.install(Layout(tmp_path), rec, ["keezbord"])


def test_uninstall_keeps_the_games_and_status_says_so(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    with pytest.raises(service.ServiceError, match="--kiosk pi: no such user"):
        service.install(layout, service.Recorder(), ["keezbord"], kiosk_user="pi")
    assert not layout.config.exists()  # refused before anything was written
    write(tmp_path, "/etc/passwd", "pi:x:1001:1001::/home/pi:/bin/bash\n")
    service.install(layout, service.Recorder(), ["keezbord"], kiosk_user="pi")
    kiosk = layout.kiosk_unit.read_text()
    assert "User=pi" in kiosk and "XDG_RUNTIME_DIR=/run/user/1001" in kiosk
    assert "--kiosk" in kiosk and "http://127.0.0.1:8000/" in kiosk
    rc, lines = service.status(layout, service.Recorder(answers={
        "systemctl is-active keezbord.service": (0, "active")}))  # fmt: skip
    assert rc == 0 and "service: active" in lines and "installed" in lines[0]
    rec = service.Recorder()
    service.uninstall(layout, rec)
    assert rec.calls[0] == [
        "systemctl",
        "disable",
        "--now",
        "keezbord.service",
        "keezbord-kiosk.service",
    ]
    assert not layout.unit.exists() and not layout.kiosk_unit.exists()
    assert layout.config.exists() and layout.tokens.exists()
    rc, lines = service.status(layout, service.Recorder(default=(3, "inactive")))
    assert rc == 3 and "not installed" in lines[0]


def test_the_commands_under_a_root_prefix_print_what_they_would_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = str(tmp_path)
    assert main(["service", "token", "--root", root]) == 2  # nothing installed yet
    assert "no tokens yet" in capsys.readouterr().err
    assert main(["service", "install", "--root", root]) == 0
    out = capsys.readouterr().out
    assert "(not run) systemctl restart keezbord.service" in out
    assert main(["service", "token", "--root", root, "--lang", "nl"]) == 0
    out = capsys.readouterr().out
    tokens = TokenStore(Layout(tmp_path).tokens).load()
    assert "toeschouwers (alleen kijken): http://keezbord.local:8000/\n" in out
    assert f"spelers: http://keezbord.local:8000/?token={tokens.player}" in out
    assert f"?token={tokens.referee}" in out
    assert main(["service", "status", "--root", root]) == 3
    assert main(["service", "uninstall", "--root", root]) == 0
    assert "kept:" in capsys.readouterr().out


@pytest.fixture(scope="module")
def analyze() -> str:
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.fail("systemd-analyze not found: ./dev.sh test installs Debian's systemd")
    return exe


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path, analyze: str) -> None:
    # Verified as on the Pi (root /): the state folder and the real interpreter.
    layout = Layout(Path("/"))
    text = service_unit(
        layout,
        [sys.executable, "-m", "keezbord.host.cli"],
        groups=["dialout"],
    )
    unit = tmp_path / "keezbord.service"
    unit.write_text(text)
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert "StateDirectory=keezbord" in text
    from keezbord.host.web.serving import NOFILE

    # The file descriptors the server's connection caps count on (issue 37: 1,024 by
    # default, all taken by a slow-header flood).
    assert f"LimitNOFILE={NOFILE}\n" in text


def test_the_kiosk_unit_passes_systemd_analyze_verify(tmp_path: Path, analyze: str) -> None:
    # Beside the service it wants (verify looks for it in the same folder).
    (tmp_path / "keezbord.service").write_text(
        service_unit(Layout(Path("/")), [sys.executable], groups=[])
    )
    unit = tmp_path / "keezbord-kiosk.service"
    unit.write_text(kiosk_unit("http://127.0.0.1:8000/", user="root", browser=sys.executable))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_good_fake_tree_has_the_service(tmp_path: Path) -> None:
    layout = pi5_pico(tmp_path)
    assert ".device" not in layout.unit.read_text()
    assert tomllib.loads(layout.config.read_text())["files"]["journal"] == str(layout.journal)
