"""The devices the board uses, the Pico and its firmware, groups and permissions."""

from __future__ import annotations

import stat
from pathlib import Path

from keezbord.engine.text import Text
from keezbord.host.appliance.checks_chain import chain_checks
from keezbord.host.appliance.paths import SERVICE, USER, Layout, colon_rows
from keezbord.host.appliance.probes import Board, Finding, Probes, system_path
from keezbord.host.drivers import pi


def device_checks(layout: Layout, board: Board, probes: Probes) -> list[Finding]:
    out: list[Finding] = []
    if board.needs_spi:
        # SPI0's: the chain's (SPI1's /dev/spidev1.0 is the LEDs', checks_leds.py).
        spidevs = ", ".join(system_path(layout, p) for p in sorted(layout.dev.glob("spidev0.*")))
        out.append(
            Finding("spidev", True, Text(spidevs, spidevs))
            if spidevs
            else Finding(
                "spidev",
                False,
                Text("geen /dev/spidev0.*", "no /dev/spidev0.*"),
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
    """The Pico and its firmware. The configured port is the Pico's when it exists, listed
    as USB 2E8A:0005 or not (a udev link, /dev/serial/by-id/..., or a port no USB list
    shows): the firmware check then says whose it is. The USB list only tells where a
    Pico is when the configured port is missing or is another device."""
    from keezbord.host.drivers.link_serial import PICO_PID, PICO_VID, find_pico_port

    found = find_pico_port(list(probes.usb_ports()))
    configured = layout.at(board.scanner_port)
    vidpid = f"{PICO_VID:04X}:{PICO_PID:04X}"
    if found is not None and not _same_node(configured, layout.at(found)):
        return [
            Finding(
                "pico",
                False,
                Text(
                    f"de Pico zit op {found}, niet op {board.scanner_port}",
                    f"the Pico is on {found}, not on {board.scanner_port}",
                ),
                Text(
                    f'zet port = "{found}" onder [scanner] (sudo nano {layout_config(layout)})',
                    f'set port = "{found}" under [scanner] (sudo nano {layout_config(layout)})',
                ),
            )
        ]
    if found is None and not configured.exists():
        return [
            Finding(
                "pico",
                False,
                Text(
                    f"geen Pico op USB ({vidpid}), geen {board.scanner_port}",
                    f"no Pico on USB ({vidpid}), no {board.scanner_port}",
                ),
                Text(
                    "sluit de Pico aan met een datakabel (zonder MicroPython: docs/install-pi.md)",
                    "plug the Pico in with a data cable (no MicroPython on it: docs/install-pi.md)",
                ),
            )
        ]
    port = board.scanner_port
    how = Text(f"Pico op {port}", f"Pico on {port}")
    if found is None:
        how = Text(
            f"{port} (niet als USB {vidpid} gezien; de firmware zegt van wie hij is)",
            f"{port} (not listed as USB {vidpid}; the firmware says whose it is)",
        )
    out = [Finding("pico", True, how)]
    if probes.runner(["systemctl", "is-active", SERVICE])[0] == 0:
        return out + _firmware_of_the_service(layout, port, probes, board)
    report = probes.ask_pico(port)
    out.append(_firmware(report.firmware, report.ok, report.error, port, probes))
    return out + chain_checks(board, report.chain_ok, report.log)


def _same_node(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def layout_config(layout: Layout) -> str:
    return system_path(layout, layout.config)


def reinstall_fix(layout: Layout) -> Text:
    """Stop the service (it holds the port), install the firmware, start it again."""
    from keezbord.host.appliance.unit import sudo_keezbord

    cmd = (
        f"sudo systemctl stop {SERVICE} && "
        f"{sudo_keezbord('firmware install --config ' + layout_config(layout))} && "
        f"sudo systemctl start {SERVICE}"
    )
    return Text(cmd, cmd)


def _firmware(
    firmware: str | None, ok: bool, error: str | None, port: str, probes: Probes,
    layout: Layout | None = None,
) -> Finding:  # fmt: skip
    """The firmware's version and link health, as the Pico (or the service) told them."""
    want = probes.expected_firmware or expected_firmware()
    install = reinstall_fix(layout or Layout())
    if firmware is None:
        return Finding(
            "firmware",
            False,
            Text(
                f"geen keezbord-firmware op {port} ({error or 'geen antwoord'}; kale MicroPython?)",
                f"no keezbord firmware on {port} ({error or 'no answer'}; bare MicroPython?)",
            ),
            install,
        )
    if firmware != want:
        return Finding(
            "firmware",
            False,
            Text(f"firmware {firmware}, verwacht {want}", f"firmware {firmware}, expected {want}"),
            install,
        )
    if not ok:
        return Finding(
            "firmware",
            False,
            Text(
                f"{firmware}, verbinding niet gezond ({error})",
                f"{firmware}, link not healthy ({error})",
            ),
            Text(
                f"sudo journalctl -u {SERVICE} -n 50 (en docs/drivers.md)",
                f"sudo journalctl -u {SERVICE} -n 50 (and docs/drivers.md)",
            ),
        )
    return Finding("firmware", True, Text(f"{firmware}, gezond", f"{firmware}, healthy"))


def _firmware_of_the_service(
    layout: Layout, port: str, probes: Probes, board: Board | None = None
) -> list[Finding]:
    """The service holds the link: ask it (GET /api/health on its port, loopback), never
    assume. Its own version must be this keezbord's too (an upgrade not yet restarted)."""
    import time

    from keezbord import __version__

    web = service_port(layout)
    end = time.monotonic() + probes.settle_s
    report = probes.ask_service(web)
    reached = report  # the last answer whose link had the port open
    # Judged only on a link that is open and has heard the firmware, or after settle_s:
    # a Pico just plugged in (or reset) leaves the link closed for up to a second
    # before it reopens the port, and a link of an older service may still name the
    # firmware it heard before the unplug.
    while report.version is not None and not (
        report.link.get("connected") and report.link.get("firmware")
    ):
        if time.monotonic() >= end:
            break
        time.sleep(0.5)  # the link opens the port each second and then hears a HELLO
        report = probes.ask_service(web)
        if report.version is not None and report.link.get("connected"):
            reached = report
    if (
        report.version is not None
        and not report.link.get("connected")
        and (reached.version is not None and reached.link.get("connected"))
    ):
        # The link had the port open during the wait and lost it again (a Pico that
        # resets, a loose plug): what it heard while open is the truer finding.
        report = reached
    if report.version is None:
        return [
            Finding(
                "firmware",
                False,
                Text(
                    f"de dienst antwoordt niet ({report.error})",
                    f"the service does not answer ({report.error})",
                ),
                Text(
                    f"sudo journalctl -u {SERVICE} -n 50; sudo systemctl restart {SERVICE}",
                    f"sudo journalctl -u {SERVICE} -n 50; sudo systemctl restart {SERVICE}",
                ),
            )
        ]
    out: list[Finding] = []
    if report.version != __version__:
        out.append(
            Finding(
                "service version",
                False,
                Text(
                    f"de dienst draait keezbord {report.version}, geïnstalleerd is {__version__}",
                    f"the service runs keezbord {report.version}, {__version__} is installed",
                ),
                Text(f"sudo systemctl restart {SERVICE}", f"sudo systemctl restart {SERVICE}"),
            )
        )
    link = report.link
    if not link.get("connected"):
        why = link.get("error") or "no link"
        out.append(
            Finding(
                "firmware",
                False,
                Text(
                    f"de dienst heeft geen verbinding met de Pico op {port} ({why})",
                    f"the service has no link to the Pico on {port} ({why})",
                ),
                Text(
                    "controleer de USB-kabel; sudo journalctl -u keezbord -n 50",
                    "check the USB cable; sudo journalctl -u keezbord -n 50",
                ),
            )
        )
        return out
    out += _parts_of_the_service(link)
    said = _firmware(link.get("firmware"), bool(link.get("ok")), link.get("error"), port,
                     probes, layout)  # fmt: skip
    if said.ok:
        said = Finding("firmware", True, Text(f"{said.text.nl} (gevraagd aan de dienst)",
                                              f"{said.text.en} (asked the service)"))  # fmt: skip
    return [*out, said, *chain_checks(board, link.get("chain_ok"), link.get("log") or ())]


def _parts_of_the_service(link: dict[str, object]) -> list[Finding]:
    """What the running service says of the Pi's own strip and of the card reader."""
    out = []
    for name, what, part, fix in (
        ("leds", Text("de LED-strip faalt", "the LED strip fails"), link.get("leds"), Text(
            "zie docs/drivers.md (de LED-strip); de dienst probeert het om de 5 s opnieuw",
            "see docs/drivers.md (the LED strip); the service tries again every 5 s")),
        ("reader answers", Text("de kaartlezer antwoordt niet", "the card reader does not answer"),
         link.get("reader"), Text(
            "zet de kaartlezer aan, controleer zijn kabel (een PN532: zijn HSU-schakelaars)",
            "switch the card reader on, check its cable (a PN532: its HSU switches)")),
    ):  # fmt: skip
        if isinstance(part, dict) and part.get("ok") is False:
            why = str(part.get("error"))
            out.append(Finding(name, False, Text(f"{what.nl}: {why}", f"{what.en}: {why}"), fix))
    return out


def service_port(layout: Layout) -> int:
    """The web port in the installed unit's ExecStart (``--port N``), else the default."""
    import shlex

    from keezbord.host.appliance.paths import DEFAULT_PORT

    try:
        text = layout.unit.read_text(encoding="utf-8")
    except OSError:
        return DEFAULT_PORT
    for line in text.splitlines():
        if line.startswith("ExecStart="):
            words = shlex.split(line.removeprefix("ExecStart="))
            if "--port" in words[:-1] and words[words.index("--port") + 1].isdigit():
                return int(words[words.index("--port") + 1])
    return DEFAULT_PORT


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
    if board.needs_spi or board.led_driver == "neopixel-spi":
        nodes += [("spi", p) for p in sorted(layout.dev.glob("spidev*"))]
    if board.led_driver == "neopixel" and (layout.dev / "pio0").exists():
        nodes.append(("gpio", layout.dev / "pio0"))  # a Pi 5's PIO (checks_leds.py)
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
