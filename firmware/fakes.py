# Stand-ins for the Pico's hardware, for CPython tests and the MicroPython unix port.
# Each records what was asked of it (with the fake or real clock's time) so tests can
# assert on the history. Not copied to the Pico.

HISTORY_MAX = 2000

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this as True


def _record(history, item, limit=HISTORY_MAX):
    history.append(item)
    if len(history) > limit:
        del history[: len(history) - limit * 3 // 4]


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


class FakeSpi:
    """An SPI master in a given mode (CPOL, CPHA), MSB first, reading a FakeChain edge by
    edge: the leading clock edge is rising for CPOL 0; data is sampled on the leading
    edge for CPHA 0, on the trailing one for CPHA 1; the 74HC165s shift on every rising
    edge. An edge that both samples and shifts samples first (the chip's output changes
    some nanoseconds after the edge, after the master's hold time)."""

    def __init__(self, chain, polarity=0, phase=0):
        self.chain = chain
        self.polarity = polarity
        self.phase = phase

    def readinto(self, buf, write=0):
        chain = self.chain
        chain.reads += 1
        if chain.latch.level == 0:
            chain.reads_unlatched += 1
        lead_rising = self.polarity == 0
        phase = self.phase
        for i in range(len(buf)):
            v = 0
            for _ in range(8):
                bit = 0
                for edge in (0, 1):
                    rising = lead_rising if edge == 0 else not lead_rising
                    if edge == phase:
                        bit = chain.miso()
                    if rising:
                        chain.clock()
                v = (v << 1) | bit
            buf[i] = v


class FakeChain:
    """A chain of 74HC165s with reed switches, modelled bit by bit behind its /PL (SH/LD)
    pin and an SPI master (readinto() reads in SPI mode 0; spi(cpol, cpha) gives others).

    Switch levels are parallel inputs: closed -> 0 (pulled to GND, active low). /PL low
    loads them (continuously: clocks are ignored meanwhile); each rising clock edge then
    shifts every chip by one: chip k's QH (pin 9) -> chip k-1's DS (pin 10); chip 0's QH
    drives MISO; the last fitted chip's DS is tied to `tail_level`. `signature` adds one
    more chip after the switch chips with its inputs hard-wired to that byte.

    Faults, as the real parts give them:
      - `pad_level`: what MISO reads with nothing driving it (the RP2040 pad's pull: 0 for
        the firmware's pull-down); used when the line is open (`break_after(0)`,
        `open_line()`) or the chain unpowered (`powered = False`).
      - `break_after(k)` (k >= 1): chip k-1's DS no longer reaches chip k's QH (a cut
        wire, or chip k missing from its socket): that input floats.
      - `float_level`: what a floating CMOS input reads, 0, 1, or None (default) for a
        level that wanders from clock to clock (a fixed pseudo-random sequence).
      - `fitted`: how many switch chips are really there (a wrong chip count when it
        differs from what the firmware is configured for).
    """

    def __init__(
        self,
        chips,
        clock=None,
        tail_level=1,
        signature=None,
        pad_level=0,
        fitted=None,
        float_level=None,
    ):
        self.chips = chips
        self.fitted = chips if fitted is None else fitted
        self.tail_level = tail_level
        self.signature = signature
        self.pad_level = pad_level
        self.float_level = float_level
        self.powered = True
        self.closed = bytearray(max(chips, self.fitted))  # bit i set: switch i closed
        self.latch = FakePin(clock)
        self.latch.on_change = self._latch_changed
        self.broken_from = None
        self.reads = 0
        self.reads_unlatched = 0  # read while /PL was low: a firmware bug
        self.edges = 0
        self.history = []  # (t_ms, bit, closed) of set() calls
        self.clock_src = clock
        self.reg = 0  # the chain's shift registers as one integer, chip 0's QH = MSB
        self.nbits = 0
        self.ds_last = tail_level
        self.rng = 12345
        self._latch_changed(1)

    def _float(self):
        if self.float_level is not None:
            return self.float_level
        self.rng = (self.rng * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.rng >> 16) & 1

    def _chips_reached(self):
        """Parallel bytes of the chips whose data reaches MISO, chip 0 first; and
        whether the last of them has its DS tied (True) or floating (False)."""
        out = [self.closed[k] ^ 0xFF for k in range(self.fitted)]
        if self.signature is not None:
            out.append(self.signature)
        cut = self.broken_from
        if cut is not None and cut <= len(out):
            return out[:cut], False
        return out, True

    def _latch_changed(self, level):
        # /PL low loads the inputs; they stay loaded (and frozen) once it goes high.
        chips, tied = self._chips_reached()
        reg = 0
        for b in chips:
            reg = (reg << 8) | b
        self.reg = reg
        self.nbits = 8 * len(chips)
        self.ds_last = self.tail_level if tied else None

    def clock(self):
        """One rising edge on CP."""
        self.edges += 1
        if self.latch.level == 0 or not self.nbits:
            return
        ds = self.ds_last if self.ds_last is not None else self._float()
        self.reg = ((self.reg << 1) | ds) & ((1 << self.nbits) - 1)

    def miso(self):
        if not self.powered or self.nbits == 0:
            return self.pad_level
        return (self.reg >> (self.nbits - 1)) & 1

    def spi(self, polarity=0, phase=0):
        return FakeSpi(self, polarity, phase)

    def readinto(self, buf, write=0):
        FakeSpi(self, 0, 0).readinto(buf, write)

    def set(self, bit, closed):
        if bit >> 3 >= len(self.closed):
            return
        m = 0x80 >> (bit & 7)
        if closed:
            self.closed[bit >> 3] |= m
        else:
            self.closed[bit >> 3] &= ~m & 0xFF
        _record(self.history, (self.clock_src.ms() if self.clock_src else 0, bit, closed))

    def is_closed(self, bit):
        return bool(self.closed[bit >> 3] & (0x80 >> (bit & 7)))

    def break_after(self, chip):
        self.broken_from = chip

    def open_line(self):
        self.broken_from = 0

    def repair(self):
        self.broken_from = None


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

    def ready(self):
        return True

    def off(self):
        self.write(bytes(len(self.frames[-1][1]) if self.frames else 0))

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
        self.pos = 0
        self.sent = bytearray()
        self.writable = True

    def read_into(self, buf, pos, n):
        k = 0
        inc = self.incoming
        while k < n and self.pos < len(inc):
            b = inc[self.pos]
            self.pos += 1
            buf[pos + k] = b
            k += 1
            if b == 0:
                break
        if self.pos >= len(inc) and self.pos:
            self.incoming = bytearray()
            self.pos = 0
        return k

    def write(self, buf, n):
        if not self.writable:
            return False
        self.sent.extend(bytes(buf[:n]))
        return True

    def flush(self):
        return True

    def pending(self):
        return self.pos < len(self.incoming)


class PreloadedStream:
    """A stream that allocates nothing: one preallocated buffer, `load`ed with what the
    host sends, and writes only counted (`sent`, bytes). For the allocation probe and the
    scan benchmark under the unix port, where ListStream's growing buffers would count."""

    def __init__(self, size):
        self.buf = bytearray(size)
        self.n = 0
        self.pos = 0
        self.sent = 0

    def load(self, data):
        for i in range(len(data)):
            self.buf[i] = data[i]
        self.n = len(data)
        self.pos = 0

    def read_into(self, buf, pos, n):
        src = self.buf
        k = 0
        while k < n and self.pos < self.n:
            b = src[self.pos]
            self.pos += 1
            buf[pos + k] = b
            k += 1
            if b == 0:
                break
        return k

    def write(self, buf, n):
        self.sent += n
        return True

    def flush(self):
        return True

    def pending(self):
        return self.pos < self.n


if TYPE_CHECKING:
    # The interfaces of hw_types.pyi, checked both ways: the Pico's real parts (the
    # MicroPython 1.28 stubs of machine) and the firmware's own implementations offer
    # what the firmware asks of them, and so does every stand-in above. A call the firmware
    # makes that the real part lacks fails here, not on a Pico.
    import machine
    from hw_types import ChainSpi, Clock, LatchPin, Stream, Strip, TestChain, UsbDevice, Watchdog
    from main import PicoClock
    from stream import PollStream
    from usb_cdc import UsbCdc
    from ws2812 import PioStrip

    def _real_parts(
        pin: machine.Pin, spi: machine.SPI, wdt: machine.WDT, usbd: machine.USBDevice
    ) -> "tuple[LatchPin, ChainSpi, Watchdog, UsbDevice, Clock, Strip, Stream, Stream]":
        return pin, spi, wdt, usbd, PicoClock(), PioStrip(6, 8), UsbCdc(usbd), PollStream(0, 0, 0)

    def _stand_ins(
        chain: FakeChain,
    ) -> "tuple[LatchPin, ChainSpi, TestChain, Watchdog, Clock, Clock, Strip, Stream, Stream]":
        return (
            chain.latch,
            chain.spi(),
            chain,
            FakeWDT(),
            FakeClock(),
            UnixClock(),
            FakeStrip(),
            ListStream(),
            PreloadedStream(8),
        )
