"""What only a real Raspberry Pi can show (marked `pi`: they skip elsewhere). Run them on
the first real install, after docs/install-pi.md, with the service installed, from a
checkout of the same version copied to the Pi (scp -r):

    sudo /opt/keezbord/bin/pip install pytest pytest-timeout
    cd keezbord && sudo /opt/keezbord/bin/python -m pytest tests/appliance/test_on_pi.py -m pi
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from keezbord.host.appliance.doctor import Probes, read_board, run_checks
from keezbord.host.appliance.paths import SERVICE, Layout
from keezbord.host.drivers import pi

pytestmark = pytest.mark.pi

PI = Layout(Path("/"))


def test_the_model_and_config_txt_are_read_from_the_real_places() -> None:
    assert pi.pi_generation(pi.pi_model(PI.model)) in (4, 5)
    assert any(p.is_file() for p in PI.boot_configs)


def test_doctor_passes_on_the_installed_board() -> None:
    findings = run_checks(PI, Probes())
    bad = [f.line("en") for f in findings if not f.ok]
    assert bad == []


def test_the_installed_unit_verifies_with_the_real_devices() -> None:
    exe = shutil.which("systemd-analyze")
    assert exe is not None and PI.unit.exists()
    done = subprocess.run([exe, "verify", str(PI.unit)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_service_runs_and_reaches_its_devices() -> None:
    active = subprocess.run(["systemctl", "is-active", SERVICE], capture_output=True, text=True)
    assert active.stdout.strip() == "active"
    board = read_board(PI)
    # The service's user can open the reader's port (the groups and the hardening agree).
    probe = subprocess.run(
        ["sudo", "-u", "keezbord", "test", "-r", board.reader_port, "-a", "-w", board.reader_port],
        check=False,
    )
    assert probe.returncode == 0


def test_keezbord_local_resolves_on_the_network() -> None:
    resolver = shutil.which("avahi-resolve")
    if resolver is None:
        pytest.fail("sudo apt install avahi-utils (to resolve keezbord.local here)")
    done = subprocess.run([resolver, "-4", "-n", "keezbord.local"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.split()[0] == "keezbord.local"
    address = done.stdout.split()[1]
    with socket.create_connection((address, 8000), timeout=5):
        pass
