"""The host's end of the serial link to the Pico firmware (docs/protocol.md).

Two layers:

- ``LinkSession``: the protocol as a pure state machine (bytes in -> switch changes, plus
  bytes to send). It handles the handshake, resyncs from snapshots, drops corrupt frames,
  detects sequence gaps (and then asks for a snapshot) and keeps the link's health.
- ``SerialLink``: a ``LinkSession`` on a pyserial port. It finds the Pico (USB
  2E8A:0005, MicroPython; never a Debug Probe at 2E8A:000C) or uses a configured port,
  opens it exclusively, reconnects after an unplug, pings the firmware so it knows the
  host is alive, and sends LED state.

The host sends nothing on a fresh connection until the firmware has sent one valid frame
(it sends a heartbeat as soon as it runs): bytes sent into a Pico that is still booting
could reach MicroPython before the firmware has turned Ctrl-C off.

LEDs: the host keeps the wanted colours and pattern ids per LED and sends only what
changed (one span of LEDS and/or PATTERNS messages), at most ``LED_UPDATES_PER_S`` (20)
times a second, and only while the port keeps up; the firmware animates the patterns.

Switch changes come out as ``SwitchChange(t, index, closed)`` with ``t`` the host's
monotonic milliseconds at reception; ``hole_events`` (keezbord.host.drivers.switches)
turns them into ``HoleEvent``s through the board's Wiring.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.switches import SwitchChange, WiringLike, hole_events
from keezbord.host.events import HoleEvent

PICO_VID = 0x2E8A
PICO_PID = 0x0005  # MicroPython's USB CDC; 0x000C is the Raspberry Pi Debug Probe
LED_UPDATES_PER_S = 20
LED_MIN_INTERVAL_MS = 1000 // LED_UPDATES_PER_S
TX_BACKLOG_MAX = 1024  # bytes queued in the OS for the port: above this, hold LED updates
TX_BACKOFF_MS = 1000  # after a write timeout: no LED updates for this long
RGB = tuple[int, int, int]
Clock = Callable[[], int]

__all__ = ["LED_UPDATES_PER_S", "PICO_PID", "PICO_VID", "LinkHealth", "LinkSession",
           "SerialLink", "SwitchChange", "find_pico_port", "hole_events"]


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """What the referee and the web page show about the link."""

    connected: bool
    port: str | None
    firmware: str | None
    frames_ok: int
    frames_bad: int
    gaps: int
    snapshots: int
    reconnects: int
    last_heartbeat_age_ms: int | None
    chain_ok: bool | None
    firmware_counters: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    log: tuple[str, ...] = ()
    led_updates: int = 0  # LED state updates sent (paced: at most 20 a second)
    tx_timeouts: int = 0  # writes the Pico did not take in time (no reconnect for those)

    @property
    def ok(self) -> bool:
        return (self.connected and self.error is None and self.chain_ok is not False
                and self.last_heartbeat_age_ms is not None
                and self.last_heartbeat_age_ms < 3000)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok, "connected": self.connected, "port": self.port,
            "firmware": self.firmware, "frames_ok": self.frames_ok,
            "frames_bad": self.frames_bad, "gaps": self.gaps, "snapshots": self.snapshots,
            "reconnects": self.reconnects, "last_heartbeat_age_ms": self.last_heartbeat_age_ms,
            "chain_ok": self.chain_ok, "firmware_counters": dict(self.firmware_counters),
            "error": self.error, "log": list(self.log), "led_updates": self.led_updates,
            "tx_timeouts": self.tx_timeouts,
        }


class LinkSession:
    """The protocol, without I/O. Feed received bytes to ``receive``; send what
    ``take_outgoing`` returns. One session object lives across reconnects: the known
    switch state survives, so the snapshot after a replug yields exactly the changes that
    happened while the cable was out."""

    def __init__(self, clock: Clock = monotonic_ms, *, emit_initial: bool = True) -> None:
        self.clock = clock
        # The first snapshot yields "closed" changes for the pawns already on the board
        # (relative to an empty board) unless emit_initial is False.
        self.emit_initial = emit_initial
        self.decoder = P.Decoder()
        self.state: bytearray | None = None  # known switch states, snapshot layout
        self.n_bits = 0
        self.hello: P.Hello | None = None
        self.heartbeat: P.Heartbeat | None = None
        self.heartbeat_at: int | None = None
        self.chain_ok: bool | None = None
        self.error: str | None = None
        self.log: deque[str] = deque(maxlen=20)
        self.gaps = 0
        self.snapshots = 0
        self.bad_payloads = 0
        self.pongs: deque[tuple[int, bytes]] = deque(maxlen=64)  # (received at, payload)
        self._rx_seq: int | None = None
        self._tx_seq = 0
        self._out = bytearray()
        self._snapshot_pending = False
        self.peer_seen = False  # a valid frame has come from the firmware since start()
        self.dropped_unready = 0  # messages not sent because the firmware was not ready
        self.readies = 0  # HELLO answers accepted (each one a fresh firmware view)
        self.config: tuple[int, int] | None = None  # re-sent on every ready
        # LED state: what the host wants shown and what the firmware has (None: unknown)
        self.led_want: tuple[bytes, bytes] | None = None
        self.led_sent: tuple[bytes, bytes] | None = None
        self.led_next_ms = 0
        self.led_updates = 0
        self.led_messages = 0

    # -- connection events -------------------------------------------------------------

    def start(self) -> None:
        """A (re)connected port: resync the decoder and wait. Nothing is sent until the
        firmware has sent a valid frame (then ``00``, HELLO and SNAPSHOT go out)."""
        self.decoder.reset()
        self._rx_seq = None
        self._tx_seq = 0
        self._out = bytearray()
        self.hello = None
        self.error = None
        self.peer_seen = False
        self.led_sent = None

    def _greet(self) -> None:
        self.peer_seen = True
        self._out += b"\x00"  # ends whatever half frame the firmware holds
        self._send(P.CMD_HELLO, bytes((P.PROTOCOL_VERSION,)))
        self.request_snapshot()

    @property
    def ready(self) -> bool:
        """The firmware answered HELLO with our protocol version."""
        return self.hello is not None and self.error is None

    def request_snapshot(self) -> None:
        self._snapshot_pending = True
        self._send(P.CMD_SNAPSHOT)

    # -- outgoing ----------------------------------------------------------------------

    def _send(self, msg_type: int, payload: bytes = b"") -> None:
        if not self.peer_seen:
            self.dropped_unready += 1
            return
        self._out += P.encode_frame(msg_type, self._tx_seq, payload)
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF

    def take_outgoing(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    def send_leds(self, colours: Sequence[RGB]) -> None:
        """Send a whole frame of raw colours now (no pacing; benches and tests)."""
        rgb = _rgb_bytes(colours)
        self._send_span(P.CMD_LEDS, 0, rgb, 3)

    def _send_span(self, msg_type: int, first: int, data: bytes, per_led: int) -> None:
        per = (P.MAX_PAYLOAD - 2) // per_led * per_led  # big spans go in chunks
        for off in range(0, max(len(data), 1), per):
            self._send(msg_type, P.u16(first + off // per_led) + data[off:off + per])
            self.led_messages += 1

    def set_leds(self, colours: Sequence[RGB], patterns: Sequence[int] | None = None) -> None:
        """The LED state the host wants: colours and pattern ids (leds.PATTERN_IDS) per
        LED. Sent by ``pump_leds``: only what changed, paced."""
        ids = bytes(patterns) if patterns is not None else bytes(len(colours))
        self.led_want = (_rgb_bytes(colours), ids)

    def pump_leds(self, now: int, can_send: bool = True) -> bool:
        """Send the changed span of the wanted LED state if it differs from what the
        firmware has, at most every LED_MIN_INTERVAL_MS; True if something was sent."""
        want = self.led_want
        if want is None or not self.ready or not can_send or want == self.led_sent:
            return False
        if now < self.led_next_ms:
            return False
        n = self.hello.n_leds if self.hello is not None else len(want[1])
        rgb, ids = want[0][:3 * n], want[1][:n]
        sent = self.led_sent
        if sent is None:
            self._send_span(P.CMD_LEDS, 0, rgb, 3)
            self._send_span(P.CMD_PATTERNS, 0, ids, 1)
        else:
            span = _changed_span(sent[1], ids, 1)
            if span is not None:
                self._send_span(P.CMD_PATTERNS, span[0], ids[span[0]:span[1]], 1)
            span = _changed_span(sent[0], rgb, 3)
            if span is not None:
                self._send_span(P.CMD_LEDS, span[0], rgb[3 * span[0]:3 * span[1]], 3)
        self.led_sent = want
        self.led_next_ms = now + LED_MIN_INTERVAL_MS
        self.led_updates += 1
        return True

    def send_config(self, brightness: int, max_ma: int) -> None:
        """Brightness 0..255 and the host's current cap in mA (0: none of its own; the
        firmware never goes above its own configured maximum). Kept and re-sent on every
        (re)connection."""
        self.config = (max(0, min(255, brightness)), max(0, min(0xFFFF, max_ma)))
        if self.ready:
            self._send_config()

    def _send_config(self) -> None:
        if self.config is not None:
            self._send(P.CMD_CONFIG, bytes((self.config[0],)) + P.u16(self.config[1]))

    def ping(self, payload: bytes = b"") -> None:
        self._send(P.CMD_PING, payload)

    def request_maintenance(self) -> None:
        self._send(P.CMD_MAINTENANCE, P.MAINTENANCE_MAGIC)

    def test_switches(self, changes: Iterable[tuple[int, bool]]) -> None:
        """Only the unix-port firmware (fake chain) obeys this: for tests and benches."""
        self._send(P.CMD_TEST_SWITCHES,
                   b"".join(P.u16(i | (P.CLOSED_FLAG if c else 0)) for i, c in changes))

    def test_chain(self, break_after: int | None) -> None:
        self._send(P.CMD_TEST_CHAIN, bytes((0xFF if break_after is None else break_after,)))

    # -- incoming ----------------------------------------------------------------------

    def receive(self, data: bytes) -> list[SwitchChange]:
        changes: list[SwitchChange] = []
        for frame in self.decoder.feed(data):
            if not self.peer_seen:
                self._greet()  # the firmware runs: now it is safe to talk
            self._check_seq(frame)
            changes += self._handle(frame)
        return changes

    def _check_seq(self, frame: P.Frame) -> None:
        if self._rx_seq is not None and frame.seq != (self._rx_seq + 1) & 0xFFFF:
            self.gaps += 1
            if not self._snapshot_pending:
                self.request_snapshot()  # a lost CHANGES frame is healed by the snapshot
        self._rx_seq = frame.seq

    def _handle(self, frame: P.Frame) -> list[SwitchChange]:
        now = self.clock()
        t = frame.type
        if t == P.MSG_CHANGES:
            decoded = P.decode_changes(frame.payload)
            if decoded is None:
                self.bad_payloads += 1
                return []
            if self.state is None or self.hello is None or self.error is not None:
                return []  # the snapshot on its way covers these
            return self._apply(now, decoded[1])
        if t == P.MSG_SNAPSHOT:
            snap = P.decode_snapshot(frame.payload)
            if snap is None:
                self.bad_payloads += 1
                return []
            self._snapshot_pending = False
            self.snapshots += 1
            self.chain_ok = snap.chain_ok
            if self.error is not None:
                return []
            return self._resync(now, snap)
        if t == P.MSG_HELLO:
            hello = P.decode_hello(frame.payload)
            if hello is None:
                self.bad_payloads += 1
            elif hello.protocol != P.PROTOCOL_VERSION:
                self.error = (f"firmware speaks protocol {hello.protocol}, this host "
                              f"{P.PROTOCOL_VERSION}: run `keezbord firmware install`")
            else:
                self.hello = hello
                self.readies += 1
                self.led_sent = None  # a fresh view: the whole LED state goes again
                self._send_config()
        elif t == P.MSG_HEARTBEAT:
            beat = P.decode_heartbeat(frame.payload)
            if beat is None:
                self.bad_payloads += 1
            else:
                self.heartbeat, self.heartbeat_at = beat, now
                self.chain_ok = bool(beat.flags & P.FLAG_CHAIN_OK)
        elif t == P.MSG_LOG:
            self.log.append(frame.payload.decode("utf-8", "replace"))
        elif t == P.MSG_PONG:
            self.pongs.append((now, frame.payload))
        return []

    def _apply(self, now: int, items: list[tuple[int, bool]]) -> list[SwitchChange]:
        state = self.state
        assert state is not None
        out = []
        for i, closed in items:
            if i >= self.n_bits:
                self.bad_payloads += 1
                continue
            mask = 0x80 >> (i & 7)
            if bool(state[i >> 3] & mask) == closed:
                continue  # already known (e.g. healed by a snapshot): not news
            state[i >> 3] ^= mask
            out.append(SwitchChange(now, i, closed))
        return out

    def _resync(self, now: int, snap: P.Snapshot) -> list[SwitchChange]:
        first = self.state is None or self.n_bits != snap.n_bits
        old = bytes(len(snap.bitmap)) if first else bytes(self.state or b"")
        self.state = bytearray(snap.bitmap)
        self.n_bits = snap.n_bits
        if first and not self.emit_initial:
            return []
        out = []
        for j, (a, b) in enumerate(zip(old, snap.bitmap, strict=True)):
            diff = a ^ b
            if diff:
                for k in range(8):
                    if diff & (0x80 >> k) and (j << 3) + k < snap.n_bits:
                        out.append(SwitchChange(now, (j << 3) + k, bool(b & (0x80 >> k))))
        return out

    def closed(self, i: int) -> bool | None:
        if self.state is None or i >= self.n_bits:
            return None
        return bool(self.state[i >> 3] & (0x80 >> (i & 7)))


class SerialLike(Protocol):
    """The part of serial.Serial the link uses (tests pass fakes)."""

    timeout: float | None

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


def find_pico_port(ports: Iterable[Any] | None = None) -> str | None:
    """The first serial port that is a Pico running MicroPython (USB 2E8A:0005), if any.
    A Raspberry Pi Debug Probe (2E8A:000C, its UART bridge) is never picked."""
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    for p in sorted(ports, key=lambda p: str(p.device)):
        if p.vid == PICO_VID and p.pid == PICO_PID:
            return str(p.device)
    return None


def _open_serial(port: str) -> SerialLike:
    import serial

    # exclusive: `keezbord run` and `firmware install` (mpremote) cannot share the port.
    s: SerialLike = serial.serial_for_url(port, baudrate=115200, timeout=0.0,
                                          write_timeout=0.5, exclusive=True)
    return s


def _rgb_bytes(colours: Sequence[RGB]) -> bytes:
    return bytes(v & 0xFF for c in colours for v in c)


def _changed_span(old: bytes, new: bytes, per: int) -> tuple[int, int] | None:
    """[first, end) LED indices where two per-LED byte strings differ, or None."""
    if len(old) != len(new):
        return (0, len(new) // per)
    n = len(new) // per
    first = next((i for i in range(n) if old[i * per:(i + 1) * per] !=
                  new[i * per:(i + 1) * per]), None)
    if first is None:
        return None
    last = next(i for i in range(n - 1, first - 1, -1) if old[i * per:(i + 1) * per] !=
                new[i * per:(i + 1) * per])
    return (first, last + 1)


def _is_write_timeout(e: BaseException) -> bool:
    try:
        from serial import SerialTimeoutException
    except ImportError:  # pragma: no cover - pyserial is a dependency of this module
        return False
    return isinstance(e, SerialTimeoutException)


class SerialLink:
    """A LinkSession on a serial port, with discovery and reconnection.

    Call ``poll(timeout)`` often (it is the link's heartbeat too): it reads what arrived,
    returns the switch changes, pings the firmware every ``ping_ms`` and, while
    disconnected, retries the port every ``retry_ms``.
    """

    def __init__(self, port: str | None = None, *, clock: Clock = monotonic_ms,
                 open_port: Callable[[str], SerialLike] = _open_serial,
                 find_port: Callable[[], str | None] = find_pico_port,
                 retry_ms: int = 1000, ping_ms: int = 500, emit_initial: bool = True) -> None:
        self.port_name = port
        self.clock = clock
        self._open_port = open_port
        self._find_port = find_port
        self.retry_ms = retry_ms
        self.ping_ms = ping_ms
        self.session = LinkSession(clock, emit_initial=emit_initial)
        self._port: SerialLike | None = None
        self._connected_to: str | None = None
        self._next_try: int | None = None
        self._next_ping = 0
        self._timeout: float | None = None  # the port's read timeout as last set
        self._tx_hold_until = 0
        self.reconnects = 0
        self.connects = 0
        self.tx_timeouts = 0
        self.last_error: str | None = None

    @property
    def connected(self) -> bool:
        return self._port is not None

    def connect(self) -> bool:
        """Try to open the port now; True if connected."""
        if self._port is not None:
            return True
        name = self.port_name or self._find_port()
        if name is None:
            self.last_error = "no Pico found (USB VID 2E8A)"
            return False
        try:
            self._port = self._open_port(name)
        except (OSError, ValueError) as e:  # serial.SerialException is an OSError
            self.last_error = f"{name}: {e}"
            return False
        self._connected_to = name
        self._timeout = None
        self.last_error = None
        if self.connects:
            self.reconnects += 1
        self.connects += 1
        self.session.start()
        self._next_ping = self.clock() + self.ping_ms
        return True

    def _drop(self, why: str) -> None:
        self.last_error = why
        if self._port is not None:
            with contextlib.suppress(OSError):
                self._port.close()
        self._port = None
        self._next_try = self.clock() + self.retry_ms

    def _flush(self) -> bool:
        data = self.session.take_outgoing()
        if not data or self._port is None:
            return self._port is not None
        try:
            self._port.write(data)
        except (OSError, ValueError) as e:
            if _is_write_timeout(e):
                # The Pico is not reading (busy, or its USB stalled): not a reason to
                # reconnect. The frame in flight may be cut; the firmware drops it at
                # the next 00. Hold LED updates for a while; pings go on.
                self.tx_timeouts += 1
                self._tx_hold_until = self.clock() + TX_BACKOFF_MS
                return True
            self._drop(f"write failed: {e}")
            return False
        return True

    def _can_send_leds(self) -> bool:
        if self._port is None or self.clock() < self._tx_hold_until:
            return False
        backlog = 0
        with contextlib.suppress(AttributeError, OSError, ValueError, TypeError):
            backlog = int(getattr(self._port, "out_waiting", 0))
        return backlog < TX_BACKLOG_MAX

    def poll(self, timeout: float = 0.0) -> list[SwitchChange]:
        """Read for up to ``timeout`` seconds (returns early once bytes arrive)."""
        now = self.clock()
        if self._port is None:
            if self._next_try is not None and now < self._next_try:
                if timeout:
                    time.sleep(min(timeout, (self._next_try - now) / 1000))
                return []
            if not self.connect():
                self._next_try = now + self.retry_ms
                return []
        port = self._port
        assert port is not None
        try:
            if timeout != self._timeout:  # setting it reconfigures termios: only on change
                port.timeout = timeout
                self._timeout = timeout
            data = port.read(max(1, port.in_waiting))
            if data and port.in_waiting:
                data += port.read(port.in_waiting)
        except (OSError, ValueError) as e:
            self._drop(f"read failed: {e}")
            return []
        changes = self.session.receive(data) if data else []
        if self.clock() >= self._next_ping:
            self._next_ping = self.clock() + self.ping_ms
            self.session.ping()
        self.session.pump_leds(self.clock(), self._can_send_leds())
        self._flush()
        return changes

    def hole_events(self, timeout: float, wiring: WiringLike) -> list[HoleEvent]:
        return hole_events(self.poll(timeout), wiring)

    def send_leds(self, colours: Sequence[RGB]) -> bool:
        """Send a whole frame of raw colours now, unpaced (benches, tests); False if the
        Pico is not connected. The game and the selftest use ``set_leds``."""
        self.session.send_leds(colours)
        return self._flush_or_discard()

    def set_leds(self, colours: Sequence[RGB], patterns: Sequence[int] | None = None) -> bool:
        """The LED state to show (colours and pattern ids per LED): sent now if it
        changed and the pace allows, else at a later poll. False if not connected."""
        self.session.set_leds(colours, patterns)
        if self._port is None:
            return False
        self.session.pump_leds(self.clock(), self._can_send_leds())
        return self._flush()

    def send_config(self, brightness: int, max_ma: int) -> bool:
        """Brightness and the host's current cap (0: none): kept, and re-sent after
        every reconnection."""
        self.session.send_config(brightness, max_ma)
        return self._flush_or_discard()

    def request_maintenance(self) -> bool:
        self.session.request_maintenance()
        return self._flush_or_discard()

    def _flush_or_discard(self) -> bool:
        if self._port is None:
            self.session.take_outgoing()  # stale by the time we reconnect
            return False
        return self._flush()

    def close(self) -> None:
        if self._port is not None:
            with contextlib.suppress(OSError):
                self._port.close()
        self._port = None

    def health(self) -> LinkHealth:
        s = self.session
        now = self.clock()
        return LinkHealth(
            connected=self.connected,
            port=self._connected_to if self.connected else self.port_name,
            firmware=s.hello.version if s.hello else None,
            frames_ok=s.decoder.frames_ok,
            frames_bad=s.decoder.frames_bad + s.bad_payloads,
            gaps=s.gaps,
            snapshots=s.snapshots,
            reconnects=self.reconnects,
            last_heartbeat_age_ms=None if s.heartbeat_at is None else now - s.heartbeat_at,
            chain_ok=s.chain_ok,
            firmware_counters=dict(s.heartbeat.counters) if s.heartbeat else {},
            error=s.error or (None if self.connected else self.last_error),
            log=tuple(s.log),
            led_updates=s.led_updates,
            tx_timeouts=self.tx_timeouts,
        )
