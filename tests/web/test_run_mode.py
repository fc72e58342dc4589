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
from web_helpers import options, ws_path

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.config import BoardConfig, LedConfig, ScannerConfig
from keezbord.host.drivers.build import gpio_board
from keezbord.host.drivers.fakes import FakePixels, FakeShiftChain
from keezbord.host.drivers.leds import DEFAULT_STYLES
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.polled import GpioBoard
from keezbord.host.drivers.scanner_gpio import ChainPins
from keezbord.host.drivers.strip_neopixel import NeoPixelStrip
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WIRING = default_wiring(Topology(4, 16))
CFG = BoardConfig(
    scanner=ScannerConfig(
        kind="gpio", load_pin=5, clock_pin=6, data_pin=13, debounce=2, scan_hz=200, method="bitbang"
    ),
    leds=LedConfig(brightness=0.5, budget_ma=None),
)


class FakeGpio:
    """The board as the Pi sees it: a chain behind mock pins, pixels on a strip."""

    def __init__(self, pawns: list[str]) -> None:
        ticks = itertools.count()
        self.factory = MockPinFactory(clock=lambda: next(ticks))
        self.chain = FakeShiftChain(
            self.factory, WIRING.chips, ChainPins(5, 6, 13), signature=CFG.scanner.signature
        )
        for h in pawns:
            self.set(h, True)
        self.pixels = FakePixels(len(WIRING.led_order))
        self.board: GpioBoard = gpio_board(CFG, WIRING, self.factory, NeoPixelStrip(self.pixels))

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


def run_app(db: Path, board: Any) -> Any:
    opts = options(db, mode="run")
    setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
    return create_app(lambda: Hub.open_run(opts, setup, board))


def nests() -> list[str]:
    return [f"N{s}.{k}" for s in range(4) for k in range(1, 5)]


