"""``keezbord run`` with the Pi-direct board: a run-mode hub driven by a fake GPIO board
(mock pins, a fake 74HC165 chain, fake NeoPixels) through the websocket protocol."""

from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import hello, until

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.commands.web import gpio_board
from keezbord.host.config import BoardConfig, LedConfig, ScannerConfig
from keezbord.host.drivers.fakes import FakePixels, FakeShiftChain
from keezbord.host.drivers.leds import DEFAULT_STYLES
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.scanner_gpio import ChainPins
from keezbord.host.drivers.strip_neopixel import NeoPixelStrip
from keezbord.host.web.app import create_app
from keezbord.host.web.drivers import GpioBoard
from keezbord.host.web.hub import Hub, HubOptions

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WIRING = default_wiring(Topology(4, 16))
CFG = BoardConfig(scanner=ScannerConfig(kind="gpio", load_pin=5, clock_pin=6, data_pin=13,
                                        debounce=2, scan_hz=200),
                  leds=LedConfig(brightness=0.5, budget_ma=None))


class FakeGpio:
    """The board as the Pi sees it: a chain behind mock pins, pixels on a strip."""

    def __init__(self, pawns: list[str]) -> None:
        ticks = itertools.count()
        self.factory = MockPinFactory(clock=lambda: next(ticks))
        self.chain = FakeShiftChain(self.factory, WIRING.chips, ChainPins(5, 6, 13))
        for h in pawns:
            self.set(h, True)
        self.pixels = FakePixels(len(WIRING.led_order))
        self.board: GpioBoard = gpio_board(CFG, WIRING, self.factory,
                                           NeoPixelStrip(self.pixels))

    def set(self, hole: str, closed: bool) -> None:
        self.chain.close_switch(WIRING.switch_index(hole), closed)
        self.factory.history.clear()  # the scans' pin history is not what we test here

    def pixel(self, hole: str) -> tuple[int, int, int]:
        return self.pixels[WIRING.led_index(hole)]


def wait_for(pred: Callable[[], bool], limit: float = 5.0) -> None:
    end = time.monotonic() + limit
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def run_app(db: Path, board: Any, token: str = "secret") -> Any:
    opts = HubOptions(mode="run", db=db, token=token)
    setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
    return create_app(lambda: Hub.open_run(opts, setup, board))


def nests() -> list[str]:
    return [f"N{s}.{k}" for s in range(4) for k in range(1, 5)]


def test_gpio_board_switches_reach_the_referee_and_its_leds_reach_the_strip(
        tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    tr, tg, tb = DEFAULT_STYLES["target"].colour
    with TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c, \
            c.websocket_connect("/ws") as ws:
        _, s = hello(ws)
        assert s["turn"] == 0 and len(s["pawns"]) == 16
        gpio.set("N0.1", False)  # the pawn leaves its nest: its target lights
        s = until(ws, lambda s: s["leds"].get("T0") == "target")
        wait_for(lambda: gpio.pixel("T0") == (tr // 2, tg // 2, tb // 2))
        assert gpio.pixel("N0.1") == (0, 0, 0)
        gpio.set("T0", True)  # the reed switch closes under the start hole
        s = until(ws, lambda s: bool(s["history"]))
        assert s["history"][0]["move"] == "A 0:N-S" and s["turn"] == 1
        assert {"hole": "T0", "seat": 0} in s["pawns"]
        lines = c.get("/api/export/trace").text.splitlines()
        assert any('"type": "place", "hole": "T0"' in x for x in lines)
        # seat 1's start hole lights "turn" (orange, dim) on the strip
        wait_for(lambda: gpio.pixel("T16") != (0, 0, 0) and gpio.pixel("T0") == (0, 0, 0))
    wait_for(lambda: gpio.pixels.deinited)


def test_a_board_that_differs_at_start_is_resynced_and_flagged(tmp_path: Path) -> None:
    gpio = FakeGpio([*nests()[1:], "T5"])  # a pawn of seat 0 stands on T5
    with TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c, \
            c.websocket_connect("/ws") as ws:
        hello(ws)
        s = until(ws, lambda s: s["flag"] is not None)
        assert s["leds"]["T5"] == "error" and s["leds"]["N0.1"] == "restore"
        lines = c.get("/api/export/trace").text.splitlines()
        assert '"type": "board"' in lines[1]
