# The firmware's main loop logic, free of hardware: scan, debounce, report, obey the
# host, animate and drive the LEDs, feed the watchdog. main.py (Pico) and unix_main.py
# (tests) wire real or fake objects into App and call step() in a loop.
#
# step() allocates nothing when nothing happens (and nothing per received byte):
# preallocated buffers for frames in and out, the LED frame and the heartbeat; received
# frames are handled in place (tests/firmware/test_fw_alloc.py checks it under the unix
# port with gc.mem_alloc()).

from array import array

import patterns
import protocol as P
from debounce import Debouncer
from leds import link_lost_into, link_lost_phase, render_into
from leds_viper import set_ids
from link import Link
from scan import FAULT_TEXT

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this as True
if TYPE_CHECKING:
    from hw_types import Clock, Stream, Strip, TestChain, Watchdog
    from scan import ChainScanner

try:
    # Written by `keezbord firmware install` from the package's version (pyproject.toml).
    from version import VERSION  # type: ignore[import-not-found]
except ImportError:  # run from the source tree (tests, the unix port)
    VERSION = "keezbord-fw dev"
ANIM_MS = 20  # pattern levels are re-evaluated at most this often (50 Hz)
ANNOUNCE_MS = 200  # heartbeat period while no host talks
MAX_CHANGES = 400  # CHANGES entries per frame (4 + 2 * 400 bytes fits a frame)
# Host frames handled per step: then the LEDs get their turn, so a host that floods the
# port still sees its latest colours drawn (the rest wait in the USB buffers, not lost).
FRAMES_PER_STEP = 4
N_BEAT = 1 + len(P.HEARTBEAT_FIELDS)  # t (u32) and the counters (u32 each)


class WatchdogGate:
    """Feed the watchdog only while the loop makes progress on both fronts: a new scan
    completed and the link serviced (its input polled, its output not stuck) since the
    last feed. A silent host is not a fault (the LEDs show "link lost" instead), but a
    loop wedged in a scan or a blocked write lets the watchdog reset the Pico."""

    def __init__(self, wdt: "Watchdog | None") -> None:
        self.wdt = wdt
        self.last_scans = 0
        self.last_polls = 0
        self.feeds = 0

    def check(self, scans, polls):
        if self.wdt is None:
            return False
        if scans != self.last_scans and polls != self.last_polls:
            self.wdt.feed()
            self.feeds += 1
            self.last_scans = scans
            self.last_polls = polls
            return True
        return False


