"""The devices the board uses, the Pico and its firmware, groups and permissions."""

from __future__ import annotations

import stat
from pathlib import Path

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import SERVICE, USER, Layout, colon_rows
from keezbord.host.appliance.probes import Board, Finding, Probes, system_path
from keezbord.host.drivers import pi


def device_checks(layout: Layout, board: Board, probes: Probes) -> list[Finding]:
    out: list[Finding] = []
    if board.needs_spi:
        spidevs = ", ".join(system_path(layout, p) for p in sorted(layout.dev.glob("spidev*")))
        out.append(
            Finding("spidev", True, Text(spidevs, spidevs))
            if spidevs
            else Finding(
                "spidev",
                False,
                Text("geen /dev/spidev*", "no /dev/spidev*"),
                Text(
                    "zet SPI aan (dtparam=spi=on) en herstart",
                    "turn SPI on (dtparam=spi=on) and reboot",
                ),
            )
        )
    if board.needs_gpio:
        chips = sorted(layout.dev.glob("gpiochip*"))
        out.append(
            Finding(
                "gpiochip",
                bool(chips),
                Text(f"{len(chips)} GPIO-chips", f"{len(chips)} GPIO chips"),
                None
                if chips
                else Text(
                    "geen /dev/gpiochip*: is dit Raspberry Pi OS op een Pi?",
                    "no /dev/gpiochip*: is this Raspberry Pi OS on a Pi?",
                ),
            )
        )
    if board.reader != "none":
        ok = layout.at(board.reader_port).exists()
        uart = board.reader_port in pi.HEADER_UARTS
        fix = (
            Text("zet de UART aan (zie uart) en herstart", "turn the UART on (see uart) and reboot")
            if uart
            else Text(
                "sluit de USB-seriële adapter van de lezer aan, of zet [rfid] port goed",
                "plug in the reader's USB serial adapter, or correct [rfid] port",
            )
        )
        out.append(
            Finding(
                "reader",
                ok,
                Text(
                    f"kaartlezer {board.reader} op {board.reader_port}",
                    f"card reader {board.reader} on {board.reader_port}",
                )
                if ok
                else Text(
                    f"{board.reader_port} (kaartlezer) bestaat niet",
                    f"{board.reader_port} (card reader) does not exist",
                ),
                None if ok else fix,
            )
        )
    if board.scanner == "pico-serial":
        out += _pico(layout, board, probes)
    return out


def _pico(layout: Layout, board: Board, probes: Probes) -> list[Finding]:
    from keezbord.host.drivers.link_serial import PICO_PID, PICO_VID, find_pico_port

    ports = list(probes.usb_ports())
    found = find_pico_port(ports)
    vidpid = f"{PICO_VID:04X}:{PICO_PID:04X}"
    if found is None:
        return [
            Finding(
                "pico",
                False,
                Text(f"geen Pico op USB ({vidpid})", f"no Pico on USB ({vidpid})"),
                Text(
                    "sluit de Pico aan met een datakabel (zonder MicroPython: docs/install-pi.md)",
                    "plug the Pico in with a data cable (no MicroPython on it: docs/install-pi.md)",
                ),
            )
        ]
    if found != board.scanner_port:
        return [
            Finding(
                "pico",
                False,
                Text(
                    f"de Pico zit op {found}, niet op {board.scanner_port}",
                    f"the Pico is on {found}, not on {board.scanner_port}",
                ),
                Text(
                    f'zet port = "{found}" onder [scanner]', f'set port = "{found}" under [scanner]'
                ),
            )
        ]
    out = [Finding("pico", True, Text(f"Pico op {found}", f"Pico on {found}"))]
    if probes.runner(["systemctl", "is-active", SERVICE])[0] == 0:
        out.append(
            Finding(
                "firmware",
                True,
                Text(
                    "de dienst houdt de verbinding (gezondheid: op de pagina)",
                    "the service holds the link (health: on the page)",
                ),
            )
        )
        return out
    report = probes.ask_pico(found)
    want = probes.expected_firmware or expected_firmware()
    install = Text(
        f"keezbord firmware install --port {found}", f"keezbord firmware install --port {found}"
    )
    if report.firmware is None:
        out.append(
            Finding(
                "firmware",
                False,
                Text(
                    f"de Pico antwoordt niet ({report.error})",
                    f"the Pico does not answer ({report.error})",
                ),
                install,
            )
        )
    elif report.firmware != want:
        out.append(
            Finding(
                "firmware",
                False,
                Text(
                    f"firmware {report.firmware}, verwacht {want}",
                    f"firmware {report.firmware}, expected {want}",
                ),
                install,
            )
        )
    elif not report.ok:
        out.append(
            Finding(
                "firmware",
                False,
                Text(
                    f"{report.firmware}, verbinding niet gezond ({report.error})",
                    f"{report.firmware}, link not healthy ({report.error})",
                ),
                Text(
                    f"keezbord firmware status --port {found} (en docs/drivers.md)",
                    f"keezbord firmware status --port {found} (and docs/drivers.md)",
                ),
            )
        )
    else:
        out.append(
            Finding(
                "firmware", True, Text(f"{report.firmware}, gezond", f"{report.firmware}, healthy")
            )
        )
    return out


