"""The built wheel: the Pico firmware inside it as package data (and `keezbord firmware
install` finding it from an installed wheel), the extras read from its metadata (no
third-party package in the base install, `all` never the Pi backends, each Pi's backends
on Linux aarch64/armv7l only), and the base install alone in a fresh venv: every --help
works, a command whose extra is missing says which one in one line, exit 2."""

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
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "-w",
            str(out),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (whl,) = out.glob("keezbord-*.whl")
    yield whl


def _metadata(whl: Path) -> email.message.Message:
    with zipfile.ZipFile(whl) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(z.read(name))


def _extra(meta: email.message.Message, extra: str, platform: str, machine: str) -> set[str]:
    """The requirement names an install of ``keezbord[extra]`` pulls in on that machine."""
    env = {
        "platform_system": platform,
        "platform_machine": machine,
        "extra": extra,
        "python_version": "3.11",
        "sys_platform": platform.lower(),
    }
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


def test_the_wheel_carries_the_puzzle_set(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        data = z.read("keezbord/host/puzzles/shipped.jsonl")
    assert data == (ROOT / "keezbord" / "host" / "puzzles" / "shipped.jsonl").read_bytes()
    assert len(data.splitlines()) >= 60


# "keezbord": keezbord[appliance] (mDNS), which every board's Pi wants (issue 16).
PI4 = {
    "rpi-lgpio",
    "spidev",
    "rpi-ws281x",
    "adafruit-circuitpython-neopixel",
    "pyserial",
    "keezbord",
}
PI5 = {
    "keezbord",
    "rpi-lgpio",
    "spidev",
    "adafruit-circuitpython-neopixel",
    "adafruit-blinka-raspberry-pi5-neopixel",
    "pyserial",
}


@pytest.mark.parametrize("machine", ["aarch64", "armv7l"])
def test_each_pi_extra_installs_that_pis_backends_on_a_pi(wheel: Path, machine: str) -> None:
    meta = _metadata(wheel)
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"pi4", "pi5", "pi"} <= extras
    assert _extra(meta, "pi4", "Linux", machine) == PI4
    assert _extra(meta, "pi5", "Linux", machine) == PI5
    assert _extra(meta, "pi", "Linux", machine) == {"keezbord"}  # keezbord[pi4,pi5]
    assert any(r.startswith("keezbord[pi4,pi5]") for r in meta.get_all("Requires-Dist") or [])
    appliance = [
        r for r in meta.get_all("Requires-Dist") or [] if r.startswith("keezbord[appliance]")
    ]
    assert len(appliance) == 2  # from pi4 and from pi5


def test_the_pi4_extra_covers_the_armv6l_pis(wheel: Path) -> None:
    """A Zero W or a Pi 1 (armv6l) gets the Pi 4 set (rpi_ws281x, rpi-lgpio, spidev), as
    drivers/pi.py's pi_extra says; never the Pi 5 backend."""
    meta = _metadata(wheel)
    assert _extra(meta, "pi4", "Linux", "armv6l") == PI4
    assert _extra(meta, "pi5", "Linux", "armv6l") == set()


@pytest.mark.parametrize(
    ("platform", "machine"),
    [("Linux", "x86_64"), ("Darwin", "arm64"), ("Windows", "AMD64"), ("Linux", "riscv64")],
)
def test_the_pi_extras_install_nothing_elsewhere(wheel: Path, platform: str, machine: str) -> None:
    meta = _metadata(wheel)
    assert _extra(meta, "pi4", platform, machine) == set()
    assert _extra(meta, "pi5", platform, machine) == set()


