"""Pi-direct scanning of the 74HC165 chain through GPIO (RPi.GPIO API).

Wiring (BCM numbers are defaults, see docs/drivers.md): PL (parallel load, active low) on
GPIO17, CP (clock) on GPIO27, Q7 of the chip nearest the Pi on GPIO22; CE tied low. DS of
the chip at the far end is tied to a known level (GND by default) so that, after the
board's bits, a few extra clocks must read that level: anything else means the chain is
broken (a chip missing, a cut data line, an unpowered board floating to the pull-up).

Reed switches pull their input low when a magnet is above them (pull-up resistors on the
board), so a 0 reads as ``closed`` unless ``active_low`` is False.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from keezbord.engine.text import Text
from keezbord.host.drivers.pins import PinFactory
from keezbord.host.drivers.switches import SwitchChange, WiringLike, hole_events
from keezbord.host.events import HoleEvent


@dataclass(frozen=True, slots=True)
class ChainPins:
    load: int = 17
    clock: int = 27
    data: int = 22


DEFAULT_PINS = ChainPins()


class BrokenChainError(RuntimeError):
    """The check bits clocked in from the far end of the chain did not arrive."""

    def __init__(self, got: Sequence[int], expected: int) -> None:
        self.got = tuple(got)
        self.expected = expected
        self.text = Text(
            nl="de schuifregisterketen is onderbroken: controleer de kabels en de voeding",
            en="the shift-register chain is broken: check the cables and the power",
        )
        super().__init__(
            f"{self.text.en} (check bits {''.join(map(str, self.got))}, "
            f"expected all {expected})"
        )


class ChainReader:
    """Reads ``bits`` raw levels from the chain, plus ``tail_bits`` check bits."""

    def __init__(
        self,
        factory: PinFactory,
        bits: int,
        pins: ChainPins = DEFAULT_PINS,
        tail_bits: int = 8,
        tail_level: int = 0,
    ) -> None:
        if bits <= 0:
            raise ValueError("the chain needs at least one bit")
        self.bits, self.tail_bits, self.tail_level = bits, tail_bits, tail_level
        self._pl = factory.output(pins.load, initial=1)
        self._cp = factory.output(pins.clock, initial=0)
        self._q7 = factory.input(pins.data, pull_up=True)

    def read(self) -> tuple[int, ...]:
        """One load and shift-out; raises BrokenChainError if the check bits are wrong."""
        pl, cp, q7 = self._pl, self._cp, self._q7
        # PL low copies the parallel inputs into the registers; Q7 then shows bit 0.
        pl.write(0)
        pl.write(1)
        levels = []
        for _ in range(self.bits + self.tail_bits):
            levels.append(q7.read())
            cp.write(1)  # shifts on the rising edge
            cp.write(0)
        tail = levels[self.bits:]
        if any(b != self.tail_level for b in tail):
            raise BrokenChainError(tail, self.tail_level)
        return tuple(levels[: self.bits])


class Debouncer:
    """A bit changes only after ``samples`` consecutive reads agree on its new level.

    The first read sets the baseline and reports nothing.
    """

    def __init__(self, bits: int, samples: int = 3) -> None:
        if samples < 1:
            raise ValueError("debounce needs at least one sample")
        self.samples = samples
        self._stable: list[int] | None = None
        self._count = [0] * bits

    @property
    def stable(self) -> tuple[int, ...] | None:
        return None if self._stable is None else tuple(self._stable)

    def feed(self, levels: Sequence[int]) -> list[tuple[int, int]]:
        """(index, new level) for every bit whose level just became stable."""
        if self._stable is None:
            self._stable = list(levels)
            return []
        changed: list[tuple[int, int]] = []
        stable, count = self._stable, self._count
        for i, level in enumerate(levels):
            if level == stable[i]:
                count[i] = 0
                continue
            count[i] += 1
            if count[i] >= self.samples:
                stable[i] = level
                count[i] = 0
                changed.append((i, level))
        return changed


class GpioScanner:
    """Scans the chain, debounces it and reports switch changes (and hole events)."""

    def __init__(
        self,
        reader: ChainReader,
        wiring: WiringLike | None = None,
        samples: int = 3,
        active_low: bool = True,
    ) -> None:
        self.reader, self.wiring = reader, wiring
        self.active_low = active_low
        self._debounce = Debouncer(reader.bits, samples)
        self.broken_reads = 0

    def _closed(self, level: int) -> bool:
        return level == 0 if self.active_low else level == 1

    def scan(self, now: int) -> list[SwitchChange]:
        """One scan at ``now`` ms. A broken read raises and leaves the state untouched."""
        try:
            levels = self.reader.read()
        except BrokenChainError:
            self.broken_reads += 1
            raise
        return [SwitchChange(now, i, self._closed(lv)) for i, lv in self._debounce.feed(levels)]

    def closed_switches(self) -> frozenset[int]:
        """Switches closed in the debounced state (empty before the first scan)."""
        stable = self._debounce.stable or ()
        return frozenset(i for i, lv in enumerate(stable) if self._closed(lv))

    def closed_holes(self) -> frozenset[str]:
        if self.wiring is None:
            raise ValueError("closed_holes needs a wiring")
        w = self.wiring
        return frozenset(h for i in self.closed_switches() if (h := w.hole_at_switch(i)))

    def hole_events(self, now: int) -> list[HoleEvent]:
        if self.wiring is None:
            raise ValueError("hole_events needs a wiring")
        return hole_events(self.scan(now), self.wiring)
