"""Board drivers for ``keezbord run``: hole and card events in, LED frames out.

- ``FakeBoard``: events put in by hand (tests); records every LED frame with its time.
- ``TraceBoard``: plays a recorded or simulated sensor trace as if people were at the
  table (``keezbord run --simulate``): the spectator page with no hardware.
- ``SerialBoard``: the Pico over USB serial (keezbord/host/drivers/link_serial.py) and
  an optional RFID reader, each polled in a thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from keezbord.host.drivers.leds import LedRenderer, LedSettings
from keezbord.host.events import Event, HoleEvent

Post = Callable[[Event], None]
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


class SerialBoard:
    """The Pico's serial link (and a card reader): polled in threads; LED frames are
    rendered with the configured palette and re-sent so that blink patterns run."""

    def __init__(self, link: Any, wiring: Any, settings: LedSettings,
                 reader: Any | None = None) -> None:
        self.link = link
        self.wiring = wiring
        self.renderer = LedRenderer(wiring.led_order(), settings)
        self.reader = reader
        self._frame: dict[str, str] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def start(self, post: Post, now: Clock) -> None:
        def links() -> None:
            last_leds = 0.0
            while not self._stop.is_set():
                with self._lock:
                    events = self.link.hole_events(0.01, self.wiring)
                    if time.monotonic() - last_leds > 0.05:
                        last_leds = time.monotonic()
                        self.link.send_leds(self.renderer.render(self._frame, now()))
                for ev in events:
                    post(HoleEvent(now(), ev.action, ev.hole))
                if not events:
                    time.sleep(0.002)

        def cards() -> None:
            while not self._stop.is_set():
                assert self.reader is not None
                for tap in self.reader.poll(now()):
                    post(tap)
                time.sleep(0.02)

        self._threads.append(threading.Thread(target=links, daemon=True, name="link"))
        if self.reader is not None:
            self._threads.append(threading.Thread(target=cards, daemon=True, name="rfid"))
        for th in self._threads:
            th.start()

    def show_leds(self, holes: Mapping[str, str], t: int) -> None:
        with self._lock:
            self._frame = dict(holes)
            self.link.send_leds(self.renderer.render(self._frame, t))

    def close(self) -> None:
        self._stop.set()
        for th in self._threads:
            th.join(timeout=1)
        with self._lock:
            self.link.close()
        if self.reader is not None:
            self.reader.close()
