"""Which Pi this is, from the device tree's model string, and the defaults that follow:
the card reader's UART (Pi 5: /dev/ttyAMA0 with dtparam=uart0=on; Pi 4: /dev/serial0 with
dtoverlay=disable-bt) and the extra to install."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.host.config import BoardConfig, parse_config
from keezbord.host.drivers import pi


def model_file(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "model"
    p.write_bytes(text.encode() + b"\x00")  # the device tree's string ends in a NUL
    return p


@pytest.mark.parametrize(
    ("model", "port", "extra"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "/dev/ttyAMA0", "pi5"),
        ("Raspberry Pi 500 Rev 1.0", "/dev/ttyAMA0", "pi5"),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "/dev/ttyAMA0", "pi5"),
        ("Raspberry Pi 4 Model B Rev 1.5", "/dev/serial0", "pi4"),
        ("Raspberry Pi 400 Rev 1.0", "/dev/serial0", "pi4"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "/dev/serial0", "pi4"),
        # no digit right after "Raspberry Pi": still a Pi (mini UART on serial0, like a Pi 3)
        ("Raspberry Pi Zero 2 W Rev 1.0", "/dev/serial0", "pi4"),
        ("Raspberry Pi Zero W Rev 1.1", "/dev/serial0", "pi4"),
    ],
)
def test_defaults_per_model(tmp_path: Path, model: str, port: str, extra: str) -> None:
    path = model_file(tmp_path, model)
    assert pi.pi_model(path) == model
    assert pi.default_rfid_port(path) == port
    assert pi.pi_extra(path) == extra


def test_not_a_pi(tmp_path: Path) -> None:
    missing = tmp_path / "nothing"
    assert pi.pi_model(missing) is None and pi.pi_extra(missing) is None
    assert pi.default_rfid_port(missing) == "/dev/serial0"
    assert pi.pi_generation("Orange Pi 5") is None
    assert pi.pi_generation("Raspberry Pi Zero 2 W Rev 1.0") == 3


def test_the_pi5_default_reaches_the_board_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pi, "PI_MODEL_PATH", model_file(tmp_path, "Raspberry Pi 5 Model B"))
    assert parse_config({}).rfid.port == "/dev/ttyAMA0"
    assert BoardConfig().rfid.port == "/dev/ttyAMA0"
    assert parse_config({"rfid": {"port": "/dev/ttyUSB0"}}).rfid.port == "/dev/ttyUSB0"
    monkeypatch.setattr(pi, "PI_MODEL_PATH", model_file(tmp_path, "Raspberry Pi 4 Model B"))
    assert parse_config({}).rfid.port == "/dev/serial0"


def test_the_model_is_read_from_sysfs_where_procfs_has_no_device_tree_link(
    tmp_path: Path,
) -> None:
    # On a Pi /proc/device-tree links to /sys/firmware/devicetree/base; a container (the
    # rehearsal, tests/rehearsal) has only the sysfs side.
    sysfs = tmp_path / "sys/firmware/devicetree/base"
    sysfs.mkdir(parents=True)
    (sysfs / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    proc = tmp_path / "proc/device-tree/model"
    assert pi.pi_model(proc) == "Raspberry Pi 5 Model B Rev 1.0"
    assert pi.default_rfid_port(proc) == "/dev/ttyAMA0"
    assert pi.pi_model(tmp_path / "elsewhere/model") is None  # only that one link
