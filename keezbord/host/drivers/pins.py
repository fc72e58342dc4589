"""A gpiozero-style pin abstraction: drivers ask a pin factory for pins.

On a Pi the factory is ``RPiGPIOFactory`` (the RPi.GPIO API; on a Pi 5 the rpi-lgpio
drop-in provides it). In tests it is ``MockPinFactory``, which records every write and
read with a timestamp, and lets fakes (a shift-register chain, say) react to edges and
drive input levels.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol


class OutputPin(Protocol):
    def write(self, level: int) -> None: ...


class InputPin(Protocol):
    def read(self) -> int: ...


class PinFactory(Protocol):
    def output(self, pin: int, initial: int = 0) -> OutputPin: ...

    def input(self, pin: int, pull_up: bool = True) -> InputPin: ...

    def close(self) -> None: ...


# --- RPi.GPIO (and rpi-lgpio on a Pi 5) ---------------------------------------------------


class _GpioOut:
    def __init__(self, gpio: Any, pin: int) -> None:
        self._gpio, self._pin = gpio, pin

    def write(self, level: int) -> None:
        self._gpio.output(self._pin, level)


class _GpioIn:
    def __init__(self, gpio: Any, pin: int) -> None:
        self._gpio, self._pin = gpio, pin

    def read(self) -> int:
        return 1 if self._gpio.input(self._pin) else 0


class RPiGPIOFactory:
    """Pins through the RPi.GPIO API, BCM numbering. Imports RPi.GPIO on construction."""

    def __init__(self) -> None:
        import RPi.GPIO as gpio  # the pi extra: rpi-lgpio provides this module

        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        self._gpio = gpio
        self._pins: list[int] = []

    def output(self, pin: int, initial: int = 0) -> OutputPin:
        g = self._gpio
        g.setup(pin, g.OUT, initial=g.HIGH if initial else g.LOW)
        self._pins.append(pin)
        return _GpioOut(g, pin)

    def input(self, pin: int, pull_up: bool = True) -> InputPin:
        g = self._gpio
        g.setup(pin, g.IN, pull_up_down=g.PUD_UP if pull_up else g.PUD_DOWN)
        self._pins.append(pin)
        return _GpioIn(g, pin)

    def close(self) -> None:
        if self._pins:
            self._gpio.cleanup(self._pins)
            self._pins = []


# --- mock ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PinRecord:
    """One thing asked of a mock pin: ``t`` in nanoseconds from the factory's clock."""

    t: int
    pin: int
    op: Literal["write", "read"]
    level: int


class _MockOut:
    def __init__(self, factory: MockPinFactory, pin: int) -> None:
        self._f, self._pin = factory, pin

    def write(self, level: int) -> None:
        self._f._write(self._pin, 1 if level else 0)


class _MockIn:
    def __init__(self, factory: MockPinFactory, pin: int) -> None:
        self._f, self._pin = factory, pin

    def read(self) -> int:
        return self._f._read(self._pin)


class MockPinFactory:
    """Pins in memory. ``history`` holds every write and read, in order, timestamped.

    An input pin reads the level a ``source`` callable returns (a fake chip computing its
    output); when the source returns None (nothing drives the line: an open cable, an
    unpowered chip) or there is none, the pad's own level: its ``drive``-n level, else
    the pull the driver configured, as a real pad reads. ``on_write`` callbacks see each
    level written to an output pin, so a fake can react to clock edges.
    """

    def __init__(self, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self._clock = clock
        self.history: list[PinRecord] = []
        self.levels: dict[int, int] = {}
        self.modes: dict[int, Literal["out", "in"]] = {}
        self.pulls: dict[int, int] = {}  # input pin -> level of the pull the driver chose
        self._sources: dict[int, Callable[[], int | None]] = {}
        self._listeners: dict[int, list[Callable[[int], None]]] = {}
        self.closed = False

    # driver side
    def output(self, pin: int, initial: int = 0) -> OutputPin:
        self._claim(pin, "out")
        self.levels[pin] = 1 if initial else 0
        return _MockOut(self, pin)

    def input(self, pin: int, pull_up: bool = True) -> InputPin:
        self._claim(pin, "in")
        self.pulls[pin] = 1 if pull_up else 0
        self.levels.setdefault(pin, self.pulls[pin])
        return _MockIn(self, pin)

    def close(self) -> None:
        self.closed = True

    # test side
    def drive(self, pin: int, level: int) -> None:
        self.levels[pin] = 1 if level else 0

    def source(self, pin: int, fn: Callable[[], int | None]) -> None:
        self._sources[pin] = fn

    def on_write(self, pin: int, fn: Callable[[int], None]) -> None:
        self._listeners.setdefault(pin, []).append(fn)

    def writes(self, pin: int | None = None) -> list[PinRecord]:
        return [r for r in self.history if r.op == "write" and (pin is None or r.pin == pin)]

    def reads(self, pin: int | None = None) -> list[PinRecord]:
        return [r for r in self.history if r.op == "read" and (pin is None or r.pin == pin)]

    # internals
    def _claim(self, pin: int, mode: Literal["out", "in"]) -> None:
        if self.closed:
            raise RuntimeError("pin factory is closed")
        if pin in self.modes:
            raise ValueError(f"GPIO{pin} is already in use")
        self.modes[pin] = mode

    def _write(self, pin: int, level: int) -> None:
        self.levels[pin] = level
        self.history.append(PinRecord(self._clock(), pin, "write", level))
        for fn in self._listeners.get(pin, ()):
            fn(level)

    def _read(self, pin: int) -> int:
        src = self._sources.get(pin)
        driven = src() if src is not None else None
        level = self.levels.get(pin, 0) if driven is None else (1 if driven else 0)
        self.history.append(PinRecord(self._clock(), pin, "read", level))
        return level
