"""keezbord/host/extras.py: which extra brings which module, and the one-line message of a
command whose extra is missing (the base install itself is tested in test_packaging.py)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

from keezbord.host import extras
from keezbord.host.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_dev_install_has_every_module_of_every_extra_it_installs() -> None:
    # ./dev.sh installs .[all,dev]: a module listed here that no package of the extra
    # provides would make `require` refuse forever.
    for extra in extras.EXTRAS:
        assert extras.missing(extra) == [], extra


def test_the_extras_listed_are_the_ones_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    opt = declared["optional-dependencies"]
    assert declared["dependencies"] == []
    assert set(extras.EXTRAS) <= set(opt)
    assert opt["all"] == [f"keezbord[{','.join(extras.EXTRAS)}]"]


@pytest.mark.parametrize(
    ("module", "extra"),
    [
        ("starlette.routing", "web"),
        ("uvicorn", "web"),
        ("websockets", "web"),
        ("cairosvg.surface", "board"),
        ("serial.tools.list_ports", "pico"),
        ("mpremote", "pico"),
        ("paho.mqtt.client", "club"),
        ("RPi.GPIO", "pi"),
        ("spidev", "pi"),
        ("neopixel", "pi"),
        ("keezbord.host.nothing", None),
        ("numpy", None),
    ],
)
def test_extra_of(module: str, extra: str | None) -> None:
    assert extras.extra_of(module) == extra


def test_missing_extra_messages_are_one_line_and_name_the_extra() -> None:
    e = ModuleNotFoundError("No module named 'serial'", name="serial")
    assert extras.missing_extra(e) == (
        "pyserial is not installed: install the 'pico' extra: pip install 'keezbord[pico]'"
    )
    pi = extras.missing_extra(ModuleNotFoundError(name="RPi.GPIO"))
    assert pi is not None and "'pi4'" in pi and "'pi5'" in pi and "\n" not in pi
    assert extras.missing_extra(ModuleNotFoundError(name="keezbord.host.gone")) is None


def test_require_refuses_when_a_module_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    with pytest.raises(extras.MissingExtraError, match=r"needs uvicorn: install the 'web'"):
        extras.require("web", "the web page")
    extras.require("pico", "the Pico link")  # installed here: no error


def test_the_dispatcher_turns_a_missing_extra_into_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from keezbord.host.commands import firmware

    def status(args: object) -> int:
        import serial_missing_for_the_test  # type: ignore[import-not-found]  # noqa: F401

        return 0

    monkeypatch.setattr(
        extras, "EXTRAS", {**extras.EXTRAS, "pico": ("serial_missing_for_the_test",)}
    )
    monkeypatch.setattr(firmware, "_status", status)
    assert main(["firmware", "status"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "keezbord firmware: serial_missing_for_the_test is not installed: "
        "install the 'pico' extra: pip install 'keezbord[pico]'\n"
    )
    # a module of our own that is missing is a bug: not hidden behind an extra
    monkeypatch.setattr(firmware, "_status", lambda args: __import__("keezbord.nothing"))
    with pytest.raises(ModuleNotFoundError):
        main(["firmware", "status"])
