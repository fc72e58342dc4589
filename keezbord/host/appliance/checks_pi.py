"""The Pi itself: its model, its OS and config.txt (SPI, the reader's UART, audio)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import Layout
from keezbord.host.appliance.probes import Board, Finding, system_path
from keezbord.host.drivers import pi

# Pins whose NeoPixel backend on a Pi 4 (rpi_ws281x) uses the PWM that onboard audio uses.
PWM_PINS = frozenset({12, 13, 18, 19})
SUPPORTED_OS = frozenset({"bookworm", "trixie"})


def model_check(model: str | None, gen: int | None) -> Finding:
    if model is None:
        return Finding(
            "model",
            False,
            Text(
                "geen Raspberry Pi (geen /proc/device-tree/model)",
                "not a Raspberry Pi (no /proc/device-tree/model)",
            ),
            Text(
                "draai keezbord doctor op de Pi van het bord",
                "run keezbord doctor on the board's Pi",
            ),
        )
    if gen not in (4, 5):
        return Finding(
            "model",
            False,
            Text(
                f"{model}: keezbord ondersteunt de Pi 4 en Pi 5",
                f"{model}: keezbord supports the Pi 4 and Pi 5",
            ),
            Text("gebruik een Raspberry Pi 4 of 5", "use a Raspberry Pi 4 or 5"),
        )
    return Finding("model", True, Text(model, model))


def os_check(layout: Layout) -> Finding:
    fields: dict[str, str] = {}
    try:
        for line in layout.os_release.read_text(encoding="utf-8").splitlines():
            k, _, v = line.partition("=")
            fields[k.strip()] = v.strip().strip('"')
    except OSError:
        pass
    name = fields.get("PRETTY_NAME", "?")
    fix = Text(
        "installeer Raspberry Pi OS Lite (Bookworm, 64-bit): docs/install-pi.md",
        "install Raspberry Pi OS Lite (Bookworm, 64-bit): docs/install-pi.md",
    )
    if fields.get("VERSION_CODENAME") not in SUPPORTED_OS:
        return Finding("os", False, Text(f"{name}: niet Bookworm", f"{name}: not Bookworm"), fix)
    return Finding("os", True, Text(name, name))


# -- config.txt -------------------------------------------------------------------------


def config_txt(layout: Layout) -> Path | None:
    return next((p for p in layout.boot_configs if p.is_file()), None)


def active_lines(text: str, generation: int | None) -> list[str]:
    """The lines of config.txt this Pi applies: outside a section filter, under ``[all]``,
    or under its own model's filter (``[pi4]``, ``[pi5]``); comments dropped."""
    section = "all"
    mine = {"all", f"pi{generation}"} if generation else {"all"}
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            continue
        if section in mine:
            out.append(line.replace(" ", ""))
    return out


def uart_on(lines: Sequence[str], generation: int | None) -> bool:
    """Whether config.txt puts a full UART on GPIO14/15 (drivers/pi.py's UART_CONFIG)."""
    if generation == 5:
        return _param(lines, "uart0") == "on"
    overlays = {
        line.split("=", 1)[1].split(",")[0] for line in lines if line.startswith("dtoverlay=")
    }
    return bool(overlays & {"disable-bt", "pi3-disable-bt"})


def _param(lines: Sequence[str], key: str) -> str | None:
    """The last value of a ``dtparam=key=value`` (the last one wins, as on the Pi)."""
    value = None
    for line in lines:
        if line.startswith("dtparam="):
            for part in line[len("dtparam=") :].split(","):
                k, _, v = part.partition("=")
                if k == key:
                    value = v or "on"
    return value


