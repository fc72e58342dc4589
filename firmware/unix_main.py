# The firmware under the MicroPython unix port, for tests and benchmarks: the same app
# logic as main.py with a fake switch chain (scripted by the host's TEST_* commands),
# a fake LED strip (each frame appended to a file, hex) and a fake watchdog, talking
# over stdin/stdout (a pty in tests).
#
#   micropython unix_main.py [--chips N] [--leds N] [--scan-hz HZ] [--debounce K]
#                            [--record FILE] [--config board.json] [--link-timeout MS]

import sys

import board_config
from app import App, run
from fakes import FakeChain, FakeStrip, FakeWDT, UnixClock
from scan import ChainScanner
from stream import PollStream


def parse_args(argv):
    opts = {}
    names = {"--chips": "chips", "--leds": "leds", "--scan-hz": "scan_hz",
             "--debounce": "debounce", "--link-timeout": "link_timeout_ms",
             "--heartbeat": "heartbeat_ms"}
    record = None
    config = board_config.CONFIG_FILE
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--record":
            record = argv[i + 1]
        elif a == "--config":
            config = argv[i + 1]
        elif a in names:
            opts[names[a]] = int(argv[i + 1])
        else:
            raise SystemExit("unknown option " + a)
        i += 2
    return opts, record, config


def main():
    opts, record, config = parse_args(sys.argv)
    cfg = board_config.load(config)
    cfg.update(opts)
    clock = UnixClock()
    chain = FakeChain(cfg["chips"], clock, cfg["tail_level"])
    scanner = ChainScanner(chain, chain.latch, cfg["chips"], cfg["tail_bytes"],
                           cfg["tail_level"], cfg["active_low"])
    strip = FakeStrip(clock, record, keep=8)  # the file is the record; keep the heap small
    stream = PollStream(sys.stdin, sys.stdin.buffer, sys.stdout.buffer)
    import micropython
    micropython.kbd_intr(-1)  # as on the Pico: 0x03 is data
    app = App(cfg, scanner, stream, strip, clock, FakeWDT(clock), test_chain=chain)
    run(app, stream)


main()
