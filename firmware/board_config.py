# The board's configuration on the Pico: defaults below, overridden by board.json
# (written by `keezbord firmware install` from the host's board.toml or --chips ...).
# This file is the one place for pin and chain defaults.
#
# Pins are GP numbers. Default wiring of the 74HC165 chain: SPI0 SCK=GP2 -> CP (pin 2)
# of every chip, MISO=GP4 <- QH (pin 9) of chip 0, GP5 -> /PL (SH/LD, pin 1) of every
# chip; CE (CLK INH, pin 15) to GND. Chip k's DS (pin 10) is fed by chip k+1's QH (pin 9);
# the last chip's DS is tied to 3V3 (tail_level 1) and MISO is pulled DOWN on the Pico,
# so an open, unplugged or unpowered data line reads 0 and never looks like a good tail.
# Signature chip (`signature`, default 0xA5 = 165, the reference design's; null: none):
# one more 74HC165 after the switch chips, on the terminator plug, inputs hard-wired to
# that value; it also catches a wrong chip count. The host's default is the same
# (keezbord.hardware.wiring.REFERENCE_SIGNATURE; tests/host/test_config.py pins both).
# LEDs: GP6 through a 74AHCT125. Safe mode: GP22 held to GND at power-up starts the
# REPL instead of the firmware.

import json

DEFAULTS = {  # type: dict[str, int | None]
    "chips": 24,
    "tail_bytes": 1,
    "tail_level": 1,
    "signature": 0xA5,
    "active_low": True,
    "spi_id": 0,
    "sck_pin": 2,
    "mosi_pin": 3,
    "miso_pin": 4,
    "latch_pin": 5,
    "spi_baud": 1000000,
    "scan_hz": 500,
    "debounce": 3,
    "led_pin": 6,
    "leds": 192,
    "brightness": 96,
    "max_ma": 1500,
    "link_timeout_ms": 3000,
    "heartbeat_ms": 1000,
    "safe_pin": 22,
    "watchdog_ms": 5000,
}

# key: (lowest, highest) for integers; booleans and the signature are checked apart.
# The RP2040 watchdog's longest timeout is 8388 ms; tail_level must be 1 because the
# firmware pulls MISO down (a tail of 0 could not tell an open line from a good chain).
RANGES = {
    "chips": (1, 127),
    "tail_bytes": (1, 4),
    "tail_level": (1, 1),
    "spi_id": (0, 1),
    "sck_pin": (0, 29),
    "mosi_pin": (0, 29),
    "miso_pin": (0, 29),
    "latch_pin": (0, 29),
    "spi_baud": (10000, 10000000),
    "scan_hz": (50, 1000),
    "debounce": (1, 20),
    "led_pin": (0, 29),
    "leds": (0, 1000),
    "brightness": (0, 255),
    "max_ma": (0, 60000),
    "link_timeout_ms": (200, 60000),
    "heartbeat_ms": (50, 10000),
    "safe_pin": (0, 29),
    "watchdog_ms": (1000, 8000),
}
BOOLS = ("active_low",)

CONFIG_FILE = "board.json"


def check(extra):
    """Merge a board.json dict over the defaults, value by value: a value that is
    missing, of the wrong type or out of range keeps its default. Returns
    (cfg, problems) with one short line per problem, so a bad file never stops the
    firmware (nor makes it boot-loop under the watchdog)."""
    cfg = dict(DEFAULTS)
    problems = []
    if not isinstance(extra, dict):
        return cfg, ["not a JSON object: defaults used"]
    for k in extra:
        v = extra[k]
        if k not in cfg:
            problems.append("unknown key %s ignored" % k)
        elif k in BOOLS:
            if isinstance(v, bool):
                cfg[k] = v
            else:
                problems.append("%s=%r is not true/false: default kept" % (k, v))
        elif k == "signature":
            if v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255):
                cfg[k] = v
            else:
                problems.append("signature=%r is not 0..255 or null: default kept" % (v,))
        else:
            lo, hi = RANGES[k]
            if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
                cfg[k] = v
            else:
                problems.append(
                    "%s=%r not in %s..%s: default %r kept" % (k, v, lo, hi, DEFAULTS[k])
                )
    pins = [cfg[k] for k in ("sck_pin", "mosi_pin", "miso_pin", "latch_pin", "led_pin", "safe_pin")]
    for p in pins:
        if pins.count(p) > 1:
            problems.append("pin GP%s used twice: default pins kept" % (p,))
            for k in ("sck_pin", "mosi_pin", "miso_pin", "latch_pin", "led_pin", "safe_pin"):
                cfg[k] = DEFAULTS[k]
            break
    return cfg, problems


def load_checked(path=CONFIG_FILE):
    """(cfg, problems) from board.json; a missing file is no problem, a broken one is."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return dict(DEFAULTS), []
    try:
        extra = json.loads(text)
    except ValueError:
        return dict(DEFAULTS), ["board.json is not valid JSON: defaults used"]
    return check(extra)


def load(path=CONFIG_FILE):
    return load_checked(path)[0]
