"""Board drivers for ``keezbord run``: hole and card events in, LED frames out.

- ``FakeBoard``: events put in by hand (tests); records every LED frame with its time.
- ``TraceBoard``: plays a recorded or simulated sensor trace as if people were at the
  table (``keezbord run --simulate``): the spectator page with no hardware.
- ``SerialBoard``: the Pico over USB serial (keezbord/host/drivers/link_serial.py).
- ``GpioBoard``: the Pi reads the 74HC165 chain itself (keezbord/host/drivers/
  scanner_gpio.py) and drives a NeoPixel strip (keezbord/host/drivers/strip_neopixel.py).

Both real boards share ``PolledBoard``: one thread polls the switches and re-renders the
LED frame every ``refresh_ms`` (50 ms: at most 20 frames a second; blink patterns are a
function of time), handing it to the LED sink only when it differs from the last one;
another thread polls the card reader. Frames are rendered by
keezbord/host/drivers/leds.py (palette, patterns, brightness, current budget) into the
wiring's LED order. Over the Pico link the host does not render at all: it sends base
colours and pattern ids when they change and the firmware animates them. The first full
read of the switches is posted as a ``Board`` input so the referee resyncs to what is
really on the board.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from keezbord.host.drivers.leds import RGB, LedRenderer, LedSettings
from keezbord.host.drivers.switches import hole_events
from keezbord.host.events import Event, HoleEvent
from keezbord.host.referee.state import Board, Input

Post = Callable[[Input], None]
LedSink = Callable[[list[RGB]], object]
Clock = Callable[[], int]


class FakeBoard:
    """A board driven by the test: ``lift``/``place``/``put`` post events; ``frames``
    records (time, frame) for every LED frame shown."""

    def __init__(self) -> None:
        self.frames: list[tuple[int, dict[str, str]]] = []
        self._post: Post | None = None
        self._now: Clock = lambda: 0
        self.closed = False

    def start(self, post: Post, now: Clock) -> None:
        self._post, self._now = post, now

    def put(self, event: Event) -> None:
        assert self._post is not None, "the hub has not started the board"
        self._post(event)

    def lift(self, hole: str) -> None:
        self.put(HoleEvent(self._now(), "lift", hole))

    def place(self, hole: str) -> None:
        self.put(HoleEvent(self._now(), "place", hole))

    def show_leds(self, holes: Mapping[str, str], t: int) -> None:
        self.frames.append((t, dict(holes)))

    def close(self) -> None:
        self.closed = True


class TraceBoard(FakeBoard):
    """Posts a trace's events at their pace (``speed`` < 1 plays faster), from a thread."""

    def __init__(self, events: Sequence[Event], speed: float = 1.0) -> None:
        super().__init__()
        self.events = list(events)
        self.speed = speed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, post: Post, now: Clock) -> None:
        super().start(post, now)
        self._thread = threading.Thread(target=self._play, daemon=True, name="trace-board")
        self._thread.start()

    def _play(self) -> None:
        if not self.events:
            return
        t_first = self.events[0].t
        start = time.monotonic()
        for ev in self.events:
            due = start + (ev.t - t_first) * self.speed / 1000
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            t = self._now()
            post = self._post
            assert post is not None
            post(_retime(ev, t))

    def close(self) -> None:
        self._stop.set()
        super().close()


def _retime(ev: Event, t: int) -> Event:
    from dataclasses import replace

    return replace(ev, t=t)


