"""The run-mode board drivers (keezbord/host/drivers/polled.py) stepped by hand: the Pi-direct
GPIO board behind the mock pin factory, a fake 74HC165 chain and fake NeoPixels, and the
Pico serial board against the firmware's own logic (the fake Pico of test_link_session)."""

from __future__ import annotations

import importlib.util
import itertools
import queue
import time
from pathlib import Path
from typing import Any

import pytest
from test_link_session import Pico

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.config import BoardConfig, LedConfig, ScannerConfig
from keezbord.host.drivers.build import BoardError, build_board
from keezbord.host.drivers.fakes import FakePixels, FakeShiftChain, lit
from keezbord.host.drivers.leds import DEFAULT_STYLES, LedSettings, render
from keezbord.host.drivers.link_serial import SerialLink
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.polled import GpioBoard, SerialBoard
from keezbord.host.drivers.scanner_gpio import ChainPins, ChainReader, GpioScanner
from keezbord.host.drivers.strip_neopixel import NeoPixelStrip
from keezbord.host.events import CardTap, HoleEvent, SwitchRead

WIRING = default_wiring(Topology(4, 16))
SETTINGS = LedSettings(brightness=0.5, budget_ma=None)
PINS = ChainPins(17, 27, 22)


def gpio_board(closed: tuple[str, ...] = ()) -> tuple[GpioBoard, FakeShiftChain, FakePixels]:
    ticks = itertools.count()
    factory = MockPinFactory(clock=lambda: next(ticks))
    chain = FakeShiftChain(factory, WIRING.chips, PINS)
    for h in closed:
        chain.close_switch(WIRING.switch_index(h))
    pixels = FakePixels(len(WIRING.led_order), clock=lambda: next(ticks))
    scanner = GpioScanner(ChainReader(factory, len(WIRING.switch_order), PINS), WIRING, 3)
    board = GpioBoard(scanner, WIRING, SETTINGS, NeoPixelStrip(pixels), scan_hz=200)
    return board, chain, pixels


def colour(role: str, level: float = 1.0) -> tuple[int, int, int]:
    r, g, b = DEFAULT_STYLES[role].colour
    k = SETTINGS.brightness * level
    return (int(r * k), int(g * k), int(b * k))


def test_gpio_board_first_scan_is_a_board_read_then_switches_are_hole_events() -> None:
    board, chain, _ = gpio_board(("N0.1", "T7"))
    assert board.pump(0) == [SwitchRead(0, frozenset({"N0.1", "T7"}))]
    chain.close_switch(WIRING.switch_index("T3"))
    chain.close_switch(WIRING.switch_index("N0.1"), False)
    got = [ev for t in range(1, 6) for ev in board.pump(t)]
    # debounce 3: the third scan that agrees reports the change
    assert sorted(got, key=str) == [HoleEvent(3, "lift", "N0.1"), HoleEvent(3, "place", "T3")]
    assert board.health()["kind"] == "gpio" and board.health()["chain_ok"] is True


def test_gpio_board_broken_chain_is_health_not_moves() -> None:
    board, chain, _ = gpio_board(("N0.1",))
    board.pump(0)
    chain.broken_from = 5
    assert [board.pump(t) for t in range(1, 6)] == [[]] * 5
    h = board.health()
    assert h["ok"] is False and h["chain_ok"] is False and h["broken_reads"] == 5
    chain.broken_from = None
    assert board.pump(6) == [] and board.health()["ok"] is True


def test_gpio_board_leds_land_on_the_wiring_index_and_blink_by_re_rendering() -> None:
    board, _, pixels = gpio_board()
    board.show_leds({"T0": "target", "T5": "error"}, 0)
    frame = pixels.frames[-1].pixels
    t0, t5 = WIRING.led_index("T0"), WIRING.led_index("T5")
    assert lit(frame) == sorted([t0, t5])
    assert frame[t0] == colour("target") and frame[t5] == colour("error")
    assert frame == tuple(render({"T0": "target", "T5": "error"}, WIRING.led_order, 0, SETTINGS))
    # The frame is unchanged, but time runs: error blinks at 4 Hz (on for 125 ms).
    board.pump(130)
    assert pixels.frames[-1].pixels[t5] == (0, 0, 0)
    assert pixels.frames[-1].pixels[t0] == colour("target")
    board.pump(150)  # within refresh_ms of the last render: nothing new
    n = len(pixels.frames)
    board.pump(260)
    assert len(pixels.frames) == n + 1 and pixels.frames[-1].pixels[t5] == colour("error")