def test_gpio_board_switches_reach_the_referee_and_its_leds_reach_the_strip(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    tr, tg, tb = DEFAULT_STYLES["target"].colour
    with (
        TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
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
    with (
        TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        hello(ws)
        s = until(ws, lambda s: s["flag"] is not None)
        assert s["leds"]["T5"] == "error" and s["leds"]["N0.1"] == "restore"
        lines = c.get("/api/export/trace").text.splitlines()
        assert '"type": "board"' in lines[1]


def run_app_opts(db: Path, board: Any) -> Any:
    opts = options(db, mode="run", health_ms=50)
    setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
    return create_app(lambda: Hub.open_run(opts, setup, board))


def test_health_chatter_and_broken_chain_reach_the_page(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    with (
        TestClient(run_app_opts(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        _, s = hello(ws)
        assert s["health"]["sensors"]["ok"] is True and s["health"]["sensors"]["bad"] == []
        assert s["health"]["link"]["kind"] == "gpio" and s["health"]["link"]["ok"] is True
        for k in range(10):  # a loose magnet: T9 flickers
            gpio.set("T9", k % 2 == 0)
            time.sleep(0.04)
        s = until(ws, lambda s: "T9" in s["health"]["sensors"]["bad"], limit=2000)
        assert s["health"]["sensors"]["chattering"] == ["T9"]
        assert "T9" in s["health"]["sensors"]["text"]["nl"]
        assert s["health"]["sensors"]["text"]["en"].startswith("switch chatters")
        gpio.chain.broken_from = 3  # the ribbon cable comes loose
        s = until(ws, lambda s: s["health"]["link"]["ok"] is False, limit=2000)
        assert s["health"]["link"]["chain_ok"] is False
        assert s["health"]["link"]["broken_reads"] > 0
        assert c.get("/api/state").json()["health"]["link"]["chain_ok"] is False


def test_stuck_switch_is_reported_after_a_while(tmp_path: Path) -> None:
    from keezbord.host.health import HealthMonitor

    gpio = FakeGpio([*nests(), "T20"])  # closed from the start where no pawn should be
    app = run_app_opts(tmp_path / "r.sqlite", gpio.board)
    with TestClient(app) as c, c.websocket_connect(ws_path()) as ws:
        hello(ws)
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        until(ws, lambda s: s["flag"] is not None)  # the referee flags the extra pawn too
        topo = hub.session.state.pos.topology
        hub.sensors.monitor = HealthMonitor(
            topo.hole_names, hub.session.state.sensed, start=hub.now(), stuck_ms=100
        )
        s = until(ws, lambda s: s["health"]["sensors"]["stuck_closed"] == ["T20"], limit=2000)
        assert s["health"]["sensors"]["bad"] == ["T20"]


class LinkBoard:
    """A FakeBoard-like driver whose link reports trouble (as SerialLink.health does)."""

    def __init__(self) -> None:
        from keezbord.host.drivers.boards import FakeBoard

        self.inner = FakeBoard()
        self.health_calls = 0

    def start(self, post: Any, now: Any) -> None:
        self.inner.start(post, now)

    def show_leds(self, holes: Any, t: int) -> None:
        self.inner.show_leds(holes, t)

    def close(self) -> None:
        self.inner.close()

    def health(self) -> dict[str, Any]:
        self.health_calls += 1
        return {
            "kind": "pico-serial",
            "ok": False,
            "connected": False,
            "port": "/dev/ttyACM0",
            "frames_bad": 3,
            "gaps": 2,
            "last_heartbeat_age_ms": 4200,
            "chain_ok": True,
            "error": "read failed",
        }


def test_serial_link_health_is_in_the_state(tmp_path: Path) -> None:
    board = LinkBoard()
    with (
        TestClient(run_app_opts(tmp_path / "r.sqlite", board)) as c,
        c.websocket_connect(ws_path()) as ws,
    ):
        _, s = hello(ws)
        link = s["health"]["link"]
        assert link["ok"] is False and link["frames_bad"] == 3 and link["gaps"] == 2
        assert link["last_heartbeat_age_ms"] == 4200 and link["error"] == "read failed"
    assert board.health_calls > 0


def test_the_health_endpoint_answers_the_pi_itself_or_the_referee_only(tmp_path: Path) -> None:
    # keezbord doctor asks the running service (127.0.0.1) for its version and the
    # board's link; a spectator's browser on the network is refused.
    from keezbord import __version__
    from keezbord.host.roles import Tokens
    from keezbord.host.web.hub import HubOptions

    tokens = Tokens(referee="ref-token", player="play-token")

    def client(host: str) -> Any:
        fake = FakeGpio(nests())
        opts = HubOptions(db=tmp_path / f"{host}.sqlite", mode="run", tokens=tokens)
        setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
        return TestClient(
            create_app(lambda: Hub.open_run(opts, setup, fake.board)), client=(host, 50000)
        )

    with client("192.168.1.23") as lan:
        assert lan.get("/api/health").status_code == 403
        assert lan.get("/api/health?token=play-token").status_code == 403
        h = lan.get("/api/health?token=ref-token").json()
        assert h["version"] == __version__ and h["mode"] == "run"
        assert h["health"]["link"]["kind"] == "gpio"
        assert h["health"]["link"]["leds"]["ok"] is True
    for host in ("127.0.0.1", "::1"):
        with client(host) as local:
            assert local.get("/api/health").json()["version"] == __version__


def test_a_pawn_brought_out_from_the_first_nest_hole_leaves_no_stuck_switch(
    tmp_path: Path,
) -> None:
    # Found by the rehearsal's game (tests/rehearsal): board_of puts nest pawns in the
    # lowest nest holes, so after N0.1 -> T0 the closed N0.4 read as "no pawn".
    from keezbord.host.health import HealthMonitor

    gpio = FakeGpio(nests())
    app = run_app_opts(tmp_path / "r.sqlite", gpio.board)
    with TestClient(app) as c, c.websocket_connect(ws_path()) as ws:
        hello(ws)
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        topo = hub.session.state.pos.topology
        hub.sensors.monitor = HealthMonitor(  # the hub's HealthWatch (issue 25)
            topo.hole_names, hub.session.state.sensed, start=hub.now(), stuck_ms=100
        )
        gpio.set("N0.1", False)
        gpio.set("T0", True)
        until(ws, lambda s: bool(s["history"]))
        time.sleep(0.4)  # past stuck_ms: N0.2-N0.4 closed, three nest pawns
        health = hub.health()
        assert health is not None and health["sensors"]["stuck_closed"] == []
        assert sorted(h for h in hub.session.state.sensed if h.startswith("N0.")) == [
            "N0.2",
            "N0.3",
            "N0.4",
        ]
