"""Sensor health: per-hole counters for chattering and stuck reed switches.

- Chatter: many transitions in a short window (a loose magnet, a bad contact, a switch
  too close to its neighbour's pawn).
- Stuck: a switch that has not changed over a whole walk of the board (the selftest), or
  one that stays closed where no pawn should be, for longer than a move takes.

The summary is plain data for the web page and the CLI; ``led_frame`` marks bad holes
with the ``error`` role.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from keezbord.engine.text import Text
from keezbord.host.events import HoleEvent


@dataclass(slots=True)
class _Hole:
    closed: bool
    closed_since: int | None
    transitions: int = 0
    chatter_episodes: int = 0
    chatter_until: int = -1
    # The transitions in the chatter window; made at the hole's first (a deque is half
    # a kB from the start, and most of an 8-seat board's 192 holes never see a pawn).
    recent: deque[int] | None = None


@dataclass(frozen=True, slots=True)
class HealthSummary:
    ok: bool
    chattering: tuple[str, ...]
    stuck_closed: tuple[str, ...]
    never_changed: tuple[str, ...]
    transitions: int

    @property
    def bad_holes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*self.chattering, *self.stuck_closed)))

    def text(self) -> Text:
        if self.ok:
            return Text(nl="alle sensoren in orde", en="all sensors fine")
        nl, en = [], []
        if self.chattering:
            h = ", ".join(self.chattering)
            nl.append(f"sensor dendert: {h}")
            en.append(f"switch chatters: {h}")
        if self.stuck_closed:
            h = ", ".join(self.stuck_closed)
            nl.append(f"sensor blijft gesloten zonder pion: {h}")
            en.append(f"switch stays closed with no pawn: {h}")
        return Text(nl="; ".join(nl), en="; ".join(en))

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "chattering": list(self.chattering),
            "stuck_closed": list(self.stuck_closed),
            "never_changed": list(self.never_changed),
            "transitions": self.transitions,
            "text": self.text().as_dict(),
        }


class HealthMonitor:
    """Feed it every hole event; ask it for a summary at any time."""

    def __init__(
        self,
        holes: Sequence[str],
        closed: Iterable[str] = (),
        start: int = 0,
        chatter_window_ms: int = 1000,
        chatter_threshold: int = 8,
        stuck_ms: int = 5000,
    ) -> None:
        init = set(closed)
        self.window, self.threshold, self.stuck_ms = (
            chatter_window_ms,
            chatter_threshold,
            stuck_ms,
        )
        self._holes = {h: _Hole(h in init, start if h in init else None) for h in holes}

    def observe(self, e: HoleEvent) -> None:
        h = self._holes.get(e.hole)
        if h is None:
            return
        closed = e.action == "place"
        if closed == h.closed:
            return  # a repeat of the state we know: not a transition
        h.closed = closed
        h.closed_since = e.t if closed else None
        h.transitions += 1
        if h.recent is None:
            h.recent = deque()
        recent = h.recent
        recent.append(e.t)
        while recent and recent[0] <= e.t - self.window:
            recent.popleft()
        if len(recent) >= self.threshold and e.t > h.chatter_until:
            h.chatter_episodes += 1
            h.chatter_until = e.t + self.window  # one episode per burst

    def closed_since(self, hole: str) -> int | None:
        """Since when the hole's switch is closed (None: open, or an unknown hole)."""
        h = self._holes.get(hole)
        return None if h is None else h.closed_since

    def transitions(self, hole: str) -> int:
        return self._holes[hole].transitions

    def chatter_episodes(self, hole: str) -> int:
        return self._holes[hole].chatter_episodes

    def summary(self, now: int, expected_closed: Collection[str] | None = None) -> HealthSummary:
        """``expected_closed``: holes where the game has a pawn (None: not known, so no
        stuck-closed check)."""
        chattering = tuple(n for n, h in self._holes.items() if h.chatter_episodes)
        stuck: tuple[str, ...] = ()
        if expected_closed is not None:
            exp = set(expected_closed)
            stuck = tuple(
                n
                for n, h in self._holes.items()
                if h.closed
                and n not in exp
                and h.closed_since is not None
                and now - h.closed_since >= self.stuck_ms
            )
        never = tuple(n for n, h in self._holes.items() if h.transitions == 0)
        total = sum(h.transitions for h in self._holes.values())
        return HealthSummary(not chattering and not stuck, chattering, stuck, never, total)

    def led_frame(self, now: int, expected_closed: Collection[str] | None = None) -> dict[str, str]:
        return dict.fromkeys(self.summary(now, expected_closed).bad_holes, "error")