def boot_config_checks(layout: Layout, board: Board, gen: int | None) -> list[Finding]:
    path = config_txt(layout)
    needs_uart = board.reader != "none" and board.reader_port in pi.HEADER_UARTS
    needs_audio_off = gen == 4 and board.led_driver == "neopixel" and board.led_pin in PWM_PINS
    spi_leds = board.led_driver == "neopixel-spi"
    if not (board.needs_spi or needs_uart or needs_audio_off or spi_leds):
        return []
    want = str(layout.boot_configs[0])
    if path is None:
        return [
            Finding(
                "config.txt",
                False,
                Text("geen config.txt gevonden", "no config.txt found"),
                Text(
                    f"maak {want} (Raspberry Pi OS zet het daar)",
                    f"create {want} (Raspberry Pi OS puts it there)",
                ),
            )
        ]
    where = system_path(layout, path)
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = active_lines(text, gen)
    out: list[Finding] = []
    reboot_nl, reboot_en = "en herstart (sudo reboot)", "and reboot (sudo reboot)"
    if board.needs_spi:
        ok = _param(lines, "spi") == "on"
        out.append(
            Finding(
                "spi",
                ok,
                Text("SPI aan", "SPI on") if ok else Text("SPI staat uit", "SPI is off"),
                None
                if ok
                else Text(
                    f"zet `dtparam=spi=on` in {where} {reboot_nl}",
                    f"add `dtparam=spi=on` to {where} {reboot_en}",
                ),
            )
        )
    if needs_uart:
        line = pi.UART_CONFIG.get(gen or 4, pi.UART_CONFIG[4])
        ok = uart_on(lines, gen)
        out.append(
            Finding(
                "uart",
                ok,
                Text(f"UART voor de kaartlezer: {line}", f"UART for the card reader: {line}")
                if ok
                else Text(
                    f"de UART op GPIO14/15 ontbreekt ({board.reader_port})",
                    f"the UART on GPIO14/15 is not set up ({board.reader_port})",
                ),
                None
                if ok
                else Text(
                    f"zet `{line}` in {where} {reboot_nl}", f"add `{line}` to {where} {reboot_en}"
                ),
            )
        )
        out.append(_console(layout, path, gen))
    if needs_audio_off:
        # Audio is off unless a line turns it on (Raspberry Pi OS's config.txt has one).
        ok = _param(lines, "audio") != "on"
        out.append(
            Finding(
                "audio",
                ok,
                Text(
                    "geluid aan boord uit (PWM voor de leds)",
                    "onboard audio off (PWM for the LEDs)",
                )
                if ok
                else Text(
                    f"geluid aan boord gebruikt de PWM van de leds (GPIO{board.led_pin})",
                    f"onboard audio uses the LEDs' PWM (GPIO{board.led_pin})",
                ),
                None
                if ok
                else Text(
                    f"vervang `dtparam=audio=on` door `dtparam=audio=off` in {where} {reboot_nl}",
                    f"replace `dtparam=audio=on` with `dtparam=audio=off` in {where} {reboot_en}",
                ),
            )
        )
    from keezbord.host.appliance.checks_leds import led_checks

    return out + led_checks(layout, board, gen, lines, where)


def _console(layout: Layout, config: Path, gen: int | None = None) -> Finding:
    """The serial console must not sit on the reader's UART (cmdline.txt beside config.txt).
    On a Pi 5 ``serial0`` is the 3-pin debug UART (ttyAMA10), not GPIO14/15: a console
    there is harmless; ``ttyAMA0`` is UART0, the reader's."""
    taken = ("ttyAMA0",) if gen == 5 else ("serial0", "ttyAMA0", "ttyS0", "ttyAMA10")
    cmdline = config.with_name("cmdline.txt")
    try:
        words = cmdline.read_text(encoding="utf-8").split()
    except OSError:
        words = []
    bad = [
        w for w in words if w.startswith("console=") and w.split("=", 1)[1].split(",")[0] in taken
    ]
    if bad:
        cmd = "sudo raspi-config nonint do_serial_cons 1"
        return Finding(
            "console",
            False,
            Text(
                f"de seriële console ({bad[0]}) bezet de UART van de kaartlezer",
                f"the serial console ({bad[0]}) holds the card reader's UART",
            ),
            Text(
                f"{cmd} (haalt {bad[0]} uit {system_path(layout, cmdline)}) en herstart",
                f"{cmd} (removes {bad[0]} from {system_path(layout, cmdline)}) and reboot",
            ),
        )
    return Finding("console", True, Text("geen console op de UART", "no console on the UART"))