def expected_firmware() -> str:
    from keezbord import __version__

    return f"keezbord-fw {__version__}"


def group_members(layout: Layout) -> dict[str, set[str]]:
    """/etc/group: group name -> its members."""
    return {r[0]: {m for m in r[3].split(",") if m} for r in colon_rows(layout.group_file, 4)}


def _gid_names(layout: Layout) -> dict[int, str]:
    return {int(r[2]): r[0] for r in colon_rows(layout.group_file, 3) if r[2].isdigit()}


def group_checks(layout: Layout, board: Board, probes: Probes) -> list[Finding]:
    user = probes.user or USER
    members = group_members(layout)
    mine = {g for g, who in members.items() if user in who}
    nodes: list[tuple[str, Path]] = []
    if board.needs_gpio:
        nodes += [("gpio", p) for p in sorted(layout.dev.glob("gpiochip*"))]
    if board.needs_spi:
        nodes += [("spi", p) for p in sorted(layout.dev.glob("spidev*"))]
    if board.reader != "none":
        nodes.append(("dialout", layout.at(board.reader_port)))
    if board.scanner == "pico-serial":
        nodes.append(("dialout", layout.at(board.scanner_port)))
    out: list[Finding] = []
    for group in sorted({g for g, _ in nodes}):
        ok = group in mine
        out.append(
            Finding(
                f"group {group}",
                ok,
                Text(f"{user} zit in {group}", f"{user} is in {group}")
                if ok
                else Text(
                    f"{user} zit niet in de groep {group}", f"{user} is not in the group {group}"
                ),
                None
                if ok
                else Text(
                    f"sudo usermod -aG {group} {user} (en herstart de dienst)",
                    f"sudo usermod -aG {group} {user} (and restart the service)",
                ),
            )
        )
    names = _gid_names(layout)
    for group, node in nodes:
        try:
            st = node.stat()
        except OSError:
            continue  # missing: said by the device checks
        owner = names.get(st.st_gid, str(st.st_gid))
        ok = (st.st_mode & 0o006 == 0o006) or (st.st_mode & 0o060 == 0o060 and owner in mine)
        if not ok:
            where = system_path(layout, node)
            mode = stat.filemode(st.st_mode)
            chgrp = f"sudo chgrp {group} {where} && sudo chmod g+rw {where}"
            out.append(
                Finding(
                    "permissions",
                    False,
                    Text(
                        f"{where} ({owner}, {mode}) is niet te gebruiken door {user}",
                        f"{where} ({owner}, {mode}) is not usable by {user}",
                    ),
                    Text(
                        f"{chgrp} (blijvend: een udev-regel, docs/install-pi.md)",
                        f"{chgrp} (for good: a udev rule, docs/install-pi.md)",
                    ),
                )
            )
    return out
