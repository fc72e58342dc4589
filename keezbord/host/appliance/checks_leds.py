"""The Pi's own LED strip (``leds.driver`` neopixel or neopixel-spi): can the configured
backend run as the service's user? docs/drivers.md, "Pi-direct: the LED strip".

- ``neopixel`` on a Pi 4 (and older) is rpi_ws281x's PWM/PCM by DMA behind Blinka: it
  needs root, and the service runs as ``keezbord`` with no capabilities. It FAILs, with
  the backend that needs no root as the fix.
- ``neopixel`` on a Pi 5 is the RP1's PIO: ``/dev/pio0`` (a current kernel), reached
  through the gpio group (group_checks).
- ``neopixel-spi``: the SPI bus of its MOSI pin on (SPI1: ``dtoverlay=spi1-1cs``), its
  ``/dev/spidevN.0`` (the spi group, group_checks), on a Pi 4 a core clock that does not
  scale under a frame (``core_freq_min=500``), and a frame that fits spidev's buffer.
"""

from __future__ import annotations

from collections.abc import Sequence

from keezbord.engine.text import Text
from keezbord.host.appliance.paths import USER, Layout
from keezbord.host.appliance.probes import Board, Finding, system_path
from keezbord.host.drivers.strip_spi import DEFAULT_BUFSIZ, SPI_LED_PINS, too_big

REBOOT = ("en herstart (sudo reboot)", "and reboot (sudo reboot)")


def led_checks(
    layout: Layout, board: Board, gen: int | None, lines: Sequence[str], where: str
) -> list[Finding]:
    """``lines``: config.txt's active lines (checks_pi.active_lines), ``where`` its path."""
    if board.led_driver == "neopixel":
        return _pwm_or_pio(layout, board, gen)
    if board.led_driver != "neopixel-spi":
        return []
    out: list[Finding] = []
    bus, line = SPI_LED_PINS.get(board.led_pin, (1, "dtoverlay=spi1-1cs"))
    if bus == 1:
        overlays = {x.split("=", 1)[1].split(",")[0] for x in lines if x.startswith("dtoverlay=")}
        ok = bool(overlays & {"spi1-1cs", "spi1-2cs", "spi1-3cs"})
        out.append(_line_check("spi1", ok, line, where, "SPI1 aan (LEDs op GPIO20)",
                               "SPI1 on (LEDs on GPIO20)"))  # fmt: skip
    if gen == 4:
        ok = _value(lines, "core_freq_min") == "500"
        out.append(
            _line_check(
                "core clock",
                ok,
                "core_freq_min=500",
                where,
                "vaste kernklok (de SPI-klok van de LEDs)",
                "fixed core clock (the LEDs' SPI clock)",
            )
        )
    node = layout.dev / f"spidev{bus}.0"
    out.append(
        Finding("led spidev", True, Text(system_path(layout, node), system_path(layout, node)))
        if node.exists()
        else Finding(
            "led spidev",
            False,
            Text(f"geen /dev/spidev{bus}.0 (LEDs)", f"no /dev/spidev{bus}.0 (LEDs)"),
            Text(f"zet `{line}` in {where} {REBOOT[0]}", f"add `{line}` to {where} {REBOOT[1]}"),
        )
    )
    out.append(_bufsiz(layout, board))
    return out


def _pwm_or_pio(layout: Layout, board: Board, gen: int | None) -> list[Finding]:
    if gen == 5:
        pio = layout.dev / "pio0"
        if pio.exists():
            return [Finding("leds", True, Text("RP1-PIO: /dev/pio0", "RP1 PIO: /dev/pio0"))]
        return [
            Finding(
                "leds",
                False,
                Text("geen /dev/pio0 (de PIO van de RP1)", "no /dev/pio0 (the RP1's PIO)"),
                Text(
                    "sudo apt update && sudo apt full-upgrade -y (een kernel met de PIO) en "
                    "herstart",
                    "sudo apt update && sudo apt full-upgrade -y (a kernel with the PIO) and "
                    "reboot",
                ),
            )
        ]
    if _service_user(layout) == "root":
        return [Finding("leds", True, Text("PWM (de dienst draait als root)",
                                           "PWM (the service runs as root)"))]  # fmt: skip
    fix = Text(
        'zet driver = "neopixel-spi" onder [leds] (of "auto") en sluit de strip aan op '
        "GPIO20, header-pin 38 (docs/drivers.md)",
        'set driver = "neopixel-spi" under [leds] (or "auto") and wire the strip to '
        "GPIO20, header pin 38 (docs/drivers.md)",
    )
    return [
        Finding(
            "leds",
            False,
            Text(
                f"de PWM-leds (rpi_ws281x, GPIO{board.led_pin}) hebben root nodig; de dienst "
                f"draait als {USER} zonder rechten",
                f"the PWM LED backend (rpi_ws281x, GPIO{board.led_pin}) needs root; the "
                f"service runs as {USER} with no capabilities",
            ),
            fix,
        )
    ]


def _bufsiz(layout: Layout, board: Board) -> Finding:
    path = layout.at("/sys/module/spidev/parameters/bufsiz")
    try:
        bufsiz = int(path.read_text().strip())
    except (OSError, ValueError):
        bufsiz = DEFAULT_BUFSIZ
    why = too_big(board.leds, bufsiz)
    if why is None:
        text = f"{board.leds} LEDs fit spidev's {bufsiz}-byte buffer"
        return Finding("led frame", True, Text(text, text))
    head, _, fix = why.partition(": add ")
    return Finding(
        "led frame",
        False,
        Text(head, head),
        Text("zet " + fix.replace(" and reboot", " en herstart"), "add " + fix),
    )


def _line_check(
    name: str, ok: bool, line: str, where: str, ok_nl: str, ok_en: str
) -> Finding:  # fmt: skip
    if ok:
        return Finding(name, True, Text(ok_nl, ok_en))
    return Finding(
        name,
        False,
        Text(f"`{line}` ontbreekt in {where}", f"`{line}` is missing from {where}"),
        Text(f"zet `{line}` in {where} {REBOOT[0]}", f"add `{line}` to {where} {REBOOT[1]}"),
    )


def _value(lines: Sequence[str], key: str) -> str | None:
    value = None
    for x in lines:
        k, _, v = x.partition("=")
        if k == key:
            value = v
    return value


def _service_user(layout: Layout) -> str:
    try:
        for x in layout.unit.read_text(encoding="utf-8").splitlines():
            if x.startswith("User="):
                return x.removeprefix("User=").strip()
    except OSError:
        pass
    return USER