def test_gpio_board_current_budget_dims_the_whole_frame() -> None:
    ticks = itertools.count()
    factory = MockPinFactory(clock=lambda: next(ticks))
    FakeShiftChain(factory, WIRING.chips, PINS)
    pixels = FakePixels(len(WIRING.led_order))
    scanner = GpioScanner(ChainReader(factory, len(WIRING.switch_order), PINS), WIRING)
    settings = LedSettings(brightness=1.0, budget_ma=150)
    board = GpioBoard(scanner, WIRING, settings, NeoPixelStrip(pixels))
    board.show_leds({h: "target" for h in WIRING.led_order[:40]}, 0)
    frame = pixels.frames[-1].pixels
    full = DEFAULT_STYLES["target"].colour
    assert 0 < frame[WIRING.led_index(WIRING.led_order[0])][1] < full[1]
    board.close()
    assert pixels.deinited and lit(pixels.frames[-1].pixels) == []


def serial_board() -> tuple[SerialBoard, Pico]:
    pico = Pico(chips=WIRING.chips, leds=len(WIRING.led_order))
    pico.chain.set(WIRING.switch_index("N1.2"), True)
    pico.run(30)
    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=pico.port, emit_initial=False)
    return SerialBoard(link, WIRING, SETTINGS, timeout_s=0), pico


def pump_until(board: SerialBoard, n: int = 40) -> list[object]:
    out: list[object] = []
    for t in range(n):
        out += board.pump(t * 10)
    return out


def test_serial_board_resyncs_then_reports_switches_and_sends_rendered_frames() -> None:
    board, pico = serial_board()
    got = pump_until(board)
    assert got == [SwitchRead(got[0].t, frozenset({"N1.2"}))]  # type: ignore[attr-defined]
    # The host renders brightness itself: the Pico is told not to dim again.
    assert pico.app.brightness == 255
    pico.chain.set(WIRING.switch_index("T9"), True)
    got = pump_until(board)
    assert [(e.action, e.hole) for e in got if isinstance(e, HoleEvent)] == [("place", "T9")]
    board.show_leds({"T9": "target"}, 0)
    pump_until(board, 3)
    i = WIRING.led_index("T9")
    r, g, b = colour("target")
    strip = pico.strip.last
    assert strip[3 * i : 3 * i + 3] == bytes((g, r, b))  # GRB on the wire
    assert sum(strip) == r + g + b  # that LED only
    h = board.health()
    assert h["kind"] == "pico-serial" and h["connected"] and h["frames_bad"] == 0
    assert "last_heartbeat_age_ms" in h and "gaps" in h


def serial_board_with(**kw: Any) -> tuple[SerialBoard, Pico]:
    pico = Pico(chips=WIRING.chips, leds=len(WIRING.led_order))
    pico.run(30)
    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=pico.port, emit_initial=False)
    return SerialBoard(link, WIRING, SETTINGS, timeout_s=0, **kw), pico


def test_serial_board_leds_on_a_strip_or_nowhere_never_over_the_link() -> None:
    pixels = FakePixels(len(WIRING.led_order))
    board, pico = serial_board_with(strip=NeoPixelStrip(pixels))
    pump_until(board)
    board.show_leds({"T9": "target"}, 0)
    pump_until(board, 3)
    assert lit(pixels.frames[-1].pixels) == [WIRING.led_index("T9")]
    assert not any(pico.strip.last)  # the Pico's own LEDs stay dark
    dark, pico2 = serial_board_with(link_leds=False)
    pump_until(dark)
    dark.show_leds({"T9": "target"}, 0)
    pump_until(dark, 3)
    assert not dark.leds_over_link and dark.led_writes == 0 and not any(pico2.strip.last)


def test_serial_board_tells_when_the_link_comes_once() -> None:
    told: list[tuple[bool, str | None]] = []
    board, _ = serial_board_with(on_link=lambda up, h: told.append((up, h.port)))
    pump_until(board)
    assert told == [(True, "/dev/fake")]


def test_build_board_follows_the_config() -> None:
    pico_cfg = BoardConfig(leds=LedConfig(driver="none"))
    board = build_board(pico_cfg, say=lambda text: None)
    try:
        assert isinstance(board, SerialBoard) and not board.leds_over_link
        assert board.leds is None and board.reader is None
    finally:
        board.close()
    assert isinstance(build_board(BoardConfig(), say=lambda text: None), SerialBoard)
    gpio_cfg = BoardConfig(scanner=ScannerConfig(kind="gpio"), leds=LedConfig(driver="none"))
    if importlib.util.find_spec("RPi") is None:  # not a Pi: one clear error, no traceback
        with pytest.raises(BoardError, match="needs the Pi's GPIO"):
            build_board(gpio_cfg)