class App:
    def __init__(
        self,
        cfg: dict,
        scanner: "ChainScanner",
        stream: "Stream",
        strip: "Strip",
        clock: "Clock",
        wdt: "Watchdog | None" = None,
        test_chain: "TestChain | None" = None,
    ) -> None:
        self.cfg = cfg
        self.scanner = scanner
        self.debouncer = Debouncer(scanner.chips, cfg["debounce"])
        scanner.stable = self.debouncer.stable  # the scanner compares each read with it
        self.link = Link(stream)
        # usb_cdc sends from its transfer callbacks; a PollStream needs a pass each step
        self.flush_needed = getattr(stream, "needs_flush", True)
        self.strip = strip
        self.clock = clock
        self.gate = WatchdogGate(wdt)
        # A FakeChain under tests; None on a real board, where TEST_* commands are refused.
        self.test_chain = test_chain
        self.config_problems: "list[str]" = []  # board.json values replaced by defaults (main.py)
        n = cfg["leds"]
        self.n_leds = n
        self.brightness = cfg["brightness"]
        self.own_max_ma = cfg["max_ma"]  # the board's own cap: the host can only lower it
        self.max_ma = self.own_max_ma
        self.rgb = bytearray(n * 3)  # the host's colours (CMD_LEDS), RGB
        self.pats = bytearray(n)  # pattern id per LED (CMD_PATTERNS)
        self.pat_count = array("H", [0] * patterns.N_PATTERNS)  # LEDs per pattern id
        self.pat_count[0] = n  # (patterns.STEADY: set_ids shows unknown ids steady)
        self.levels = bytearray(patterns.N_PATTERNS)
        for i in range(patterns.N_PATTERNS):
            self.levels[i] = patterns.level(i, 0)
        self.out = bytearray(n * 3)  # GRB for the strip
        self.dirty = True  # the strip does not show the current frame yet
        self.next_anim = 0
        self.lost_phase = -1
        self.period_ms = max(1, 1000 // cfg["scan_hz"])
        self.heartbeat_ms = cfg["heartbeat_ms"]
        self.link_timeout_ms = cfg["link_timeout_ms"]
        now = clock.ms()
        self.next_scan = now
        self.next_heartbeat = now  # the first frame goes out at once: the host waits for it
        self.link_lost = True  # until the host says something
        self.overruns = 0
        self.led_frames = 0
        self.strip_writes = 0
        self.unknown = 0
        self.maintenance = False
        self.primed = False  # the debouncer starts from the first good sample
        self.last_fault = 0
        self.beat = array("I", [0] * N_BEAT)  # t, then the HEARTBEAT_FIELDS counters

    def start_watchdog(self, wdt: "Watchdog") -> None:
        """Arm the watchdog: the last step of booting, once everything is built."""
        self.gate.wdt = wdt

    # -- the loop --------------------------------------------------------------------

    # MicroPython allocates a function's frame on the heap, and frees it after, on every
    # call when its locals and stack need more than 11 words (py/objfun.c,
    # VM_MAX_STATE_ON_STACK): the functions run every step are kept small for that
    # (one more local in step() cost 12 % of the CPU at 500 scans a second).

    def step(self):
        clock = self.clock
        now = clock.ms()
        scanned = self._scan_if_due(now)
        if self._take_frames(now):
            scanned = True
        if self.flush_needed:
            self.link.flush()
        if clock.diff(now, self.next_heartbeat) >= 0:
            self._heartbeat_due(now)
        self._leds(clock.ms())
        if scanned:  # the gate wants a new scan: no need to ask in between
            self.gate.check(self.scanner.scans, self.link.polls)

    def _take_frames(self, now):
        """Handle what the host sent, at most FRAMES_PER_STEP frames, scanning between
        them when a scan is due (queued frames never hold a scan up); True if it scanned."""
        link = self.link
        if not link.pending():  # the common case, without the call into poll()
            link.polls += 1
            return False
        scanned = False
        k = 0
        while k < FRAMES_PER_STEP and link.poll(now):
            self._handle(now)
            now = self.clock.ms()
            if self._scan_if_due(now):
                scanned = True
            k += 1
        return scanned

    def _scan_late(self):
        # Before the heartbeat and the draw (1-2 ms together on the Pico), a scan that
        # fell due while frames were handled: a gap between scans is then at most a
        # period plus the one piece of work that cannot be split. Only on those paths,
        # so an idle step costs nothing more; the watchdog hears of this scan at once.
        if self._scan_if_due(self.clock.ms()):
            self.gate.check(self.scanner.scans, self.link.polls)

    def _heartbeat_due(self, now):
        self._scan_late()
        # With no host talking, beat faster: a host that opens the port waits for the
        # firmware's first frame before it sends anything.
        period = self.heartbeat_ms
        if self.link_lost and period > ANNOUNCE_MS:
            period = ANNOUNCE_MS
        self.next_heartbeat = self.clock.add(now, period)
        self._send_heartbeat(now)

    def _scan_if_due(self, now):
        clock = self.clock
        if clock.diff(now, self.next_scan) < 0:
            return False
        self._scan(now)
        self.next_scan = clock.add(self.next_scan, self.period_ms)
        if clock.diff(now, self.next_scan) >= self.period_ms:
            self.overruns += 1  # fell behind: skip, don't burst
            self.next_scan = clock.add(now, self.period_ms)
        return True

    def _scan(self, now):
        sc = self.scanner
        if not sc.scan():
            if sc.fault:  # else: read right, but not yet often enough in a row
                if not self.last_fault:  # once per outage, not once per scan
                    self.log("chain fault: " + FAULT_TEXT[sc.fault])
                self.last_fault = sc.fault
            return
        if self.last_fault:
            self.log("chain ok again")
            self.last_fault = 0
        db = self.debouncer
        if not self.primed:
            db.reset(sc.sample)
            self.primed = True
            # A host may have asked for a snapshot before the chain was trusted (it
            # greets at our first heartbeat): tell it the real state now.
            self._send_snapshot(now)
            return
        if sc.same and db.quiet >= db.samples:
            db.quiet += 1  # nothing moved, nothing moving: the history is all `stable`
            return
        n = db.step(sc.sample)
        if n:
            self._send_changes(now, db.changed, n)

    def _send_changes(self, now, changed, n):
        link = self.link
        start = 0
        while start < n:
            k = min(n - start, MAX_CHANGES)
            body = link.body()
            P.put_u32(body, 3, now)
            for i in range(k):
                P.put_u16(body, 7 + 2 * i, changed[start + i])
            link.finish(P.MSG_CHANGES, 4 + 2 * k)
            start += k

    # -- the LEDs ----------------------------------------------------------------------

    def _leds(self, now):
        last = self.link.last_rx_ms
        if last is None or self.clock.diff(now, last) > self.link_timeout_ms:
            self._link_lost(now)
            return
        if self.link_lost:
            self.link_lost = False
            self.dirty = True
        if self.clock.diff(now, self.next_anim) >= 0:
            self._animate(now)
        if self.dirty and self._ready():
            self.dirty = False
            self._draw()

    def _link_lost(self, now):
        if not self.link_lost:
            self.link_lost = True
            self.lost_phase = -1
        phase = link_lost_phase(now)
        if phase != self.lost_phase and self._ready():
            self.lost_phase = phase
            self._write(link_lost_into(self.out, self.n_leds, phase))

    def _animate(self, now):
        self.next_anim = self.clock.add(now, ANIM_MS)
        levels = self.levels
        counts = self.pat_count
        for pid in range(patterns.N_PATTERNS):
            if counts[pid] and patterns.ANIMATED[pid]:
                v = patterns.level(pid, now)
                if v != levels[pid]:
                    levels[pid] = v
                    self.dirty = True

    def _draw(self):
        self._scan_late()
        self._write(
            render_into(
                self.rgb,
                self.pats,
                self.levels,
                self.n_leds,
                self.brightness,
                self.max_ma,
                self.out,
            )
        )

    def _ready(self):
        return self.strip.ready()

    def _write(self, grb):
        if self.strip.write(grb) is not False:
            self.strip_writes += 1

    # -- messages from the host --------------------------------------------------------

    def _handle(self, now):
        link = self.link
        buf = link.reader.buf
        end = link.reader.end
        msg_type = buf[0]
        n = end - 3  # payload length; the payload is buf[3:end]
        if msg_type == P.CMD_HELLO:
            self._send_hello()
        elif msg_type == P.CMD_SNAPSHOT:
            self._send_snapshot(now)
        elif msg_type == P.CMD_LEDS or msg_type == P.CMD_PATTERNS:
            if n < 2:
                self._unknown(msg_type)
                return
            first = P.get_u16(buf, 3)
            if msg_type == P.CMD_LEDS:
                self._set_colours(buf, first, end)
            else:
                self._set_patterns(buf, first, end)
            self.led_frames += 1
            self.dirty = True
        elif msg_type == P.CMD_PING:
            link.send(P.MSG_PONG, buf, 3, n)
        elif msg_type == P.CMD_CONFIG and n == 3:
            self.brightness = buf[3]
            host = P.get_u16(buf, 4)
            # 0: the host sets no cap of its own. Never above the board's own maximum.
            self.max_ma = self.own_max_ma if host == 0 else min(host, self.own_max_ma)
            self.dirty = True
        elif (
            msg_type == P.CMD_MAINTENANCE
            and n == 4
            and buf[3] == 0x52
            and buf[4] == 0x45
            and buf[5] == 0x50
            and buf[6] == 0x4C
        ):  # b"REPL"
            self.log("maintenance: restarting to the REPL")
            self.maintenance = True
        elif msg_type == P.CMD_TEST_SWITCHES and self.test_chain is not None:
            for i in range(3, end - 1, 2):
                v = P.get_u16(buf, i)
                self.test_chain.set(v & 0x7FFF, bool(v & P.CLOSED_FLAG))
        elif msg_type == P.CMD_TEST_CHAIN and self.test_chain is not None and n:
            if buf[3] == 0xFF:
                self.test_chain.repair()
            else:
                self.test_chain.break_after(buf[3])
        else:
            self._unknown(msg_type)

    def _unknown(self, msg_type):
        self.unknown += 1
        self.log("unknown command 0x%02x" % msg_type)

    def _set_colours(self, buf, first, end):
        j = first * 3
        n = min(end - 5, len(self.rgb) - j)
        if n > 0:
            P.copy(self.rgb, j, buf, 5, n)

    def _set_patterns(self, buf, first, end):
        # one viper pass (a Python loop here cost 3.8 ms for 120 LEDs: a scan gap of 5.4 ms)
        set_ids(self.pats, self.pat_count, buf, 5, end, first, self.n_leds, patterns.N_PATTERNS)
        self.next_anim = self.clock.ms()  # re-evaluate the levels at once

    # -- messages to the host ----------------------------------------------------------

    def log(self, text):
        self.link.send(P.MSG_LOG, text.encode())

    def _send_hello(self):
        # Rare (once per connection): allocating here is fine.
        self.link.send(
            P.MSG_HELLO,
            P.encode_hello(
                self.scanner.n_bits, self.n_leds, self.cfg["scan_hz"], self.cfg["debounce"], VERSION
            ),
        )
        for p in self.config_problems:
            self.log("board.json: " + p)
        if self.last_fault:  # a host that opens the port during an outage hears its cause
            self.log("chain fault: " + FAULT_TEXT[self.last_fault])

    def _send_snapshot(self, now):
        # built in the link's buffer: no allocation (one is sent when the chain is first
        # trusted, whatever the host did)
        lk = self.link
        body = lk.body()
        sc = self.scanner
        P.put_u32(body, 3, now)
        P.put_u16(body, 7, sc.n_bits)
        body[9] = 1 if sc.chain_ok else 0
        n = len(self.debouncer.stable)
        P.copy(body, 10, self.debouncer.stable, 0, n)
        lk.finish(P.MSG_SNAPSHOT, 7 + n)

    def snapshot_payload(self, now):
        return P.encode_snapshot(
            now, self.scanner.n_bits, self.scanner.chain_ok, self.debouncer.stable
        )

    def flags(self):
        flags = 0
        if self.scanner.chain_ok:
            flags |= P.FLAG_CHAIN_OK
        if self.link_lost:
            flags |= P.FLAG_LINK_LOST
        if self.test_chain is not None:
            flags |= P.FLAG_TEST_CHAIN
        if self.config_problems:
            flags |= P.FLAG_CONFIG_DEFAULTS
        return flags

    def _send_heartbeat(self, now):
        # t and the counters as one word array, packed by one viper call
        sc = self.scanner
        lk = self.link
        c = self.beat
        c[0] = now
        c[1] = sc.scans
        c[2] = sc.chain_errors
        c[3] = lk.reader.frames_bad
        c[4] = lk.rx_gaps
        c[5] = self.led_frames
        c[6] = self.overruns
        c[7] = lk.tx_dropped
        c[8] = self.strip_writes
        body = lk.body()
        P.put_words(body, 3, c, N_BEAT)
        body[3 + 4 * N_BEAT] = self.flags()
        lk.finish(P.MSG_HEARTBEAT, 4 * N_BEAT + 1)

    def heartbeat_payload(self, now):
        sc = self.scanner
        lk = self.link
        return P.encode_heartbeat(
            now,
            (
                sc.scans,
                sc.chain_errors,
                lk.rx_bad,
                lk.rx_gaps,
                self.led_frames,
                self.overruns,
                lk.tx_dropped,
                self.strip_writes,
            ),
            self.flags(),
        )


def run(app, stream):
    """The main loop: step, then sleep until the next scan or until input arrives."""
    clock = app.clock
    while not app.maintenance:
        app.step()
        # Step again only when a scan is due or bytes came in: a step for nothing costs
        # as much as a quarter of a scan period.
        while True:
            wait = clock.diff(app.next_scan, clock.ms())
            if wait <= 0 or stream.wait(wait):
                break