def test_firmware_install_from_an_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    code = (
        "import sys, keezbord; print(keezbord.__file__); "
        "from keezbord.host.cli import main; "
        "sys.exit(main(['firmware', 'install', '--chips', '12', '--port', '/dev/ttyACM0',"
        " '--dry-run']))"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(str(site))  # the wheel's keezbord, not the work tree's
    board = json.loads(lines[1].removeprefix("# board.json: "))
    assert board["signature"] == 0xA5 and board["tail_level"] == 1
    copied = [Path(a) for a in lines[3].split()[5:-1]]
    assert {p.name for p in copied} == {*FIRMWARE_FILES, "version.py", "board.json"}
    assert all(
        p.parent == site / "keezbord" / "_firmware" for p in copied if p.name in FIRMWARE_FILES
    )


def test_a_checkout_or_editable_install_uses_the_firmware_folder() -> None:
    found = firmware_dir()
    assert found is not None
    assert found in (
        ROOT / "firmware",
        Path(sys.modules["keezbord"].__file__ or "").parent / "_firmware",
    )
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


# -- the extras and the base install (issue 12) ------------------------------------------

BASE_EXTRAS = {
    "web": {"starlette", "uvicorn", "websockets", "segno"},
    "board": {"cairosvg"},
    "pico": {"pyserial", "mpremote"},
    "club": {"paho-mqtt"},
    "appliance": {"zeroconf"},
}


def _base_requirements(meta: email.message.Message) -> list[str]:
    return [
        r
        for r in meta.get_all("Requires-Dist") or []
        if "extra" not in str(Requirement(r).marker or "")
    ]


def test_the_base_install_needs_no_third_party_package(wheel: Path) -> None:
    meta = _metadata(wheel)
    assert _base_requirements(meta) == []
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {*BASE_EXTRAS, "pi4", "pi5", "pi", "all", "dev"} <= extras
    for extra, names in BASE_EXTRAS.items():
        assert _extra(meta, extra, "Linux", "x86_64") == names, extra


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_all_is_every_extra_that_installs_anywhere_and_never_the_pi_backends(
    wheel: Path, machine: str
) -> None:
    meta = _metadata(wheel)
    assert _extra(meta, "all", "Linux", machine) == {"keezbord"}
    [req] = [
        Requirement(r)
        for r in meta.get_all("Requires-Dist") or []
        if Requirement(r).name == "keezbord" and "all" in str(Requirement(r).marker)
    ]
    assert req.extras == set(BASE_EXTRAS)  # web, board, pico, club, appliance: no pi4/pi5/pi


def _help_commands() -> list[list[str]]:
    from keezbord.host.cli import COMMANDS

    out = [["--help"], ["--version"], *([c, "--help"] for c in COMMANDS)]
    out += [["board", s, "--help"] for s in ("template", "wiring", "bom", "geometry")]
    out += [["cards", s, "--help"] for s in ("enroll", "list")]
    out += [["firmware", s, "--help"] for s in ("install", "status")]
    out += [["journal", "export", "--help"]]
    return out


@pytest.fixture(scope="module")
def base_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel alone (--no-deps, --no-index: nothing else can come
    in, and nothing is downloaded)."""
    venv = tmp_path_factory.mktemp("base") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv


def _base_run(venv: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("KEEZBORD_", "PYTHON", "VIRTUAL_ENV"))
    }
    env |= {"XDG_DATA_HOME": str(tmp / "xdg"), "KEEZBORD_SYSTEM_CONFIG": str(tmp / "absent.toml")}
    return subprocess.run(
        [str(venv / "bin" / "keezbord"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp,
        env=env,
    )


def test_the_base_venv_really_lacks_every_extra(base_venv: Path) -> None:
    code = (
        "import importlib.util as u; "
        "print([m for m in ('starlette', 'uvicorn', 'websockets', 'serial', 'mpremote', "
        "'cairosvg', 'paho', 'pytest') if u.find_spec(m)])"
    )
    done = subprocess.run(
        [str(base_venv / "bin" / "python"), "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def test_every_help_works_on_the_base_install(base_venv: Path, tmp_path: Path) -> None:
    for args in _help_commands():
        r = _base_run(base_venv, tmp_path, *args)
        assert r.returncode == 0, (args, r.stderr)
        assert r.stderr == "" and r.stdout.strip(), args
    version = _base_run(base_venv, tmp_path, "--version").stdout.strip()
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert version == f"keezbord {pyproject['project']['version']}"


def test_the_engine_and_the_rules_commands_work_on_the_base_install(
    base_venv: Path, tmp_path: Path
) -> None:
    r = _base_run(
        base_venv, tmp_path, "moves", "--card", "5", "NNST20/NNNT33/NT60H3H4/NNNN 0 standard"
    )
    assert r.returncode == 0, r.stderr
    assert [m["move"] for m in json.loads(r.stdout)["moves"]] == ["5 0:S-T5", "5 0:T20-T25"]
    r = _base_run(base_venv, tmp_path, "selfplay", "--games", "1", "--seats", "2")
    assert r.returncode == 0, r.stderr
    for args in (
        ["board", "wiring"],
        ["board", "bom"],
        ["board", "geometry"],
        ["board", "template", "--out", "t.svg"],
    ):
        r = _base_run(base_venv, tmp_path, *args)
        assert r.returncode == 0 and r.stdout, (args, r.stderr)
    assert (tmp_path / "t.svg").read_text().startswith("<?xml")


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["sim", "--no-browser"], "web"),
        (["board", "template", "--out", "t.pdf"], "board"),
        (["firmware", "status", "--port", "/dev/null"], "pico"),
        (["firmware", "install", "--chips", "12", "--port", "/dev/null"], "pico"),
    ],
)
def test_a_command_whose_extra_is_missing_says_which_in_one_line(
    base_venv: Path, tmp_path: Path, args: list[str], extra: str
) -> None:
    r = _base_run(base_venv, tmp_path, *args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stdout == "" and "Traceback" not in r.stderr
    [line] = r.stderr.splitlines()
    assert line.startswith(f"keezbord {args[0]}: ")
    assert f"install the '{extra}' extra: pip install 'keezbord[{extra}]'" in line
    assert not (tmp_path / "xdg").exists()  # refused before a journal was made