@pytest.mark.pi
def test_gpio_factory_on_a_real_pi() -> None:  # pragma: no cover - needs the hardware
    import contextlib

    from keezbord.host.drivers.pins import RPiGPIOFactory
    from keezbord.host.drivers.scanner_gpio import BrokenChainError

    f = RPiGPIOFactory()
    try:
        reader = ChainReader(f, 8, PINS)
        with contextlib.suppress(BrokenChainError):  # no chain: the check bits say so
            assert len(reader.read()) == 8
    finally:
        f.close()


def test_serial_board_never_takes_an_untrusted_snapshot_as_the_board() -> None:
    """A host attached at power-up asks for a snapshot before the Pico trusts its chain
    (four good reads): that answer says 'chain not ok' and must not become the board (an
    empty board for a moment reads as every pawn lifted). The board is the first trusted
    snapshot, which the firmware sends by itself."""
    # Scans 20 ms apart: the chain is trusted only after 80 ms, long after the host asks.
    pico = Pico(chips=WIRING.chips, leds=len(WIRING.led_order), scan_hz=50)
    pico.chain.set(WIRING.switch_index("N1.2"), True)
    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=pico.port, emit_initial=False)
    board = SerialBoard(link, WIRING, SETTINGS, timeout_s=0)
    got: list[object] = []
    for t in range(40):
        pico.run(1)
        got += board.pump(t)
    reads = [e for e in got if isinstance(e, SwitchRead)]
    assert reads and reads[0].holes == frozenset({"N1.2"})
    assert not [e for e in got if isinstance(e, HoleEvent)]
    board.close()


class FlakyReader:
    """A card reader whose driver raises once (an error it does not handle itself), then
    reads a tag; it records its polls."""

    def __init__(self) -> None:
        self.polls = 0

    def poll(self, now: int) -> list[CardTap]:
        self.polls += 1
        if self.polls == 1:
            raise RuntimeError("read failed: device disconnected")
        return [CardTap(now, tag="04A1B2C3")] if self.polls == 2 else []

    def close(self) -> None:
        pass


def test_a_reader_poll_that_raises_does_not_end_the_card_thread(
    capsys: pytest.CaptureFixture[str],
) -> None:
    board, _, _ = gpio_board()
    reader = FlakyReader()
    board.reader = reader
    got = queue.Queue[object]()
    board.start(got.put, lambda: 0)
    try:
        deadline = time.monotonic() + 20
        tap = None
        while tap is None and time.monotonic() < deadline:
            ev = got.get(timeout=20)
            tap = ev if isinstance(ev, CardTap) else None
        assert tap == CardTap(0, tag="04A1B2C3")
    finally:
        board.close()
    assert "card reader poll failed" in capsys.readouterr().out


def test_an_rdm6300_unplugged_mid_game_is_read_again_when_it_is_back(tmp_path: Path) -> None:
    # The card thread of a running board with a real RDM6300 driver on a pty: pulled out,
    # the health says so and the thread goes on; plugged back in under the same path,
    # the next card is a tap again, without a restart.
    from keezbord.host.drivers.rfid_fakes import FakeRDM6300
    from keezbord.host.drivers.rfid_rdm6300 import RDM6300Reader

    link = tmp_path / "reader"
    first, second = FakeRDM6300(), FakeRDM6300()
    link.symlink_to(first.path)
    board, _, _ = gpio_board()
    board.reader = RDM6300Reader.open(str(link))
    board.reader.retry_ms = 100
    got = queue.Queue[object]()
    clock = itertools.count(0, 10)  # ms: the card thread polls every 20 ms
    board.start(got.put, lambda: next(clock))

    def next_tap() -> CardTap:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ev = got.get(timeout=20)
            if isinstance(ev, CardTap):
                return ev
        raise AssertionError("no tap")

    def until(what: Any) -> None:
        deadline = time.monotonic() + 20
        while not what():
            assert time.monotonic() < deadline
            time.sleep(0.01)

    try:
        first.present("0F00A1B2C3")
        assert next_tap().tag == "0F00A1B2C3"
        link.unlink()
        first.close()  # unplugged
        until(lambda: board.health()["reader"]["ok"] is False)
        assert "plugged in" in board.health()["reader"]["error"]
        link.symlink_to(second.path)  # plugged back in
        until(lambda: board.health()["reader"]["ok"] is True)
        second.present("0102030405")
        assert next_tap().tag == "0102030405"
    finally:
        board.close()
        second.close()
