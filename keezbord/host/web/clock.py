"""The hub's clock (milliseconds, monotonic, continuing the journal's time), which the
simulated people at a table (host/sim/people.py) may hold while their hands are on the
board.

A person's touches of one move are stamped with a person's gaps, not with the machine's
pace: while the people hold the clock it stands still but for the time they add
(``advance``), so a loaded machine (a Pi, a busy CI runner) that wakes them late never
stretches a move past the referee's settle time and has it judged half made. When they
let go they say whether they are done (``release(at_least=...)``): the clock then
continues from that time at once (the referee's settle deadline), so a finished move is
judged on that condition rather than after the settle time has passed on the wall clock.
A real board's switches never hold it.
"""

from __future__ import annotations

import time


class HubClock:
    def __init__(self, start: int) -> None:
        self.reset(start)

    def reset(self, start: int) -> None:
        """Go on from ``start`` (a new or resumed game: the journal's last time + 1)."""
        self._base, self._t0 = start, time.monotonic()
        self._held: int | None = None

    def _wall(self) -> int:
        return self._base + int((time.monotonic() - self._t0) * 1000)

    def now(self) -> int:
        return self._wall() if self._held is None else self._held

    @property
    def held(self) -> bool:
        return self._held is not None

    def hold(self) -> int:
        """Stop the clock (a person's hands on the board); the time it stands at."""
        if self._held is None:
            self._held = self._wall()
        return self._held

    def advance(self, ms: int) -> int:
        """Move a held clock ``ms`` on (a person's gap between two touches)."""
        self._held = self.hold() + max(0, ms)
        return self._held

    def release(self, at_least: int = 0) -> int:
        """Let the clock run again from where it stood, or from ``at_least`` if later
        (never backwards)."""
        start = max(self.now(), at_least)
        self._base, self._t0, self._held = start, time.monotonic(), None
        return start
