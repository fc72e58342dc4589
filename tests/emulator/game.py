"""A recorded game played on the emulated Pico: the trace's lifts and places become switch
changes in the chain model at their recorded times (simulated), the card taps go to the
referee as the card reader would post them, and the real host path (SerialLink,
SerialBoard, the referee's step) runs in between, its LED state checked on the pin.

Shared by tests/emulator/test_emu_game.py and bench/bench_emulator.py.
"""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import patterns as FWP  # firmware/patterns.py
from app import ANIM_MS  # firmware/app.py
from emu import FIRMWARE, MS, EmulatedPico
from leds import render_into  # firmware/leds.py

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import REFERENCE_SIGNATURE, Wiring, default_wiring
from keezbord.host.drivers.leds import LedSettings
from keezbord.host.drivers.link_serial import SerialLink, monotonic_ms
from keezbord.host.drivers.polled import SerialBoard
from keezbord.host.events import HoleEvent, Tick
from keezbord.host.referee.replay import replay
from keezbord.host.referee.state import Decision, Effect, Input, Leds, RefereeState
from keezbord.host.referee.step import new_game, step
from keezbord.host.referee.trace import Setup, parse_trace

MAX_MA = 1500


def board_json(wiring: Wiring) -> dict[str, Any]:
    """board.json for a board built to the reference design with this wiring."""
    return {
        "chips": wiring.chips,
        "leds": len(wiring.led_order),
        "tail_level": 1,
        "signature": REFERENCE_SIGNATURE,
        "max_ma": MAX_MA,
        "heartbeat_ms": 1000,
    }


