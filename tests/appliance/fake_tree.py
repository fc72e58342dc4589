"""Fake root trees of a Raspberry Pi for the service commands and ``keezbord doctor``:
device nodes as plain files, /proc/device-tree/model, config.txt variants."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from keezbord.host.appliance.doctor import PicoReport, Probes
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.probes import ServiceReport
from keezbord.host.appliance.service import Recorder, install

MODELS = {
    5: "Raspberry Pi 5 Model B Rev 1.0",
    4: "Raspberry Pi 4 Model B Rev 1.5",
}
FIRMWARE = "keezbord-fw test"
BOOKWORM = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'

PI4_DIRECT = """
[board]
seats = 4
[scanner]
kind = "gpio"
method = "spi"
[leds]
driver = "auto"
[rfid]
reader = "pn532"
"""


@dataclass
class Port:
    device: str
    vid: int | None
    pid: int | None


def write(root: Path, path: str, text: str, mode: int | None = None) -> Path:
    p = root / path.lstrip("/")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    if mode is not None:
        os.chmod(p, mode)
    return p


def pi5_pico(root: Path) -> Layout:
    """A good Pi 5 with the Pico and a PN532 on the header UART, the service installed."""
    write(root, "/proc/device-tree/model", MODELS[5] + "\x00")
    write(root, "/etc/os-release", BOOKWORM)
    write(root, "/boot/firmware/config.txt", "[all]\ndtparam=audio=on\ndtparam=uart0=on\n")
    write(root, "/boot/firmware/cmdline.txt", "console=tty1 root=PARTUUID=1234-02 rootwait\n")
    _users(root)
    for node in ("/dev/ttyAMA0", "/dev/ttyACM0", "/dev/gpiochip0"):
        write(root, node, "", 0o660)
    layout = Layout(root)
    install(layout, Recorder(), ["/opt/keezbord/bin/keezbord"])
    return layout


def pi4_direct(root: Path) -> Layout:
    """A good Pi 4 without a Pico: the Pi scans by SPI0, drives the LEDs by SPI1's MOSI
    (GPIO20, no root), reads cards on the header UART; config.txt in its older place
    (/boot/config.txt)."""
    write(root, "/proc/device-tree/model", MODELS[4] + "\x00")
    write(root, "/etc/os-release", BOOKWORM)
    write(
        root,
        "/boot/config.txt",
        "dtparam=audio=on\n# dtparam=spi=off\ndtparam=i2c_arm=on,spi=on\n"
        "dtoverlay=spi1-1cs\n[pi4]\ndtoverlay=disable-bt\ncore_freq_min=500\n[cm4]\notg_mode=1\n",
    )
    write(root, "/boot/cmdline.txt", "console=tty1 root=PARTUUID=1234-02\n")
    _users(root)
    for node in ("/dev/serial0", "/dev/spidev0.0", "/dev/spidev0.1", "/dev/spidev1.0",
                 "/dev/gpiochip0"):  # fmt: skip
        write(root, node, "", 0o660)
    layout = Layout(root)
    write(root, "/etc/keezbord/board.toml", PI4_DIRECT + f'[files]\njournal = "{layout.journal}"\n')
    install(layout, Recorder(), ["/opt/keezbord/bin/keezbord"])
    return layout


def _users(root: Path) -> None:
    # The fake device nodes belong to the test's own group: name it after a group the
    # service user is in, as udev does on the Pi (dialout, gpio, spi).
    gid = os.stat(root).st_gid
    write(
        root,
        "/etc/group",
        f"devices:x:{gid}:keezbord\ngpio:x:993:keezbord\nspi:x:994:keezbord\n"
        "dialout:x:20:keezbord,pi\nkeezbord:x:990:\n",
    )
    # The service's user owns the state folder, as `chown -R` in service install makes it.
    write(root, "/etc/passwd", f"root:x:0:0::/root:/bin/bash\nkeezbord:x:{os.getuid()}:990::/:\n")


def healthy_service(**link: Any) -> ServiceReport:
    from keezbord import __version__

    return ServiceReport(
        __version__,
        {"link": {"kind": "pico-serial", "connected": True, "ok": True, "firmware": FIRMWARE,
                  "port": "/dev/ttyACM0", "error": None, "leds": None, **link}},
    )  # fmt: skip


def good_probes(
    *,
    active: bool = True,
    ports: Iterable[Any] = (Port("/dev/ttyACM0", 0x2E8A, 0x0005),),
    firmware: PicoReport | None = None,
    service: ServiceReport | None = None,
    missing: frozenset[str] = frozenset(),
    free: int = 8 * 1024**3,
) -> Probes:
    """A Pi where all is well; ``service`` is what the running service answers on
    /api/health (default: this keezbord, its link to the Pico's firmware healthy)."""
    answers = {
        "systemctl is-enabled keezbord.service": (0, "enabled"),
        "systemctl is-active keezbord.service": (0, "active") if active else (3, "inactive"),
    }
    return Probes(
        runner=Recorder(answers=answers),
        usb_ports=lambda: list(ports),
        importable=lambda m: m not in missing,
        ask_pico=lambda port: firmware or PicoReport(FIRMWARE, True),
        ask_service=lambda web: service or healthy_service(),
        settle_s=0.0,
        free_bytes=lambda p: free,
        expected_firmware=FIRMWARE,
    )
