"""The built wheel: the Pico firmware inside it as package data (and `keezbord firmware
install` finding it from an installed wheel), and the pi4/pi5 extras' environment markers
read from its metadata: each Pi's backends on Linux aarch64/armv7l, nothing elsewhere."""

from __future__ import annotations

import email
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from keezbord.host.commands.firmware import FIRMWARE_FILES, firmware_dir

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "keezbord", "firmware")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The wheel, built from a copy of the sources (the build leaves build/ and egg-info
    behind, which must not land in the work tree)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(p, src / name)
    out = tmp / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--quiet", "-w", str(out), str(src)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    (whl,) = out.glob("keezbord-*.whl")
    yield whl


def _metadata(whl: Path) -> email.message.Message:
    with zipfile.ZipFile(whl) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(z.read(name))


def _extra(meta: email.message.Message, extra: str,
           platform: str, machine: str) -> set[str]:
    """The requirement names an install of ``keezbord[extra]`` pulls in on that machine."""
    env = {"platform_system": platform, "platform_machine": machine, "extra": extra,
           "python_version": "3.11", "sys_platform": platform.lower()}
    out = set()
    for line in meta.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is not None and "extra" in str(req.marker) and req.marker.evaluate(env):
            out.add(req.name.lower())
    return out


def test_the_wheel_carries_the_firmware(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for f in FIRMWARE_FILES:
            assert f"keezbord/_firmware/{f}" in names
        main_py = z.read("keezbord/_firmware/main.py")
    assert main_py == (ROOT / "firmware" / "main.py").read_bytes()


PI4 = {"rpi-lgpio", "spidev", "rpi-ws281x", "adafruit-circuitpython-neopixel"}
PI5 = {"rpi-lgpio", "spidev", "adafruit-circuitpython-neopixel",
       "adafruit-blinka-raspberry-pi5-neopixel"}


@pytest.mark.parametrize("machine", ["aarch64", "armv7l"])
def test_each_pi_extra_installs_that_pis_backends_on_a_pi(wheel: Path, machine: str) -> None:
    meta = _metadata(wheel)
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"pi4", "pi5", "pi"} <= extras
    assert _extra(meta, "pi4", "Linux", machine) == PI4
    assert _extra(meta, "pi5", "Linux", machine) == PI5
    assert _extra(meta, "pi", "Linux", machine) == {"keezbord"}  # keezbord[pi4,pi5]
    assert any(r.startswith("keezbord[pi4,pi5]") for r in meta.get_all("Requires-Dist") or [])


def test_the_pi4_extra_covers_the_armv6l_pis(wheel: Path) -> None:
    """A Zero W or a Pi 1 (armv6l) gets the Pi 4 set (rpi_ws281x, rpi-lgpio, spidev), as
    drivers/pi.py's pi_extra says; never the Pi 5 backend."""
    meta = _metadata(wheel)
    assert _extra(meta, "pi4", "Linux", "armv6l") == PI4
    assert _extra(meta, "pi5", "Linux", "armv6l") == set()


@pytest.mark.parametrize(("platform", "machine"), [
    ("Linux", "x86_64"), ("Darwin", "arm64"), ("Windows", "AMD64"), ("Linux", "riscv64")])
def test_the_pi_extras_install_nothing_elsewhere(wheel: Path, platform: str,
                                                 machine: str) -> None:
    meta = _metadata(wheel)
    assert _extra(meta, "pi4", platform, machine) == set()
    assert _extra(meta, "pi5", platform, machine) == set()


def test_firmware_install_from_an_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    code = ("import sys, keezbord; print(keezbord.__file__); "
            "from keezbord.host.cli import main; "
            "sys.exit(main(['firmware', 'install', '--chips', '12', '--port', '/dev/ttyACM0',"
            " '--dry-run']))")
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(str(site))  # the wheel's keezbord, not the work tree's
    board = json.loads(lines[1].removeprefix("# board.json: "))
    assert board["signature"] == 0xA5 and board["tail_level"] == 1
    copied = [Path(a) for a in lines[3].split()[5:-2]]
    assert {p.name for p in copied} == set(FIRMWARE_FILES)
    assert all(p.parent == site / "keezbord" / "_firmware" for p in copied)


def test_a_checkout_or_editable_install_uses_the_firmware_folder() -> None:
    found = firmware_dir()
    assert found is not None
    assert found in (ROOT / "firmware", Path(sys.modules["keezbord"].__file__ or "")
                     .parent / "_firmware")
    assert all((found / f).is_file() for f in FIRMWARE_FILES)


def _local_imports(path: Path) -> set[str]:
    """The firmware modules ``path`` imports (anywhere in it: main.py imports late)."""
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return {n for n in names if (path.parent / f"{n}.py").is_file()}


def test_firmware_install_copies_every_module_main_py_imports() -> None:
    """A module the Pico's main.py reaches but FIRMWARE_FILES lacks would pass every
    unix-port test and fail with ImportError on the first real Pico."""
    fw = ROOT / "firmware"
    seen: set[str] = set()
    todo = ["main"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_local_imports(fw / f"{name}.py") - seen)
    missing = {f"{n}.py" for n in seen} - set(FIRMWARE_FILES)
    assert not missing, f"add to FIRMWARE_FILES: {sorted(missing)}"
    assert "fakes.py" not in FIRMWARE_FILES and "unix_main.py" not in FIRMWARE_FILES
