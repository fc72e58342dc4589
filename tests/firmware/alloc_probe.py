# Run by the MicroPython unix port (tests/firmware/test_fw_alloc.py): how many bytes the
# firmware's loop allocates per idle step and per received byte. The fakes here allocate
# nothing themselves (prepared SPI bytes, a strip that only counts, a stream reading from
# a preallocated buffer), so every byte counted is the firmware's own.
#
#   micropython alloc_probe.py FIRMWARE_DIR [TRAFFIC_FILE]
#
# With TRAFFIC_FILE, the bytes are also read through the real PollStream (poll.ipoll and
# a one-byte readinto per byte) from that file, and written to /dev/null.

import gc
import sys

sys.path.insert(0, sys.argv[1])

import board_config
import protocol as P
from app import App
from fakes import FakeClock, PreloadedStream
from scan import ChainScanner

CHIPS = 24


class Pin:
    def value(self, v=None):
        return 0


class Spi:
    def __init__(self):
        self.data = bytearray(b"\xff" * CHIPS + b"\xff")

    def readinto(self, buf):
        d = self.data
        for i in range(len(buf)):
            buf[i] = d[i]


class Strip:
    def __init__(self):
        self.writes = 0

    def ready(self):
        return True

    def write(self, grb):
        self.writes += 1
        return True


class Wdt:
    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def main():
    cfg = dict(board_config.DEFAULTS)
    clock = FakeClock(1000)
    stream = PreloadedStream(20000)
    strip = Strip()
    app = App(cfg, ChainScanner(Spi(), Pin(), CHIPS), stream, strip, clock)
    wdt = Wdt()
    app.start_watchdog(wdt)

    def steps(n):
        for _ in range(n):
            app.step()
            clock.advance(1)

    # Warm up: prime the debouncer, the first link-lost frames, the first heartbeats.
    steps(2000)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    steps(5000)  # link lost: heartbeats every 200 ms, the amber pattern every 150 ms
    idle_lost = gc.mem_alloc() - a

    # A host that talks: colours, patterns (blinking, animated by the firmware), pings.
    gc.enable()
    rgb = bytes((i * 7) & 0xFF for i in range(3 * 192))
    pats = bytes(i % 6 for i in range(192))
    seq = 0
    frames = []
    for _ in range(5):
        frames.append(P.encode_frame(P.CMD_LEDS, seq, P.u16(0) + rgb))
        frames.append(P.encode_frame(P.CMD_PATTERNS, seq + 1, P.u16(0) + pats))
        frames.append(P.encode_frame(P.CMD_PING, seq + 2, b"ping\x00\x03"))
        frames.append(b"\x00garbage\x01\x02\x03" * 3)
        seq += 3
    traffic = b"".join(frames)
    stream.load(traffic)
    steps(10)  # the first frames allocate nothing either, but warm up anyway
    stream.load(traffic)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    while stream.pos < stream.n:
        steps(1)
    steps(3000)  # animated patterns, heartbeats every second
    per_bytes = gc.mem_alloc() - a
    gc.enable()
    if len(sys.argv) > 2:
        from stream import PollStream

        rx = open(sys.argv[2], "rb")  # noqa: SIM115 -- open for the whole probe
        tx = open("/dev/null", "wb")  # noqa: SIM115
        ps = PollStream(rx, rx, tx)
        app2 = App(cfg, ChainScanner(Spi(), Pin(), CHIPS), ps, strip, clock)
        app2.step()  # the file's first frames, to warm up
        clock.advance(1)
        before = app2.link.rx_frames
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        for _ in range(3000):
            app2.step()
            clock.advance(1)
        print(
            "pollstream_frames",
            app2.link.rx_frames - before,
            "of",
            app2.link.rx_frames,
            "alloc",
            gc.mem_alloc() - a,
        )
        gc.enable()
    # The measurement has teeth: one small allocation per step shows.
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(1000):
        app.step()
        clock.advance(1)
        app.link.poll(clock.ms()) or []
    control = gc.mem_alloc() - a
    gc.enable()
    print("control_steps", 1000, "alloc", control)
    print("idle_lost_steps", 5000, "alloc", idle_lost)
    print("received_bytes", len(traffic), "alloc", per_bytes)
    print(
        "strip_writes",
        strip.writes,
        "led_frames",
        app.led_frames,
        "rx_bad",
        app.link.rx_bad,
        "sent_bytes",
        stream.sent,
        "feeds",
        wdt.feeds,
    )


main()
