"""What the host asks of a board driver (``BoardDriver``), where rendered LED frames go
(``LedSink``), and the two boards with no hardware behind them.

- ``BoardDriver``: posts what the switches and the card reader see (``HoleEvent``, ``CardTap``,
  a full ``SwitchRead``) and shows the referee's LED frames (hole -> role). The game
  loop (keezbord/host/web/hub.py) starts it, feeds what it posts to the referee, and
  hands it every new frame. The real boards are in polled.py; ``build_board``
  (build.py) makes the one a board's config describes.
- ``FakeBoard``: events put in by hand (tests); records every LED frame with its time.
- ``TraceBoard``: plays a recorded or simulated sensor trace as if people were at the
  table (``keezbord run --simulate``): the spectator page with no hardware.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from keezbord.host.drivers.leds import RGB
from keezbord.host.events import Event, HoleEvent, Reading

Post = Callable[[Reading], None]
Clock = Callable[[], int]


class BoardDriver(Protocol):
    """A board driver at the edge: switches and card reader in, LED frames out."""

    def start(self, post: Post, now: Clock) -> None:
        """Begin posting readings (from the driver's own threads); ``now`` is the
        host's clock in ms, to stamp them."""

    def show_leds(self, holes: Mapping[str, str], t: int) -> None:
        """Show the referee's frame (hole -> LED role) from ``t`` ms on."""

    def close(self) -> None: ...


class LedSink(Protocol):
    """Where a board's rendered LED frames go: one colour per LED in the wiring's LED
    order (a NeoPixel strip: ``NeoPixelStrip``; a test's recording fake)."""

    def show(self, frame: Sequence[RGB]) -> object: ...

    def close(self) -> None: ...


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

    def put(self, event: Reading) -> None:
        assert self._post is not None, "the host has not started the board"
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
            post = self._post
            assert post is not None
            post(dataclasses.replace(ev, t=self._now()))

    def close(self) -> None:
        self._stop.set()
        super().close()
