"""A tiny stand-in for keezbord.hardware.wiring.Wiring, for driver tests only: holes in
topology order on the switches (spare bits at the end of the last chip) and on the LEDs
(in reverse, so switch and LED numbering differ as they will on a real board)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class StubWiring:
    switch_order: Sequence[str | None]
    led_order: Sequence[str | None]

    @property
    def chips(self) -> int:
        return len(self.switch_order) // 8

    def switch_index(self, hole: str) -> int:
        return list(self.switch_order).index(hole)

    def hole_at_switch(self, i: int) -> str | None:
        return self.switch_order[i]

    def led_index(self, hole: str) -> int:
        return list(self.led_order).index(hole)

    def hole_at_led(self, i: int) -> str | None:
        return self.led_order[i]


def stub_wiring(holes: Sequence[str]) -> StubWiring:
    chips = -(-len(holes) // 8)
    switches = [*holes, *([None] * (chips * 8 - len(holes)))]
    return StubWiring(tuple(switches), tuple(reversed(holes)))


@pytest.fixture
def wiring_for() -> Callable[[Sequence[str]], StubWiring]:
    return stub_wiring
