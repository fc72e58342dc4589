"""The selftest on the emulated Pico (one boot of a 2-seat board: 4 chips, 32 LEDs). The
preflight: a good chain lets the walk begin; an open data line and a wrong signature chip
stop it with the firmware's own cause, heard by a selftest started after the fault (the
firmware repeats it at each HELLO). The walk, through the real host path (SerialLink, the
LED frames decoded from the Pico's pin): a builder who puts the pawn on the hole that is
really lit finds a swapped switch, a swapped LED and a dead switch named; the live view
shows a flaky joint's bit flipping."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BOARD, chain_for, needs_node
from emu import EmulatedPico

from keezbord.engine.text import Text
from keezbord.host.bringup import BringupFault, pico_preflight
from keezbord.host.commands.selftest_rig import Rig, open_rig
from keezbord.host.config import BoardConfig, load_config
from keezbord.host.drivers.link_serial import SerialLink, monotonic_ms
from keezbord.host.selftest import Prompt, ShowLeds, WalkSettings, run_walk, start_walk
from keezbord.host.selftest_live import BitsView
from keezbord.host.selftest_piece import piece_holes, pieces_of
from keezbord.host.sim.builder import SimBoard, SimFaults

pytestmark = [pytest.mark.emulator, needs_node, pytest.mark.timeout(300)]

BOARD4: dict[str, Any] = {**BOARD, "chips": 4, "leds": 32}  # 2 seats of 8: 32 holes
BITS = BOARD4["chips"] * 8
GOOD: dict[str, Any] = {"mode": "ok", "break_after": None, "float_level": 0, **chain_for(BOARD4)}


@pytest.fixture(scope="module")
def pico(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatedPico]:
    p = EmulatedPico(tmp_path_factory.mktemp("selftest"), BOARD4, chain=chain_for(BOARD4))
    p.wait_first_frame()
    try:
        yield p
    finally:
        p.stop()


def _preflight(pico: EmulatedPico, bits: int = BITS) -> BringupFault | None:
    link = SerialLink(pico.path)
    try:
        return pico_preflight(link, bits, 0xA5, monotonic_ms, wait_ms=60_000)
    finally:
        link.close()


def test_a_good_chain_passes_the_preflight(pico: EmulatedPico) -> None:
    assert _preflight(pico) is None


def test_a_firmware_for_another_chip_count_is_named(pico: EmulatedPico) -> None:
    found = _preflight(pico, bits=BITS + 8)
    assert found is not None and found.kind == "chips"
    assert "keezbord firmware install" in found.text.en


@pytest.mark.parametrize(
    ("setting", "kind", "en", "nl"),
    [
        ({"mode": "unplugged"}, "open", "open data line", "open datalijn"),
        ({"signature": 0x5A}, "signature", "expects 0xA5", "verwacht 0xA5"),
    ],
)
def test_a_chain_fault_stops_the_selftest_with_its_cause(
    pico: EmulatedPico, setting: dict[str, Any], kind: str, en: str, nl: str
) -> None:
    pico.chain(**setting)
    try:
        pico.run_for(100)  # the fault is logged now, to no host: the selftest starts later
        found = _preflight(pico)
    finally:
        pico.chain(**GOOD)
        # Until the firmware trusts the chain again, each HELLO repeats the old cause: the
        # next test's selftest must start after the fault has really cleared.
        pico.run_for(100)
    assert found is not None and found.kind == kind, found
    assert en in found.text.en and nl in found.text.nl
    assert "keezbord firmware status" in found.text.en


class EmulatedBuilder:
    """The walk's IO on the emulated Pico, and a builder at the board: the hole lit is the
    one whose LED the Pico's pin really lit (decoded from its frames), moved by the
    board's LED faults; the pawn closes the switch really under that hole."""

    def __init__(self, pico: EmulatedPico, rig: Rig, board: SimBoard) -> None:
        self.pico, self.rig, self.board = pico, rig, board
        self.frame: dict[str, str] = {}
        self.ask: str | None = None
        self.named: str | None = None
        self.asked_at: int | None = None
        self.since = 0
        self.step = 0
        self.prompts: list[Prompt] = []

    def apply(self, effect: ShowLeds | Prompt) -> None:
        if isinstance(effect, ShowLeds):
            self.frame = dict(effect.frame)
        elif effect.ask != "info":
            self.prompts.append(effect)
            self.ask, self.named, self.asked_at, self.step = effect.ask, effect.hole, None, 0
            self.since = int(self.pico.frames(10**9)["next"])

    def _lit(self) -> str | None:
        frames = self.pico.frames(self.since)["frames"]
        if not frames:
            return None
        lit = [i for i, w in enumerate(frames[-1]["words"]) if w]
        return self.board.above_led[lit[0]] if len(lit) == 1 else None

    def _put(self, hole: str | None) -> None:
        s = None if hole is None else self.board.switch_under[hole]
        self.pico.set_closed([] if s is None else [s])

    def poll(self, now: int) -> list[Any]:
        self.rig.show(self.frame, now)
        out = list(self.rig.source(now))
        if self.ask is None:
            return out
        if self.asked_at is None:
            self.asked_at = now
        if now - self.asked_at < 300 * (self.step + 1):
            return out
        if self.ask == "place":
            hole = self._lit()
            if hole is not None:
                self._put(hole)
                self.ask = None
        elif self.ask == "lift":
            self._put(None)
            self.ask = None
        elif self.ask == "confirm" and self.step == 0:
            self._put(None)  # lifted ...
            self.step = 1
        elif self.ask == "confirm":
            self._put(self.named)  # ... and put on the hole by its name
            self.ask = None
        return out


