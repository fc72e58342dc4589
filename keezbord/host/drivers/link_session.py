"""The host's end of the link protocol (docs/protocol.md) as a pure state machine:
``LinkSession`` takes the bytes that arrived and gives switch changes plus the bytes to
send. It handles the handshake, resyncs from snapshots, drops corrupt frames, detects
sequence gaps (and then asks for a snapshot) and keeps the link's health
(``LinkHealth``). ``SerialLink`` (link_serial.py) runs it on a serial port.

LEDs: the session keeps the wanted colours and pattern ids per LED and sends only what
changed (one span of LEDS and/or PATTERNS messages), paced by a token bucket: up to
``LED_BURST`` (3) updates at once after a quiet spell, never more than
``LED_UPDATES_PER_S`` (20) in any second; the firmware animates the patterns.

Switch changes come out as ``SwitchChange(t, index, closed)`` with ``t`` the host's
monotonic milliseconds at reception; ``hole_events`` (keezbord.host.drivers.switches)
turns them into ``HoleEvent``s through the board's Wiring.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from keezbord.host.drivers import link_protocol as P
from keezbord.host.drivers.switches import SwitchChange

# LED pacing, a token bucket: one update costs a token, a token comes back every
# LED_MIN_INTERVAL_MS, at most LED_BURST are held. So the update of a lift goes at once
# even right after a place's (one update per 50 ms held it up to 50 ms), while a stream of
# changes gets LED_UPDATES_PER_S, never more in any second (issue 9's cap, kept by a
# sliding window over the last updates). The firmware scans on under any traffic
# (docs/protocol.md); the cap bounds what LED frames cost its CPU.
LED_UPDATES_PER_S = 20
LED_MIN_INTERVAL_MS = 1000 // LED_UPDATES_PER_S
LED_BURST = 3
RGB = tuple[int, int, int]
Clock = Callable[[], int]


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
    led_updates: int = 0  # LED state updates sent (paced: bursts of 3, at most 20 in any second)
    tx_timeouts: int = 0  # writes the Pico did not take in time (no reconnect for those)

    @property
    def ok(self) -> bool:
        return (
            self.connected
            and self.error is None
            and self.chain_ok is not False
            and self.last_heartbeat_age_ms is not None
            and self.last_heartbeat_age_ms < 3000
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "connected": self.connected,
            "port": self.port,
            "firmware": self.firmware,
            "frames_ok": self.frames_ok,
            "frames_bad": self.frames_bad,
            "gaps": self.gaps,
            "snapshots": self.snapshots,
            "reconnects": self.reconnects,
            "last_heartbeat_age_ms": self.last_heartbeat_age_ms,
            "chain_ok": self.chain_ok,
            "firmware_counters": dict(self.firmware_counters),
            "error": self.error,
            "log": list(self.log),
            "led_updates": self.led_updates,
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
        # When the LED bucket is full again (<= now: full): each update adds an interval
        self.led_full_at = 0
        self.led_recent: deque[int] = deque(maxlen=LED_UPDATES_PER_S)  # when they went
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

    def lost(self) -> None:
        """The port is gone (an unplug, a reset): what the firmware said of itself no
        longer holds, whatever comes back on that port (another firmware, a bare
        MicroPython). The switch state is kept: the snapshot after the replug resyncs."""
        self.hello = None
        self.peer_seen = False

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
            self._send(msg_type, P.u16(first + off // per_led) + data[off : off + per])
            self.led_messages += 1

    def set_leds(self, colours: Sequence[RGB], patterns: Sequence[int] | None = None) -> None:
        """The LED state the host wants: colours and pattern ids (leds.PATTERN_IDS) per
        LED. Sent by ``pump_leds``: only what changed, paced."""
        ids = bytes(patterns) if patterns is not None else bytes(len(colours))
        self.led_want = (_rgb_bytes(colours), ids)

    def pump_leds(self, now: int, can_send: bool = True) -> bool:
        """Send the changed span of the wanted LED state if it differs from what the
        firmware has and the bucket holds a token; True if something was sent."""
        want = self.led_want
        if want is None or not self.ready or not can_send or want == self.led_sent:
            return False
        if now < self.led_full_at - (LED_BURST - 1) * LED_MIN_INTERVAL_MS:
            return False  # no token left: the latest state goes when one is back
        recent = self.led_recent
        if len(recent) == recent.maxlen and now - recent[0] < 1000:
            return False  # a whole second's worth already went in the last second
        n = self.hello.n_leds if self.hello is not None else len(want[1])
        rgb, ids = want[0][: 3 * n], want[1][:n]
        sent = self.led_sent
        if sent is None:
            self._send_span(P.CMD_LEDS, 0, rgb, 3)
            self._send_span(P.CMD_PATTERNS, 0, ids, 1)
        else:
            span = _changed_span(sent[1], ids, 1)
            if span is not None:
                self._send_span(P.CMD_PATTERNS, span[0], ids[span[0] : span[1]], 1)
            span = _changed_span(sent[0], rgb, 3)
            if span is not None:
                self._send_span(P.CMD_LEDS, span[0], rgb[3 * span[0] : 3 * span[1]], 3)
        self.led_sent = want
        self.led_full_at = max(self.led_full_at, now) + LED_MIN_INTERVAL_MS
        recent.append(now)
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
        self._send(
            P.CMD_TEST_SWITCHES,
            b"".join(P.u16(i | (P.CLOSED_FLAG if c else 0)) for i, c in changes),
        )

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
                self.error = (
                    f"firmware speaks protocol {hello.protocol}, this host "
                    f"{P.PROTOCOL_VERSION}: run `keezbord firmware install`"
                )
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


def _rgb_bytes(colours: Sequence[RGB]) -> bytes:
    return bytes(v & 0xFF for c in colours for v in c)


def _changed_span(old: bytes, new: bytes, per: int) -> tuple[int, int] | None:
    """[first, end) LED indices where two per-LED byte strings differ, or None."""
    if len(old) != len(new):
        return (0, len(new) // per)
    n = len(new) // per
    first = next(
        (i for i in range(n) if old[i * per : (i + 1) * per] != new[i * per : (i + 1) * per]), None
    )
    if first is None:
        return None
    last = next(
        i
        for i in range(n - 1, first - 1, -1)
        if old[i * per : (i + 1) * per] != new[i * per : (i + 1) * per]
    )
    return (first, last + 1)
