"""What is installed: the extras, the journal's folder, the service."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import SERVICE, USER, Layout
from keezbord.host.appliance.probes import Board, Finding, Probes
from keezbord.host.appliance.unit import sudo_keezbord

MIN_FREE_BYTES = 100 * 1024 * 1024
FULL_BYTES = 1024 * 1024  # less: the journal's next pages may not fit


def extra_checks(board: Board, gen: int | None, probes: Probes) -> list[Finding]:
    """The extras this board needs, and the NeoPixel backend of this Pi's generation."""
    from keezbord.host.extras import EXTRAS

    pi_extra = "pi5" if gen == 5 else "pi4"
    needs: dict[str, list[str]] = {"web": list(EXTRAS["web"]), "appliance": ["zeroconf"]}
    if board.scanner == "pico-serial":
        needs["pico"] = list(EXTRAS["pico"])
    direct: list[str] = []
    if board.reader != "none" and "pico" not in needs:
        direct.append("serial")
    if board.scanner == "gpio":
        direct += ["lgpio"] + (["spidev"] if board.method == "spi" else [])
    if board.led_driver == "neopixel":
        # Pi 5: its RP1 chip drives the strip (PIO); Pi 4: rpi_ws281x behind neopixel.
        direct += ["adafruit_blinka_raspberry_pi5_neopixel"] if gen == 5 else ["rpi_ws281x"]
        direct.append("neopixel")
    if board.led_driver == "neopixel-spi" and "spidev" not in direct:
        direct.append("spidev")  # strip_spi.py: our encoder on py-spidev
    if direct:
        needs[pi_extra] = direct
    from keezbord.host.extras import PI_WHEEL

    out = []
    # The venv keezbord runs from (/opt/keezbord), the wheel install-pi.md copied over.
    pip = f"sudo {Path(sys.executable).parent / 'pip'} install {PI_WHEEL}"
    for extra, mods in needs.items():
        gone = [m for m in mods if not probes.importable(m)]
        if gone:
            fix = f'{pip}[{extra}]"'
            out.append(
                Finding(
                    f"extra {extra}",
                    False,
                    Text(f"ontbreekt: {', '.join(gone)}", f"missing: {', '.join(gone)}"),
                    Text(fix, fix),
                )
            )
        else:
            have = ", ".join(mods)
            out.append(Finding(f"extra {extra}", True, Text(have, have)))
    return out


def journal_check(board: Board, probes: Probes, owner: int | None = None) -> Finding:
    """The journal's folder: there, writable by the service (``owner``: its user's uid,
    None when there is no such user yet), with room to grow."""
    folder = board.journal.parent
    if not folder.is_dir():
        return Finding(
            "journal",
            False,
            Text(f"{folder} bestaat niet", f"{folder} does not exist"),
            Text(
                f"{sudo_keezbord('service install')} (maakt {folder})",
                f"{sudo_keezbord('service install')} (makes {folder})",
            ),
        )
    st = folder.stat()
    foreign = owner is not None and st.st_uid != owner and not st.st_mode & 0o002
    if foreign or not os.access(folder, os.W_OK):
        return Finding(
            "journal",
            False,
            Text(f"{folder} is niet beschrijfbaar", f"{folder} is not writable"),
            Text(f"sudo chown -R {USER}:{USER} {folder}", f"sudo chown -R {USER}:{USER} {folder}"),
        )
    free = probes.free_bytes(folder)
    mb = free // (1024 * 1024)
    if free < MIN_FREE_BYTES:
        from keezbord.host.journal_status import FULL

        return Finding(
            "journal",
            False,
            Text(f"{folder}: nog {mb} MB vrij", f"{folder}: only {mb} MB free")
            if free >= FULL_BYTES
            else Text(f"{FULL.nl} ({folder})", f"{FULL.en} ({folder})"),
            Text(
                "maak ruimte (sudo apt-get clean; journal export --all naar een USB-stick)",
                "free some space (sudo apt-get clean; journal export --all to a USB stick)",
            ),
        )
    return Finding("journal", True, Text(f"{folder}: {mb} MB vrij", f"{folder}: {mb} MB free"))


def service_check(layout: Layout, probes: Probes) -> Finding:
    if not layout.unit.exists():
        return Finding(
            "service",
            False,
            Text(f"{SERVICE} is niet geïnstalleerd", f"{SERVICE} is not installed"),
            Text(sudo_keezbord("service install"), sudo_keezbord("service install")),
        )
    enabled = probes.runner(["systemctl", "is-enabled", SERVICE])[0] == 0
    active = probes.runner(["systemctl", "is-active", SERVICE])[0] == 0
    if not enabled:
        return Finding(
            "service",
            False,
            Text(f"{SERVICE} start niet bij het opstarten", f"{SERVICE} does not start at boot"),
            Text(
                f"sudo systemctl enable --now {SERVICE}", f"sudo systemctl enable --now {SERVICE}"
            ),
        )
    if not active:
        return Finding(
            "service",
            False,
            Text(f"{SERVICE} draait niet", f"{SERVICE} is not running"),
            Text(
                f"sudo systemctl restart {SERVICE}; waarom: journalctl -u {SERVICE} -n 50",
                f"sudo systemctl restart {SERVICE}; why: journalctl -u {SERVICE} -n 50",
            ),
        )
    return Finding("service", True, Text(f"{SERVICE} draait", f"{SERVICE} is running"))
