"""The host's end of the serial link to the Pico firmware (docs/protocol.md).

``SerialLink``: a ``LinkSession`` (link_session.py: the protocol as a pure state machine)
on a pyserial port. It finds the Pico (USB 2E8A:0005, MicroPython; never a Debug Probe at
2E8A:000C) or uses a configured port, opens it exclusively, reconnects after an unplug,
pings the firmware so it knows the host is alive, and sends LED state (paced: up to 3
updates at once, at most 20 in any second; only while the port keeps up).

The host sends nothing on a fresh connection until the firmware has sent one valid frame
(it sends a heartbeat as soon as it runs): bytes sent into a Pico that is still booting
could reach MicroPython before the firmware has turned Ctrl-C off.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from keezbord.host.drivers.link_session import (
    LED_UPDATES_PER_S,
    RGB,
    Clock,
    LinkHealth,
    LinkSession,
    monotonic_ms,
)
from keezbord.host.drivers.switches import SwitchChange, WiringLike, hole_events
from keezbord.host.events import HoleEvent

PICO_VID = 0x2E8A
PICO_PID = 0x0005  # MicroPython's USB CDC; 0x000C is the Raspberry Pi Debug Probe
TX_BACKLOG_MAX = 1024  # bytes queued in the OS for the port: above this, hold LED updates
TX_BACKOFF_MS = 1000  # after a write timeout: no LED updates for this long

__all__ = [
    "LED_UPDATES_PER_S",
    "PICO_PID",
    "PICO_VID",
    "LinkHealth",
    "LinkSession",
    "SerialLink",
    "SwitchChange",
    "find_pico_port",
    "hole_events",
    "monotonic_ms",
]


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

    from keezbord.host.drivers.port_holder import open_exclusive

    # exclusive: `keezbord run` and `firmware install` (mpremote) cannot share the port;
    # the one refused says who holds it.
    s: SerialLike = open_exclusive(
        lambda: serial.serial_for_url(
            port, baudrate=115200, timeout=0.0, write_timeout=0.5, exclusive=True
        ),
        port,
    )
    return s


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

    def __init__(
        self,
        port: str | None = None,
        *,
        clock: Clock = monotonic_ms,
        open_port: Callable[[str], SerialLike] = _open_serial,
        find_port: Callable[[], str | None] = find_pico_port,
        retry_ms: int = 1000,
        ping_ms: int = 500,
        emit_initial: bool = True,
    ) -> None:
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
        self.busy = False  # the last try found the port held by another program

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
            from keezbord.host.drivers.port_holder import PortBusy

            self.busy = isinstance(e, PortBusy)
            self.last_error = str(e) if self.busy else f"{name}: {e}"
            return False
        self._connected_to = name
        self._timeout = None
        self.last_error, self.busy = None, False
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
        # Until the reopen (retry_ms) the health names no firmware: doctor asked in that
        # second and took the version heard before the unplug for an answer.
        self.session.lost()
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
        self.session.lost()

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
