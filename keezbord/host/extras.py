"""The optional extras (pyproject.toml, README "Install"): what each provides, and the
one-line error of a command whose extra is not installed.

The base install has no third-party package, so every third-party import sits inside the
function that needs it. A command checks its extra up front with ``require`` (before it
opens a journal or a port); the CLI dispatcher turns any other ``ModuleNotFoundError`` of
a module listed here into the same one line (``missing_extra``), exit status 2.
"""

from __future__ import annotations

import importlib.util
from typing import Final

from keezbord.host.errors import UsageError

# extra -> the top-level modules it brings (import names, not package names)
EXTRAS: Final[dict[str, tuple[str, ...]]] = {
    "web": ("starlette", "uvicorn", "websockets", "segno"),
    "board": ("cairosvg", "cairocffi"),
    "pico": ("serial", "mpremote"),
    "club": ("paho",),
    "appliance": ("zeroconf",),
}
# The Pi-direct backends: one extra per Pi generation (docs/drivers.md).
PI_MODULES: Final = (
    "RPi",
    "lgpio",
    "spidev",
    "neopixel",
    "board",
    "rpi_ws281x",
    "adafruit_blinka_raspberry_pi5_neopixel",
)


# import name -> the package to install, where they differ
_PACKAGE: Final = {"serial": "pyserial", "paho": "paho-mqtt", "RPi": "rpi-lgpio"}


class MissingExtraError(UsageError):
    """A command needs an extra that is not installed (one line, exit 2)."""


# Where docs/install-pi.md puts keezbord on the Pi: its own virtual environment (Bookworm
# refuses a system-wide pip, PEP 668) from the wheel copied to /home/pi (not on PyPI).
PI_PIP: Final = "sudo /opt/keezbord/bin/pip install"
PI_WHEEL: Final = '"$(ls -t /home/pi/keezbord-*.whl | head -n 1)'


def pi_install(extras: str) -> str:
    """The command that adds ``extras`` (e.g. "pi4", "web,pico,pi5") to the Pi's keezbord."""
    return f'{PI_PIP} {PI_WHEEL}[{extras}]"'


def install_hint(extra: str) -> str:
    if extra == "pi":
        return (
            "install the 'pi4' extra on a Raspberry Pi 4 or 'pi5' on a Pi 5, into the Pi's "
            f"venv (docs/install-pi.md step 3): {pi_install('pi4')}"
        )
    return f"install the '{extra}' extra: pip install 'keezbord[{extra}]'"


def extra_of(module: str) -> str | None:
    """The extra that brings a module (``serial.tools`` -> ``pico``), or None."""
    top = module.split(".")[0]
    if top in PI_MODULES:
        return "pi"
    return next((extra for extra, mods in EXTRAS.items() if top in mods), None)


def missing(extra: str) -> list[str]:
    """The modules of an extra that cannot be imported here."""
    return [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]


def require(extra: str, what: str) -> None:
    """Raise MissingExtraError unless every module of ``extra`` is installed; ``what``
    names what needs it (``"the web page"``)."""
    gone = missing(extra)
    if gone:
        names = ", ".join(_PACKAGE.get(m, m) for m in gone)
        raise MissingExtraError(f"{what} needs {names}: {install_hint(extra)}")


def missing_extra(e: ModuleNotFoundError) -> str | None:
    """The one-line message for a failed import of a module an extra brings, else None
    (a missing module of our own is a bug, not a missing extra)."""
    extra = extra_of(e.name or "")
    if extra is None:
        return None
    top = (e.name or "").split(".")[0]
    return f"{_PACKAGE.get(top, top)} is not installed: {install_hint(extra)}"
