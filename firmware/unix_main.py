# The firmware under the MicroPython unix port, for tests and benchmarks: the same app
# logic as main.py with a fake switch chain (bit-level 74HC165 model, scripted by the
# host's TEST_* commands), a fake LED strip (each frame appended to a file, hex) and a
# fake watchdog, talking over stdin/stdout (a pty in tests). Same boot order as main.py:
# Ctrl-C off first, the configuration checked, the watchdog last.
#
#   micropython unix_main.py [--chips N] [--leds N] [--scan-hz HZ] [--debounce K]
#                            [--record FILE] [--config board.json] [--link-timeout MS]
#                            [--heartbeat MS] [--signature N|none] [--boot-delay MS]

import micropython

micropython.kbd_intr(-1)

import sys  # noqa: E402

import board_config  # noqa: E402


def parse_args(argv):
    opts = {}  # type: dict[str, int | None]
    names = {
        "--chips": "chips",
        "--leds": "leds",
        "--scan-hz": "scan_hz",
        "--debounce": "debounce",
        "--link-timeout": "link_timeout_ms",
        "--heartbeat": "heartbeat_ms",
        "--signature": "signature",
        "--max-ma": "max_ma",
        "--brightness": "brightness",
    }
    record = None
    config = board_config.CONFIG_FILE
    boot_delay = 0
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--record":
            record = argv[i + 1]
        elif a == "--config":
            config = argv[i + 1]
        elif a == "--boot-delay":
            boot_delay = int(argv[i + 1])
        elif a == "--signature" and argv[i + 1] == "none":
            opts["signature"] = None  # no signature chip
        elif a in names:
            opts[names[a]] = int(argv[i + 1])
        else:
            raise SystemExit("unknown option " + a)
        i += 2
    return opts, record, config, boot_delay


def main():
    opts, record, config, boot_delay = parse_args(sys.argv)
    cfg, problems = board_config.load_checked(config)
    cfg.update(opts)
    import time

    from app import App, run
    from fakes import FakeChain, FakeStrip, FakeWDT, UnixClock
    from scan import SPI_PHASE, SPI_POLARITY, ChainScanner
    from stream import PollStream

    if boot_delay:
        time.sleep_ms(boot_delay)  # a slow boot, for the host-waits tests
    clock = UnixClock()
    chain = FakeChain(cfg["chips"], clock, cfg["tail_level"], cfg["signature"])
    spi = chain.spi(SPI_POLARITY, SPI_PHASE)
    scanner = ChainScanner(
        spi,
        chain.latch,
        cfg["chips"],
        cfg["tail_bytes"],
        cfg["tail_level"],
        cfg["active_low"],
        cfg["signature"],
    )
    strip = FakeStrip(clock, record, keep=8)  # the file is the record; keep the heap small
    stream = PollStream(sys.stdin, sys.stdin.buffer, sys.stdout.buffer, sys.stdout)
    app = App(cfg, scanner, stream, strip, clock, test_chain=chain)
    app.config_problems = problems
    app.start_watchdog(FakeWDT(clock))
    run(app, stream)


main()