def _config(tmp_path: Path, pico: EmulatedPico) -> BoardConfig:
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        f'[board]\nseats = 2\nsegment = 8\n[scanner]\nport = "{pico.path}"\nsignature = 0xA5\n'
    )
    return load_config(cfg)


def test_the_walk_names_a_swapped_switch_a_swapped_led_and_a_dead_switch(
    pico: EmulatedPico, tmp_path: Path
) -> None:
    cfg = _config(tmp_path, pico)
    wiring = cfg.load_wiring()
    order = piece_holes(wiring, pieces_of(cfg.topology()), 0)[:8]
    a, b, la, lb, dead = order[1], order[2], order[4], order[5], order[6]
    board = SimBoard(wiring, SimFaults.parse(f"swap:{a},{b};led-swap:{la},{lb};dead:{dead}"))
    rig = open_rig(cfg, wiring.led_order, BITS)
    try:
        io = EmulatedBuilder(pico, rig, board)
        walk, effects = start_walk(
            wiring, rig.closed, monotonic_ms(), order, WalkSettings(timeout_ms=3000)
        )
        report = run_walk(walk, effects, io, monotonic_ms, lambda: time.sleep(0.005), 240_000)
    finally:
        rig.close()
        pico.set_closed([])
    assert report is not None
    r = {x.hole: x for x in report.results}
    assert (r[a].cause, r[b].cause) == ("switch", "switch"), report.to_text("en")
    assert (r[la].cause, r[lb].cause) == ("led", "led"), report.to_text("en")
    assert r[dead].status == "missing"
    assert [x.hole for x in report.results if x.status == "ok"] == [
        h for h in order if h not in (a, b, la, lb, dead)
    ]
    en, nl = report.to_text("en"), report.to_text("nl")
    assert f"the switches of {a} and {b} are swapped" in en
    assert f"de LED's van {la} en {lb} zijn verwisseld" in nl


def test_the_live_view_shows_a_flaky_joint_flipping(pico: EmulatedPico, tmp_path: Path) -> None:
    cfg = _config(tmp_path, pico)
    wiring = cfg.load_wiring()
    s = wiring.switch_index("T3")
    rig = open_rig(cfg, wiring.led_order, BITS)
    try:
        view = BitsView(wiring, BITS, rig.closed)
        for k in range(6):  # a finger on a cold joint: open, closed, open, ...
            pico.set_switches([(s, k % 2 == 0)])
            end = monotonic_ms() + 150
            while monotonic_ms() < end or view.changes[s] < k + 1:
                view.update(rig.source(monotonic_ms()))
                time.sleep(0.005)
                assert monotonic_ms() < end + 30_000, "the flip never reached the host"
    finally:
        rig.close()
        pico.set_closed([])
    assert view.flaky() == ["T3"]
    assert "T3 ○ 6" in view.chip_line(s // 8)


def test_the_led_walk_goes_on_with_the_chain_open(pico: EmulatedPico, tmp_path: Path) -> None:
    # The LEDs alone, before the switches are in: the open chain is said, not a stop.
    cfg = _config(tmp_path, pico)
    wiring = cfg.load_wiring()
    notes: list[Text] = []
    pico.chain(mode="unplugged")
    try:
        rig = open_rig(cfg, wiring.led_order, BITS, note=notes.append)
        try:
            since = int(pico.frames(10**9)["next"])
            led = wiring.led_index("T3")
            end = monotonic_ms() + 60_000
            lit: list[int] = []
            while lit != [led]:
                rig.show({"T3": "target"}, monotonic_ms())
                rig.source(monotonic_ms())
                frames = pico.frames(since)["frames"]
                lit = [i for i, w in enumerate(frames[-1]["words"]) if w] if frames else []
                assert monotonic_ms() < end, "the LED never lit"
                time.sleep(0.01)
        finally:
            rig.close()
    finally:
        pico.chain(**GOOD)
        pico.run_for(100)  # trusted again before any later test opens the port
    assert len(notes) == 1 and "open data line" in notes[0].en and "open datalijn" in notes[0].nl
