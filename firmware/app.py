# The firmware's main loop logic, free of hardware: scan, debounce, report, obey the
# host, drive the LEDs, feed the watchdog. main.py (Pico) and unix_main.py (tests) wire
# real or fake objects into App and call step() in a loop.

import protocol as P
from debounce import Debouncer
from leds import link_lost_frame, render
from link import Link

VERSION = "keezbord-fw 0.1.0"


class WatchdogGate:
    """Feed the watchdog only while the loop makes progress on both fronts: a new scan
    completed and the link serviced (its input polled, its output not stuck) since the
    last feed. A silent host is not a fault (the LEDs show "link lost" instead), but a
    loop wedged in a scan or a blocked write lets the watchdog reset the Pico."""

    def __init__(self, wdt):
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
    def __init__(self, cfg, scanner, stream, strip, clock, wdt=None, test_chain=None):
        self.cfg = cfg
        self.scanner = scanner
        self.debouncer = Debouncer(scanner.chips, cfg["debounce"])
        self.link = Link(stream)
        self.strip = strip
        self.clock = clock
        self.gate = WatchdogGate(wdt)
        # A FakeChain under tests; None on a real board, where TEST_* commands are refused.
        self.test_chain = test_chain
        self.n_leds = cfg["leds"]
        self.brightness = cfg["brightness"]
        self.max_ma = cfg["max_ma"]
        self.frame = bytearray(self.n_leds * 3)  # the host's last frame, RGB
        self.out = bytearray(self.n_leds * 3)  # GRB for the strip
        self.period_ms = max(1, 1000 // cfg["scan_hz"])
        now = clock.ms()
        self.next_scan = now
        self.next_heartbeat = now
        self.next_pattern = now
        self.link_lost = True  # until the host says something
        self.overruns = 0
        self.led_frames = 0
        self.unknown = 0
        self.maintenance = False
        self.primed = False  # the debouncer starts from the first good sample

    # -- the loop --------------------------------------------------------------------

    def step(self):
        clock = self.clock
        now = clock.ms()
        if clock.diff(now, self.next_scan) >= 0:
            self._scan(now)
            self.next_scan = clock.add(self.next_scan, self.period_ms)
            if clock.diff(now, self.next_scan) >= self.period_ms:
                self.overruns += 1  # fell behind: skip, don't burst
                self.next_scan = clock.add(now, self.period_ms)
        for frame in self.link.poll(now):
            self._handle(frame, now)
        if clock.diff(now, self.next_heartbeat) >= 0:
            self.next_heartbeat = clock.add(now, self.cfg["heartbeat_ms"])
            self.link.send(P.MSG_HEARTBEAT, self.heartbeat_payload(now))
        self._check_link(now)
        self.gate.check(self.scanner.scans, self.link.polls)

    def _scan(self, now):
        sc = self.scanner
        was_ok = sc.chain_ok
        if not sc.scan():
            if was_ok:
                self.log("chain broken: tail bits wrong (check wiring and chip count)")
            return
        if not was_ok:
            self.log("chain ok again")
        if not self.primed:
            self.debouncer.reset(sc.sample)
            self.primed = True
            return
        changes = self.debouncer.update(sc.sample)
        if changes:
            self.link.send(P.MSG_CHANGES, P.encode_changes(now, changes))

    def _check_link(self, now):
        last = self.link.last_rx_ms
        quiet = last is None or self.clock.diff(now, last) > self.cfg["link_timeout_ms"]
        if quiet:
            if not self.link_lost:
                self.link_lost = True
                self.next_pattern = now
            if self.clock.diff(now, self.next_pattern) >= 0:
                self.next_pattern = self.clock.add(now, 50)
                render(link_lost_frame(self.n_leds, now), self.n_leds, 255, self.max_ma,
                       self.out)
                self.strip.write(self.out)
        elif self.link_lost:
            self.link_lost = False
            self._show()

    # -- messages from the host --------------------------------------------------------

    def _handle(self, frame, now):
        msg_type, _, payload = frame
        if msg_type == P.CMD_HELLO:
            self.link.send(P.MSG_HELLO, P.encode_hello(
                self.scanner.n_bits, self.n_leds, self.cfg["scan_hz"], self.cfg["debounce"],
                VERSION))
        elif msg_type == P.CMD_SNAPSHOT:
            self.link.send(P.MSG_SNAPSHOT, self.snapshot_payload(now))
        elif msg_type == P.CMD_LEDS:
            if len(payload) < 2:
                self.unknown += 1
                return
            start = P.get_u16(payload, 0) * 3
            data = payload[2:]
            end = min(start + len(data), len(self.frame))
            if start < end:
                self.frame[start:end] = data[:end - start]
            self.led_frames += 1
            if not self.link_lost:
                self._show()
        elif msg_type == P.CMD_PING:
            self.link.send(P.MSG_PONG, payload)
        elif msg_type == P.CMD_CONFIG and len(payload) == 3:
            self.brightness = payload[0]
            self.max_ma = P.get_u16(payload, 1)
            if not self.link_lost:
                self._show()
        elif msg_type == P.CMD_MAINTENANCE and payload == P.MAINTENANCE_MAGIC:
            self.log("maintenance: restarting to the REPL")
            self.maintenance = True
        elif msg_type == P.CMD_TEST_SWITCHES and self.test_chain is not None:
            for i in range(0, len(payload) - 1, 2):
                v = P.get_u16(payload, i)
                self.test_chain.set(v & 0x7FFF, bool(v & P.CLOSED_FLAG))
        elif msg_type == P.CMD_TEST_CHAIN and self.test_chain is not None and payload:
            if payload[0] == 0xFF:
                self.test_chain.repair()
            else:
                self.test_chain.break_after(payload[0])
        else:
            self.unknown += 1
            self.log("unknown command 0x%02x" % msg_type)

    def _show(self):
        render(self.frame, self.n_leds, self.brightness, self.max_ma, self.out)
        self.strip.write(self.out)

    # -- messages to the host ----------------------------------------------------------

    def log(self, text):
        self.link.send(P.MSG_LOG, text.encode())

    def snapshot_payload(self, now):
        return P.encode_snapshot(now, self.scanner.n_bits, self.scanner.chain_ok,
                                 self.debouncer.stable)

    def heartbeat_payload(self, now):
        sc = self.scanner
        lk = self.link
        flags = 0
        if sc.chain_ok:
            flags |= P.FLAG_CHAIN_OK
        if self.link_lost:
            flags |= P.FLAG_LINK_LOST
        if self.test_chain is not None:
            flags |= P.FLAG_TEST_CHAIN
        return P.encode_heartbeat(now, (sc.scans, sc.chain_errors, lk.rx_bad, lk.rx_gaps,
                                        self.led_frames, self.overruns, lk.tx_dropped), flags)


def run(app, stream):
    """The main loop: step, then sleep until the next scan or until input arrives."""
    clock = app.clock
    while not app.maintenance:
        app.step()
        wait = clock.diff(app.next_scan, clock.ms())
        if wait > 0:
            stream.wait(wait)
