"""A failing LED strip never costs a switch reading (issue 24 item 2): GuardedStrip drops a
strip whose init or show() raised, never shows it again, and makes it anew from scratch
at most every few seconds; the boards take every reading before they render. The strip
fails as Blinka's PWM backend does (fakes.FakeWs281x): a failed first init leaves a
half-built global, and a show() through it is a segfault."""

from __future__ import annotations

import itertools

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.drivers.fakes import FakePixels, FakeShiftChain, FakeWs281x, Segfault, lit
from keezbord.host.drivers.leds import LedSettings
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.polled import GpioBoard
from keezbord.host.drivers.scanner_gpio import ChainPins, ChainReader, GpioScanner
from keezbord.host.drivers.strip_guard import GuardedStrip
from keezbord.host.drivers.strip_neopixel import NeoPixelStrip
from keezbord.host.events import HoleEvent

WIRING = default_wiring(Topology(4, 16))
PINS = ChainPins(17, 27, 22)
N = len(WIRING.led_order)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_the_fake_backend_segfaults_on_a_second_show_after_a_failed_init() -> None:
    # The fake is as unkind as Blinka: showing the same strip again after a failed init.
    ws = FakeWs281x(init_errors=1)
    px = FakePixels(4, backend=ws)
    with pytest.raises(RuntimeError, match="sudo"):
        px.show()
    with pytest.raises(Segfault):
        px.show()


def test_a_strip_that_raises_is_dropped_and_made_anew_every_few_seconds() -> None:
    ws = FakeWs281x(init_errors=2)
    made: list[FakePixels] = []

    def make() -> NeoPixelStrip:
        made.append(FakePixels(4, backend=ws))
        return NeoPixelStrip(made[-1])

    clock = Clock()
    guard = GuardedStrip(make, forget=ws.forget, retry_s=5.0, clock=clock)
    frame = [(9, 0, 0)] * 4
    assert guard.show(frame) is False and not guard.ok  # first init: -5
    assert "sudo" in (guard.error or "") and guard.health()["failures"] == 1
    for t in (0.1, 1.0, 4.9):  # no new strip before retry_s, the failed one never shown
        clock.t = t
        assert guard.show(frame) is False
    assert len(made) == 1
    clock.t = 5.0
    assert guard.show(frame) is False and len(made) == 2  # made anew: fails again
    clock.t = 10.0
    assert guard.show(frame) is True and guard.ok and len(made) == 3
    assert made[-1].frames[-1].pixels == tuple(frame)
    assert [len(p.frames) for p in made] == [0, 0, 1]  # nothing shown on a failed strip
    assert guard.health() == {"ok": True, "error": None, "failures": 2, "builds": 3}


def test_a_show_that_raises_later_drops_the_strip_too() -> None:
    class Flaky(NeoPixelStrip):
        fail = True

        def show(self, frame: object) -> bool:
            if Flaky.fail:
                raise OSError(5, "Input/output error")
            return super().show(frame)  # type: ignore[arg-type]

    made: list[Flaky] = []

    def make() -> Flaky:
        made.append(Flaky(FakePixels(2)))
        return made[-1]

    clock = Clock()
    guard = GuardedStrip(make, retry_s=3.0, clock=clock)
    assert guard.show([(1, 1, 1)] * 2) is False and "Input/output error" in (guard.error or "")
    Flaky.fail = False
    clock.t = 3.0
    assert guard.show([(1, 1, 1)] * 2) is True and len(made) == 2


def test_every_reading_is_delivered_while_the_strip_fails_then_recovers() -> None:
    ticks = itertools.count()
    factory = MockPinFactory(clock=lambda: next(ticks))
    chain = FakeShiftChain(factory, WIRING.chips, PINS)
    scanner = GpioScanner(ChainReader(factory, len(WIRING.switch_order), PINS), WIRING, 3)
    ws = FakeWs281x(init_errors=3)
    made: list[FakePixels] = []

    def make() -> NeoPixelStrip:
        made.append(FakePixels(N, backend=ws))
        return NeoPixelStrip(made[-1])

    clock = Clock()
    guard = GuardedStrip(make, forget=ws.forget, retry_s=1.0, clock=clock)
    board = GpioBoard(scanner, WIRING, LedSettings(budget_ma=None), guard, scan_hz=200)
    board.pump(0)  # the baseline read
    board.show_leds({"T1": "target"}, 0)
    holes = [h for h in WIRING.switch_order if h is not None and h.startswith("T")][:12]
    got: list[HoleEvent] = []
    failing_seen = False
    for k, hole in enumerate(holes):
        chain.close_switch(WIRING.switch_index(hole))
        for step in range(5):
            ms = 10 + k * 500 + step * 50
            clock.t = ms / 1000
            got += [e for e in board.pump(ms) if isinstance(e, HoleEvent)]
            leds = board.health()["leds"]
            failing_seen = failing_seen or leds["ok"] is False
    assert [e.hole for e in got] == holes  # every reading delivered, in order
    assert all(e.action == "place" for e in got)
    assert failing_seen  # health said the strip was failing meanwhile
    h = board.health()["leds"]
    assert h["ok"] is True and h["failures"] == 3 and h["builds"] == 4
    assert ws.writes >= 1 and lit(made[-1].frames[-1].pixels) == [WIRING.led_index("T1")]
    assert [len(p.frames) for p in made[:3]] == [0, 0, 0]


def test_a_sink_that_raises_without_a_guard_costs_no_reading() -> None:
    # The readings are taken before rendering and returned whatever rendering does.
    class Broken:
        def show(self, frame: object) -> None:
            raise RuntimeError("ws2811_render failed with code -1")

        def close(self) -> None:
            pass

    ticks = itertools.count()
    factory = MockPinFactory(clock=lambda: next(ticks))
    chain = FakeShiftChain(factory, WIRING.chips, PINS)
    scanner = GpioScanner(ChainReader(factory, len(WIRING.switch_order), PINS), WIRING, 3)
    board = GpioBoard(scanner, WIRING, LedSettings(budget_ma=None), Broken(), scan_hz=200)
    board.pump(0)
    board.show_leds({"T1": "target"}, 0)
    chain.close_switch(WIRING.switch_index("T4"))
    got = [e for ms in range(100, 400, 60) for e in board.pump(ms)]
    assert got == [HoleEvent(got[0].t, "place", "T4")]
    assert board.health()["leds"] == {
        "ok": False,
        "error": "RuntimeError: ws2811_render failed with code -1",
    }
