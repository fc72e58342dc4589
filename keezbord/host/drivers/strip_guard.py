"""A LED strip that may fail without taking the switches with it.

``GuardedStrip`` is the ``LedSink`` the boards get for a strip on the Pi: it makes the
strip with ``make`` and shows frames on it. A strip whose making or whose ``show()``
raises is dropped at once, never shown again (not even to blank it), and made anew from
scratch at most every ``retry_s`` seconds; until then frames are dropped and ``health()``
says why. Why so strict: Blinka's PWM backend (rpi_ws281x) keeps its half-built strip in
a module global after a failed first init, and the next ``show()`` on any strip writes
through its NULL buffer, a segfault (adafruit_blinka/microcontroller/bcm283x/neopixel.py);
``forget`` clears that global before the next try.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from keezbord.host.drivers.boards import LedSink
from keezbord.host.drivers.leds import RGB

RETRY_S = 5.0


class GuardedStrip:
    def __init__(
        self,
        make: Callable[[], LedSink],
        *,
        forget: Callable[[], None] = lambda: None,
        retry_s: float = RETRY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._make, self._forget = make, forget
        self.retry_s = retry_s
        self._clock = clock
        self.strip: LedSink | None = None
        self.error: str | None = None
        self.failures = 0  # inits and shows that raised
        self.builds = 0  # strips made
        self._next_try = 0.0

    def build(self) -> bool:
        """Make the strip now if there is none and a try is due; True if there is one."""
        if self.strip is None and self._clock() >= self._next_try:
            try:
                self.strip = self._make()
            except Exception as e:  # ImportError, RuntimeError, OSError, ...
                self._failed(e)
                return False
            self.builds += 1
        return self.strip is not None

    def show(self, frame: Sequence[RGB]) -> bool:
        """Show ``frame``; False when there is no working strip (the frame is dropped)."""
        if not self.build():
            return False
        assert self.strip is not None
        try:
            self.strip.show(frame)
        except Exception as e:
            self._failed(e)
            return False
        self.error = None
        return True

    def _failed(self, e: BaseException) -> None:
        self.strip = None  # dropped: a failed strip is never shown again
        self.failures += 1
        self.error = " ".join(f"{type(e).__name__}: {e}".split())[:200]
        self._next_try = self._clock() + self.retry_s
        with contextlib.suppress(Exception):
            self._forget()

    @property
    def ok(self) -> bool:
        return self.error is None

    def health(self) -> dict[str, Any]:
        """For the page and ``doctor`` (``health.link.leds``, docs/web.md)."""
        return {
            "ok": self.ok,
            "error": self.error,
            "failures": self.failures,
            "builds": self.builds,
        }

    def close(self) -> None:
        if self.strip is not None and self.error is None:
            with contextlib.suppress(Exception):
                self.strip.close()
        self.strip = None
