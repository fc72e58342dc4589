"""Switch-level values shared by the scanners (GPIO here, the Pico link elsewhere), the
selftest and the health monitor, and the mapping from switch changes to hole events.

A switch index is the bit's position in the 74HC165 chain's shift-out order: index 0 is
the first bit read after the load. The board's ``Wiring`` (keezbord/hardware/wiring.py)
says which hole sits on each index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from keezbord.host.events import HoleEvent


class WiringLike(Protocol):
    """What the drivers need of keezbord.hardware.wiring.Wiring."""

    @property
    def switch_order(self) -> Sequence[str | None]: ...

    @property
    def led_order(self) -> Sequence[str | None]: ...

    def switch_index(self, hole: str) -> int: ...

    def hole_at_switch(self, i: int) -> str | None: ...

    def led_index(self, hole: str) -> int: ...

    def hole_at_led(self, i: int) -> str | None: ...


@dataclass(frozen=True, slots=True)
class SwitchChange:
    """Switch ``index`` became ``closed`` (a magnet above it) or open, at ``t`` ms."""

    t: int
    index: int
    closed: bool


def hole_events(
    changes: Iterable[SwitchChange], wiring: WiringLike, t: int | None = None
) -> list[HoleEvent]:
    """Closed is ``place``, open is ``lift``; bits with no hole (spare inputs) are dropped.
    ``t`` stamps every event with that time instead of the change's own (a host that
    runs the referee on its own clock)."""
    out: list[HoleEvent] = []
    for c in changes:
        hole = wiring.hole_at_switch(c.index)
        if hole is not None:
            out.append(HoleEvent(c.t if t is None else t, "place" if c.closed else "lift", hole))
    return out
