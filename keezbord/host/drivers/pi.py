"""Which Raspberry Pi this is, and what follows from it: the card reader's serial port,
the extra to install, the config.txt lines. Read from the device tree's model string
(``/proc/device-tree/model``, e.g. ``Raspberry Pi 5 Model B Rev 1.0``); the path is a
parameter so tests (and ``keezbord doctor``) can point it elsewhere.

Why the port differs: on a Pi 5, ``/dev/serial0`` is the 3-pin debug header (ttyAMA10);
the UART on GPIO14/15 is UART0, ``/dev/ttyAMA0``, once ``dtparam=uart0=on`` is set. On a
Pi 4 (and 3, 400, CM4) GPIO14/15 carry the mini UART unless ``dtoverlay=disable-bt``
hands them the PL011; ``/dev/serial0`` then points at it (``/dev/ttyAMA0``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

PI_MODEL_PATH: Final = Path("/proc/device-tree/model")
# /proc/device-tree is the kernel's link to the device tree in sysfs.
_PROC_DT: Final = "proc/device-tree/model"
_SYS_DT: Final = "sys/firmware/devicetree/base/model"
SERIAL0: Final = "/dev/serial0"
PI5_UART0: Final = "/dev/ttyAMA0"
# The names of the UART on GPIO14/15 (a USB serial adapter leaves those pins free).
HEADER_UARTS: Final = frozenset({SERIAL0, PI5_UART0, "/dev/ttyS0"})
# The config.txt line that puts a full UART (PL011) on GPIO14/15, per generation.
UART_CONFIG: Final = {5: "dtparam=uart0=on", 4: "dtoverlay=disable-bt"}
_GENERATION = re.compile(r"Raspberry Pi (?:Compute Module )?(\d)")
# Models whose string names no generation digit up front: the Zero 2 W is a Pi 3 (BCM2710),
# the Zero / Zero W and the first "Raspberry Pi Model B" are generation 1.
_NAMED = ((re.compile(r"Raspberry Pi Zero 2"), 3), (re.compile(r"Raspberry Pi "), 1))


def pi_model(path: Path = PI_MODEL_PATH) -> str | None:
    """The model string, or None when this is not a Pi (no such file). Where procfs has no
    ``device-tree`` link (a container), the file it points at on a Pi is read instead."""
    candidates = [path]
    if str(path).endswith(_PROC_DT):
        candidates.append(Path(str(path)[: -len(_PROC_DT)] + _SYS_DT))
    for candidate in candidates:
        try:
            raw = candidate.read_bytes()
        except OSError:
            continue
        return raw.rstrip(b"\x00\n").decode("ascii", "replace") or None
    return None


def pi_generation(model: str | None) -> int | None:
    """5 for a Pi 5, 500 or CM5; 4 for a Pi 4, 400 or CM4; 3 for a Pi 3 or Zero 2 W ...;
    None: not a Pi."""
    m = _GENERATION.match(model or "")
    if m:
        return int(m.group(1))
    return next((gen for pattern, gen in _NAMED if pattern.match(model or "")), None)


def default_rfid_port(path: Path = PI_MODEL_PATH) -> str:
    """The UART on GPIO14/15 as this Pi names it (see the module's docstring)."""
    return PI5_UART0 if pi_generation(pi_model(path)) == 5 else SERIAL0


def pi_extra(path: Path = PI_MODEL_PATH) -> str | None:
    """The keezbord extra with this Pi's Pi-direct backends (``pi5`` or ``pi4``)."""
    gen = pi_generation(pi_model(path))
    if gen is None:
        return None
    return "pi5" if gen >= 5 else "pi4"