def consistent(
    words: list[int], colours: list[tuple[int, int, int]], ids: list[int], fw_ms: int
) -> bool:
    """Do these GRB words on the pin show the host's colours and pattern ids as the
    firmware renders them at about fw_ms (brightness 255 from the host, its own cap)?
    Each animated pattern may be at any level it took in the last animation period."""
    n = len(colours)
    if len(words) != n:
        return False
    rgb = bytes(c for px in colours for c in px)
    pats = bytes(ids)
    used = sorted(set(ids))
    choices = []
    for pid in range(FWP.N_PATTERNS):
        if pid in used and FWP.ANIMATED[pid]:
            choices.append(
                sorted({FWP.level(pid, t) for t in range(max(0, fw_ms - ANIM_MS - 30), fw_ms + 1)})
            )
        else:
            choices.append([FWP.level(pid, 0)])
    want = bytearray(3 * n)
    got = bytes(b for w in words for b in ((w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF))
    for levels in itertools.product(*choices):
        render_into(rgb, pats, bytearray(levels), n, 255, MAX_MA, want)
        if bytes(want) == got:
            return True
    return False


@dataclass
class GameRun:
    decisions: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: list[tuple[int, list[tuple[int, int, int]], list[int]]] = field(
        default_factory=list
    )  # (sim ns, colours, ids) the referee's LEDs at rest
    # Lifts that changed the LEDs: (simulated ms the host took it, hole, the referee's LEDs
    # right after, host wall ms for that step)
    lifts: list[tuple[int, str, list[tuple[int, int, int]], list[int], float]] = field(
        default_factory=list
    )
    # Per lift, the host process's CPU ms in the pump that took it (read, decode, referee,
    # render, LED message written): what the host costs when it has a core to itself
    lift_cpu_ms: list[float] = field(default_factory=list)
    # Every pump: (simulated ns at its start, host CPU ms, host wall ms in it); the bench
    # sums the CPU of the pumps between a lift's CHANGES and its LED message
    pumps: list[tuple[int, float, float]] = field(default_factory=list)
    wall_s: float = 0.0  # wall seconds from the boot to the end of play
    state: RefereeState | None = None


class EmulatedTable:
    """The host side of `keezbord run` on an emulated Pico, driven in simulated time."""

    def __init__(
        self,
        trace: Path,
        workdir: Path,
        *,
        pace: float = 1.0,
        firmware_dir: Path = FIRMWARE,
        sim_clock: bool = False,
    ) -> None:
        self.setup, self.events = parse_trace(trace.read_text().splitlines())
        topo: Topology = self.setup.position.topology
        self.wiring = default_wiring(topo)
        self.state, effects = new_game(
            self.setup.position, self.setup.dealer, self.setup.config, turn=self.setup.turn
        )
        self.sensed = set(self.state.sensed)
        closed = sorted(self.wiring.switch_index(h) for h in self.sensed)
        self.pico = EmulatedPico(
            workdir,
            board_json(self.wiring),
            chain={
                "chips": self.wiring.chips,
                "tail_level": 1,
                "signature": REFERENCE_SIGNATURE,
                "closed": closed,
            },
            pace=pace,
            firmware_dir=firmware_dir,
        )
        self.settings = LedSettings()
        # sim_clock: the link's own clock (pings, LED pacing) reads simulated time as of the
        # current pump, so its pacing is what a real host's is, however slowly the emulator
        # runs on a loaded machine (on the wall clock, 50 ms is 15 simulated ms at 30 %).
        self._now_ms = 0
        self.link = SerialLink(self.pico.path, clock=self._sim_ms if sim_clock else monotonic_ms)
        self.board = SerialBoard(self.link, self.wiring, self.settings)
        self.run = GameRun()
        self._began = time.monotonic()
        self.lift_times: list[tuple[int, str]] = []
        self._apply(effects, 0)

    def close(self) -> None:
        self.board.close()
        self.pico.stop()

    # -- the host loop -------------------------------------------------------------------

    def _apply(self, effects: list[Effect], now: int) -> None:
        for e in effects:
            if isinstance(e, Decision):
                self.run.decisions.append(e.to_dict("en"))
            elif isinstance(e, Leds):
                self.board.show_leds(e.holes, now)

    def feed(self, inp: Input, now: int) -> None:
        self.state, effects = step(self.state, inp)
        self._apply(effects, now)

    def _sim_ms(self) -> int:
        return self._now_ms

    def pump(self) -> int:
        t0 = self.pico.now_ns()
        now = self._now_ms = t0 // MS
        cpu0 = time.thread_time()
        wall0 = time.perf_counter()
        for inp in self.board.pump(now):
            began = time.perf_counter()
            before = self.state.leds
            self.feed(inp, now)
            if isinstance(inp, HoleEvent) and inp.action == "lift" and self.state.leds != before:
                colours, ids = self.board.renderer.base(self.state.leds)
                self.run.lifts.append(
                    (now, inp.hole, colours, ids, (time.perf_counter() - began) * 1000)
                )
                self.run.lift_cpu_ms.append((time.thread_time() - cpu0) * 1000)
        self.feed(Tick(max(now, self.state.now)), now)
        self.run.pumps.append(
            (t0, (time.thread_time() - cpu0) * 1000, (time.perf_counter() - wall0) * 1000)
        )
        return now

    def connect(self) -> None:
        self.pico.wait_first_frame(timeout=600)  # wall seconds: a heavily loaded machine
        self._now_ms = self.pico.now_ns() // MS
        assert self.link.connect(), self.link.last_error
        end = time.monotonic() + 60
        while self.link.session.state is None or not self.board._synced:
            assert time.monotonic() < end, "no snapshot from the emulated Pico"
            self.pump()

    # -- playing the trace ---------------------------------------------------------------

    def play(self, n_events: int | None = None) -> GameRun:
        """Play the first n_events of the trace (all by default) at their recorded pace."""
        events = self.events[:n_events] if n_events is not None else self.events
        self.connect()
        t0_ns = self.pico.now_ns() + 200 * MS
        first_t = events[0].t if events else 0
        at = [t0_ns + (ev.t - first_t) * MS for ev in events]
        sched = []
        for ev, t in zip(events, at, strict=True):
            if isinstance(ev, HoleEvent):
                sched.append([t, self.wiring.switch_index(ev.hole), ev.action == "place"])
        self.pico.call("schedule", changes=sched)
        self.lift_times = [
            (t, ev.hole)
            for ev, t in zip(events, at, strict=True)
            if isinstance(ev, HoleEvent) and ev.action == "lift"
        ]
        expect = set(self.sensed)
        end = time.monotonic() + 1500  # wall seconds: a whole game on a loaded machine
        for ev, t in zip(events, at, strict=True):
            if isinstance(ev, HoleEvent):
                if ev.action == "place":
                    expect.add(ev.hole)
                else:
                    expect.discard(ev.hole)
                continue
            # A card tap or discard: due at its recorded time, after the host has heard
            # every switch change before it (as a player taps after moving).
            want = {self.wiring.switch_index(h) for h in expect}
            while True:
                now = self.pump()
                s = self.link.session
                on = {i for i in range(s.n_bits) if s.closed(i)}
                if now * MS >= t and on == want:
                    break
                assert time.monotonic() < end, "the game did not keep up"
            self.checkpoint()
            self.feed(type(ev)(**{**_fields(ev), "t": now}), now)
        # Let the last move settle and be judged.
        t_end = self.pico.now_ns() + (self.state.config.patience_ms + 500) * MS
        while self.pump() * MS < t_end:
            pass
        self.checkpoint()
        self.run.state = self.state
        self.run.wall_s = time.monotonic() - self._began
        return self.run

    def checkpoint(self) -> None:
        colours, ids = self.board.renderer.base(self.state.leds)
        self.run.checkpoints.append((self.pico.now_ns(), colours, ids))

    def frames(self) -> list[dict[str, Any]]:
        return list(self.pico.frames()["frames"])

    def boot_at(self) -> int:
        return int(self.pico.status()["boot_at"])


def _fields(ev: Any) -> dict[str, Any]:
    return {k: getattr(ev, k) for k in ev.__dataclass_fields__}


def expected_decisions(setup: Setup, events: list[Input]) -> list[dict[str, Any]]:
    """What `keezbord replay` decides for the same events (the conformance path)."""
    return list(replay(setup, events))


def moves_of(decisions: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(d["seat"], d["move"]) for d in decisions if d["type"] == "move"]
