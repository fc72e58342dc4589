"""The real boards of ``keezbord run``: switches polled from a thread, LED frames out.

- ``SerialBoard``: the Pico over USB serial (link_serial.py).
- ``GpioBoard``: the Pi reads the 74HC165 chain itself (scanner_gpio.py) and drives a
  NeoPixel strip (strip_neopixel.py).

Both share ``PolledBoard``: one thread polls the switches and re-renders the LED frame
every ``refresh_ms`` (50 ms: at most 20 frames a second; blink patterns are a function
of time), handing it to the ``LedSink`` only when it differs from the last one; another
thread polls the card reader. Frames are rendered by leds.py (palette, patterns,
brightness, current budget) into the wiring's LED order. Over the Pico link the host
does not render at all: it sends base colours and pattern ids when they change and the
firmware animates them. The first full read of the switches is posted as a
``SwitchRead`` so the referee resyncs to what is really on the board.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from keezbord.host.drivers.boards import Clock, LedSink, Post
from keezbord.host.drivers.leds import RGB, LedRenderer, LedSettings
from keezbord.host.drivers.switches import WiringLike, hole_events
from keezbord.host.events import Reading, SwitchRead

if TYPE_CHECKING:
    from keezbord.host.drivers.link_serial import LinkHealth, SerialLink
    from keezbord.host.drivers.rfid import CardReader
    from keezbord.host.drivers.scanner_gpio import GpioScanner


class PolledBoard:
    """A real board polled from a thread (a ``BoardDriver``). Subclasses implement
    ``poll_switches`` and ``switch_health``; rendered LED frames go to ``leds`` (None: no
    LEDs)."""

    kind = "board"

    def __init__(
        self,
        wiring: WiringLike,
        settings: LedSettings,
        leds: LedSink | None,
        reader: CardReader | None = None,
        *,
        refresh_ms: int = 50,
        period_s: float = 0.002,
    ) -> None:
        self.wiring = wiring
        self.renderer = LedRenderer(wiring.led_order, settings)
        self.leds = leds
        self.reader = reader
        self.refresh_ms = refresh_ms
        self.period_s = period_s
        self.led_writes = 0
        self.led_error: str | None = None  # the last render failure not a strip's own
        self._frame: dict[str, str] = {}
        self._shown: list[RGB] | None = None
        self._last_refresh: int | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    # -- one step (the thread's loop body; tests call it directly) --------------------

    def poll_switches(self, now: int) -> list[Reading]:
        raise NotImplementedError

    def pump(self, now: int) -> list[Reading]:
        """Poll the switches once and re-render the LEDs if ``refresh_ms`` has passed.
        The readings never depend on the LEDs: they are taken first and returned whatever
        rendering does (a failing strip is GuardedStrip's to report and rebuild)."""
        with self._lock:
            readings = self.poll_switches(now)
            if self._last_refresh is None or now - self._last_refresh >= self.refresh_ms:
                self._render_safely(now)
        return readings

    def _render_safely(self, t: int) -> None:
        try:
            self._render(t)
        except Exception as e:  # a sink without a guard, or a renderer bug
            self._last_refresh = t
            why = f"{type(e).__name__}: {e}"
            if why != self.led_error:
                print(f"keezbord: {self.kind} LEDs failed: {why}", flush=True)
            self.led_error = why

    def _render(self, t: int) -> None:
        self._last_refresh = t
        if self.leds is not None:
            pixels = self.renderer.render(self._frame, t)
            if pixels != self._shown:  # only on change: a steady frame is sent once
                self.leds.show(pixels)
                # A failing strip dropped it: send it again when the strip is back.
                if getattr(self.leds, "ok", True):
                    self._shown = pixels
                    self.led_writes += 1
                else:
                    self._shown = None
            self.led_error = None

    def show_leds(self, holes: Mapping[str, str], t: int) -> None:
        with self._lock:
            self._frame = dict(holes)
            self._render_safely(t)

    # -- threads ------------------------------------------------------------------------

    def start(self, post: Post, now: Clock) -> None:
        def switches() -> None:
            while not self._stop.is_set():
                began = time.monotonic()
                try:
                    for reading in self.pump(now()):
                        post(reading)
                except Exception as e:  # a driver hiccup must not end the game
                    print(f"keezbord: {self.kind} poll failed: {e!r}", flush=True)
                    self._stop.wait(0.5)
                rest = self.period_s - (time.monotonic() - began)
                if rest > 0:
                    self._stop.wait(rest)

        def cards() -> None:
            while not self._stop.is_set():
                assert self.reader is not None
                try:
                    for tap in self.reader.poll(now()):
                        post(tap)
                except Exception as e:  # a reader's driver hiccup must not end its thread
                    print(f"keezbord: card reader poll failed: {e!r}", flush=True)
                    self._stop.wait(1.0)
                self._stop.wait(0.02)

        self._threads.append(threading.Thread(target=switches, daemon=True, name=self.kind))
        if self.reader is not None:
            self._threads.append(threading.Thread(target=cards, daemon=True, name="rfid"))
        for th in self._threads:
            th.start()

    def health(self) -> dict[str, Any]:
        """The board link's health for the page (``health.link`` in docs/web.md), with
        the Pi's strip (``leds``; None when the LEDs are not the Pi's) and the card reader
        (``reader``: a PN532 that does not answer says so; None without one)."""
        with self._lock:
            h = {"kind": self.kind, **self.switch_health(), "leds": self.leds_health()}
        reader = getattr(self.reader, "health", None)
        h["reader"] = reader() if callable(reader) else None  # its own thread's counters
        return h

    def leds_health(self) -> dict[str, Any] | None:
        if self.leds is None:
            return None
        own = getattr(self.leds, "health", None)
        h: dict[str, Any] = own() if callable(own) else {"ok": True, "error": None}
        if self.led_error is not None:
            h = {**h, "ok": False, "error": self.led_error}
        return h

    def switch_health(self) -> dict[str, Any]:
        raise NotImplementedError

    def close_hardware(self) -> None:
        pass

    def close(self) -> None:
        self._stop.set()
        for th in self._threads:
            th.join(timeout=1)
        with self._lock:
            self.close_hardware()
        if self.reader is not None:
            self.reader.close()


class SerialBoard(PolledBoard):
    """The Pico's serial link (and a card reader). LEDs go over the link unless a
    ``strip`` (a NeoPixel strip on the Pi) is given, or ``link_leds`` is False (no LEDs):
    base colours (brightness applied by the host) and pattern ids, sent when they change;
    the Pico animates the patterns. The link tells the Pico brightness 255 (no second
    dimming) and the configured budget as the host's cap (0 when none is configured: the
    Pico then keeps its own maximum, and it never goes above it).

    ``on_link`` is told (connected, the link's health) whenever the link comes or goes,
    and once at the first poll: ``keezbord run`` says it on the terminal."""

    kind = "pico-serial"

    def __init__(
        self,
        link: SerialLink,
        wiring: WiringLike,
        settings: LedSettings,
        reader: CardReader | None = None,
        *,
        strip: LedSink | None = None,
        link_leds: bool = True,
        timeout_s: float = 0.01,
        on_link: Callable[[bool, LinkHealth], None] | None = None,
    ) -> None:
        super().__init__(wiring, settings, strip, reader)
        self.leds_over_link = strip is None and link_leds
        self.link = link
        self.budget_ma = int(settings.budget_ma) if settings.budget_ma else 0
        self.timeout_s = timeout_s
        self.on_link = on_link
        self._told: bool | None = None  # the link state last told to on_link
        self._synced = False
        if self.leds_over_link:
            self.link.send_config(255, self.budget_ma)  # kept; re-sent on every connect

    def _render(self, t: int) -> None:
        if not self.leds_over_link:
            super()._render(t)
            return
        self._last_refresh = t
        colours, ids = self.renderer.base(self._frame)
        self.link.set_leds(colours, ids)  # sent only if changed, paced by the link

    def poll_switches(self, now: int) -> list[Reading]:
        changes = self.link.poll(self.timeout_s)
        self._tell_link()
        session = self.link.session
        if not self._synced:
            if session.state is None:
                return []
            self._synced = True  # the first snapshot: the whole board, as a resync
            closed = [
                h
                for i in range(session.n_bits)
                if session.closed(i) and (h := self.wiring.hole_at_switch(i))
            ]
            return [SwitchRead(now, frozenset(closed))]
        return list(hole_events(changes, self.wiring, t=now))

    def _tell_link(self) -> None:
        connected = bool(self.link.connected)
        if self.on_link is not None and connected != self._told:
            self._told = connected
            self.on_link(connected, self.link.health())

    def switch_health(self) -> dict[str, Any]:
        d: dict[str, Any] = self.link.health().to_dict()
        return d

    def close_hardware(self) -> None:
        self.link.close()


class GpioBoard(PolledBoard):
    """The Pi-direct chain scanner (``scan_hz`` scans a second, debounced) and a NeoPixel
    strip (or any ``LedSink``). A broken chain is counted and shown in the health; its
    scans are dropped, so it never shows up as moves."""

    kind = "gpio"

    def __init__(
        self,
        scanner: GpioScanner,
        wiring: WiringLike,
        settings: LedSettings,
        strip: LedSink | None = None,
        reader: CardReader | None = None,
        *,
        scan_hz: int = 500,
    ) -> None:
        super().__init__(wiring, settings, strip, reader, period_s=1 / scan_hz)
        self.scanner = scanner
        self.strip = strip
        self.scans = 0
        self.chain_ok: bool | None = None
        self.chain_error: str | None = None
        self._synced = False

    def poll_switches(self, now: int) -> list[Reading]:
        from keezbord.host.drivers.scanner_gpio import BrokenChainError

        try:
            changes = self.scanner.scan(now)
        except BrokenChainError as e:
            self.chain_ok, self.chain_error = False, str(e)
            return []
        self.scans += 1
        self.chain_ok, self.chain_error = True, None
        if not self._synced:
            self._synced = True  # the first good scan is the baseline: the whole board
            return [SwitchRead(now, self.scanner.closed_holes())]
        return list(hole_events(changes, self.wiring, t=now))

    def switch_health(self) -> dict[str, Any]:
        return {
            "ok": self.chain_ok is not False,
            "connected": True,
            "chain_ok": self.chain_ok,
            "scans": self.scans,
            "broken_reads": self.scanner.broken_reads,
            "chain_faults": dict(self.scanner.faults),  # by kind: bus, count, open, broken
            "error": self.chain_error,
        }

    def close_hardware(self) -> None:
        if self.strip is not None:
            with contextlib.suppress(Exception):
                self.strip.close()
