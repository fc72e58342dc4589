# Stand-ins for the Pico's hardware, for CPython tests and the MicroPython unix port.
# Each records what was asked of it (with the fake or real clock's time) so tests can
# assert on the history. Not copied to the Pico.

HISTORY_MAX = 2000


def _record(history, item, limit=HISTORY_MAX):
    history.append(item)
    if len(history) > limit:
        del history[:len(history) - limit * 3 // 4]


class FakeClock:
    """Milliseconds that move only when told (tests) -- same API as PicoClock."""

    def __init__(self, start=0):
        self.now = start

    def ms(self):
        return self.now

    def diff(self, a, b):
        return a - b

    def add(self, a, b):
        return a + b

    def advance(self, ms):
        self.now += ms


class UnixClock:
    """Real time under the unix port (time.ticks_ms wraps like on the Pico)."""

    def __init__(self):
        import time
        self.time = time

    def ms(self):
        return self.time.ticks_ms()

    def diff(self, a, b):
        return self.time.ticks_diff(a, b)

    def add(self, a, b):
        return self.time.ticks_add(a, b)


class FakePin:
    def __init__(self, clock=None, level=1):
        self.clock = clock
        self.level = level
        self.history = []  # (t_ms, level)
        self.on_change = None

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        t = self.clock.ms() if self.clock is not None else 0
        _record(self.history, (t, v))
        old = self.level
        self.level = v
        if self.on_change is not None and (old != v or v == 0):
            self.on_change(v)
        return None


class FakeChain:
    """A chain of 74HC165s with reed switches, seen through SPI and its SH/LD pin.

    Switch levels are parallel inputs: closed -> 0 (pulled to GND, active low). A low on
    the latch pin copies them into the shift registers; readinto() then clocks out the
    chain followed by the last chip's DS level. `break_after(k)` cuts the data line after
    chip k: from there on the Pico reads the MISO pull-up (all ones).
    """

    def __init__(self, chips, clock=None, tail_level=0):
        self.chips = chips
        self.tail_level = tail_level
        self.closed = bytearray(chips)  # bit i set: switch i closed (same layout as samples)
        self.shift = bytes(chips)
        self.latch = FakePin(clock)
        self.latch.on_change = self._latch_changed
        self.broken_from = None
        self.reads = 0
        self.reads_unlatched = 0  # read while SH/LD was low: a firmware bug
        self.history = []  # (t_ms, bit, closed) of set() calls
        self.clock = clock

    def _latch_changed(self, level):
        # SH/LD low loads the inputs continuously; the rising edge freezes them.
        if level == 1:
            self.shift = bytes(b ^ 0xFF for b in self.closed)

    def set(self, bit, closed):
        m = 0x80 >> (bit & 7)
        if closed:
            self.closed[bit >> 3] |= m
        else:
            self.closed[bit >> 3] &= ~m & 0xFF
        _record(self.history, (self.clock.ms() if self.clock else 0, bit, closed))

    def is_closed(self, bit):
        return bool(self.closed[bit >> 3] & (0x80 >> (bit & 7)))

    def break_after(self, chip):
        self.broken_from = chip

    def repair(self):
        self.broken_from = None

    # the SPI side
    def readinto(self, buf, write=0):
        self.reads += 1
        if self.latch.level == 0:
            self.reads_unlatched += 1
        tail = 0xFF if self.tail_level else 0x00
        n = len(buf)
        for i in range(n):
            if self.broken_from is not None and i >= self.broken_from:
                buf[i] = 0xFF
            elif i < self.chips:
                buf[i] = self.shift[i]
            else:
                buf[i] = tail


class FakeStrip:
    """Records every frame written (GRB bytes) with its time; optionally appends each as
    one line of hex to a file so another process can watch."""

    def __init__(self, clock=None, path=None, keep=HISTORY_MAX):
        self.clock = clock
        self.keep = keep  # frames kept in memory (a 192-LED frame is 576 bytes)
        self.frames = []  # (t_ms, bytes)
        self.path = path
        if path is not None:
            open(path, "w").close()

    def write(self, grb):
        t = self.clock.ms() if self.clock is not None else 0
        data = bytes(grb)
        _record(self.frames, (t, data), self.keep)
        if self.path is not None:
            with open(self.path, "a") as f:
                f.write("%d %s\n" % (t, data.hex()))

    @property
    def last(self):
        return self.frames[-1][1] if self.frames else None


class FakeWDT:
    def __init__(self, clock=None):
        self.clock = clock
        self.feeds = []  # t_ms of each feed

    def feed(self):
        _record(self.feeds, self.clock.ms() if self.clock is not None else 0, 64)


class ListStream:
    """A byte stream for CPython tests: `incoming` is what the host sent, `sent` what the
    firmware wrote. `writable = False` simulates a stalled USB endpoint."""

    def __init__(self):
        self.incoming = bytearray()
        self.sent = bytearray()
        self.writable = True

    def read(self):
        if not self.incoming:
            return None
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def write(self, data):
        if not self.writable:
            return False
        self.sent.extend(data)
        return True