class PolledBoard:
    """A real board polled from a thread. Subclasses implement ``poll_switches`` and
    ``switch_health``; LED frames go to ``led_sink`` (None: no LEDs)."""

    kind = "board"

    def __init__(self, wiring: Any, settings: LedSettings, led_sink: LedSink | None,
                 reader: Any | None = None, *, refresh_ms: int = 50,
                 period_s: float = 0.002) -> None:
        self.wiring = wiring
        self.renderer = LedRenderer(wiring.led_order, settings)
        self.led_sink = led_sink
        self.reader = reader
        self.refresh_ms = refresh_ms
        self.period_s = period_s
        self.led_writes = 0
        self._frame: dict[str, str] = {}
        self._shown: list[RGB] | None = None
        self._last_refresh: int | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    # -- one step (the thread's loop body; tests call it directly) --------------------

    def poll_switches(self, now: int) -> list[Input]:
        raise NotImplementedError

    def pump(self, now: int) -> list[Input]:
        """Poll the switches once and re-render the LEDs if ``refresh_ms`` has passed."""
        with self._lock:
            inputs = self.poll_switches(now)
            if self._last_refresh is None or now - self._last_refresh >= self.refresh_ms:
                self._render(now)
        return inputs

    def _render(self, t: int) -> None:
        self._last_refresh = t
        if self.led_sink is not None:
            pixels = self.renderer.render(self._frame, t)
            if pixels != self._shown:  # only on change: a steady frame is sent once
                self.led_sink(pixels)
                self._shown = pixels
                self.led_writes += 1

    def show_leds(self, holes: Mapping[str, str], t: int) -> None:
        with self._lock:
            self._frame = dict(holes)
            self._render(t)

    # -- threads ------------------------------------------------------------------------

    def start(self, post: Post, now: Clock) -> None:
        def switches() -> None:
            while not self._stop.is_set():
                began = time.monotonic()
                try:
                    for ev in self.pump(now()):
                        post(ev)
                except Exception as e:  # a driver hiccup must not end the game
                    print(f"keezbord: {self.kind} poll failed: {e!r}", flush=True)
                    self._stop.wait(0.5)
                rest = self.period_s - (time.monotonic() - began)
                if rest > 0:
                    self._stop.wait(rest)

        def cards() -> None:
            while not self._stop.is_set():
                assert self.reader is not None
                for tap in self.reader.poll(now()):
                    post(tap)
                self._stop.wait(0.02)

        self._threads.append(threading.Thread(target=switches, daemon=True, name=self.kind))
        if self.reader is not None:
            self._threads.append(threading.Thread(target=cards, daemon=True, name="rfid"))
        for th in self._threads:
            th.start()

    def health(self) -> dict[str, Any]:
        """The board link's health for the page (``health.link`` in docs/web.md)."""
        with self._lock:
            return {"kind": self.kind, **self.switch_health()}

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
    """The Pico's serial link (and a card reader). LEDs go over the link by default
    (``led_sink`` to drive them otherwise, e.g. a NeoPixel strip on the Pi): base colours
    (brightness applied by the host) and pattern ids, sent when they change; the Pico
    animates the patterns. The link tells the Pico brightness 255 (no second dimming)
    and the configured budget as the host's cap (0 when none is configured: the Pico
    then keeps its own maximum, and it never goes above it)."""

    kind = "pico-serial"

    def __init__(self, link: Any, wiring: Any, settings: LedSettings,
                 reader: Any | None = None, *, led_sink: LedSink | str | None = "link",
                 timeout_s: float = 0.01) -> None:
        # "link": base colours and pattern ids over the link (see _render); a callable:
        # rendered frames to that sink; None (or another string): no LEDs.
        self.leds_over_link = led_sink == "link"
        sink = None if isinstance(led_sink, str) else led_sink
        super().__init__(wiring, settings, sink, reader)
        self.link = link
        self.budget_ma = int(settings.budget_ma) if settings.budget_ma else 0
        self.timeout_s = timeout_s
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

    def poll_switches(self, now: int) -> list[Input]:
        changes = self.link.poll(self.timeout_s)
        out: list[Input] = []
        session = self.link.session
        if not self._synced:
            if session.state is None:
                return out
            self._synced = True  # the first snapshot: the whole board, as a resync
            closed = [h for i in range(session.n_bits)
                      if session.closed(i) and (h := self.wiring.hole_at_switch(i))]
            return [Board(now, frozenset(closed))]
        out.extend(hole_events(changes, self.wiring, t=now))
        return out

    def switch_health(self) -> dict[str, Any]:
        d: dict[str, Any] = self.link.health().to_dict()
        return d

    def close_hardware(self) -> None:
        self.link.close()


class GpioBoard(PolledBoard):
    """The Pi-direct chain scanner (``scan_hz`` scans a second, debounced) and a NeoPixel
    strip (or any ``led_sink``). A broken chain is counted and shown in the health; its
    scans are dropped, so it never shows up as moves."""

    kind = "gpio"

    def __init__(self, scanner: Any, wiring: Any, settings: LedSettings,
                 strip: Any | None = None, reader: Any | None = None, *,
                 scan_hz: int = 500) -> None:
        super().__init__(wiring, settings, strip.show if strip is not None else None,
                         reader, period_s=1 / scan_hz)
        self.scanner = scanner
        self.strip = strip
        self.scans = 0
        self.chain_ok: bool | None = None
        self.chain_error: str | None = None
        self._synced = False

    def poll_switches(self, now: int) -> list[Input]:
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
            return [Board(now, self.scanner.closed_holes())]
        out: list[Input] = []
        out.extend(hole_events(changes, self.wiring, t=now))
        return out

    def switch_health(self) -> dict[str, Any]:
        return {"ok": self.chain_ok is not False, "connected": True,
                "chain_ok": self.chain_ok, "scans": self.scans,
                "broken_reads": self.scanner.broken_reads, "error": self.chain_error}

    def close_hardware(self) -> None:
        if self.strip is not None:
            with contextlib.suppress(Exception):
                self.strip.close()
