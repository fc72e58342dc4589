# The board's configuration on the Pico: defaults below, overridden by board.json
# (written by `keezbord firmware install` from the host's board.toml or --chips ...).
#
# Pins are GP numbers. Default wiring of the 74HC165 chain: SPI0 SCK=GP2 -> CLK (pin 2),
# MISO=GP4 <- QH (pin 9) of chip 0, GP5 -> SH/LD (pin 1); CLK INH (pin 15) to GND;
# DS (pin 10) of the last chip to GND (tail_level 0). LEDs: GP6 through a 74AHCT125.
# Safe mode: GP22 held to GND at power-up starts the REPL instead of the firmware.

import json

DEFAULTS = {
    "chips": 24,
    "tail_bytes": 1,
    "tail_level": 0,
    "active_low": True,
    "spi_id": 0,
    "sck_pin": 2,
    "mosi_pin": 3,
    "miso_pin": 4,
    "latch_pin": 5,
    "spi_baud": 1000000,
    "scan_hz": 250,
    "debounce": 4,
    "led_pin": 6,
    "leds": 192,
    "brightness": 96,
    "max_ma": 1500,
    "link_timeout_ms": 3000,
    "heartbeat_ms": 1000,
    "safe_pin": 22,
    "watchdog_ms": 2000,
}

CONFIG_FILE = "board.json"


def load(path=CONFIG_FILE):
    cfg = dict(DEFAULTS)
    try:
        with open(path) as f:
            extra = json.load(f)
    except (OSError, ValueError):
        extra = {}
    for k in extra:
        if k in cfg:
            cfg[k] = extra[k]
    return cfg
