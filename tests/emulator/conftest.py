"""The emulated-Pico tier: fixtures that boot the firmware on rp2040js (emu.py) and a
host that talks to it with the real SerialLink over the pseudo-terminal.

KEEZBORD_EMULATOR=full runs the long scenarios too (the fine Ctrl-C sweep, every
conformance game from start to end); the default run keeps each scenario short.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "firmware"))

from emu import EmulatedPico, node_binary  # noqa: E402

from keezbord.host.drivers.link_serial import SerialLink  # noqa: E402
from keezbord.host.drivers.switches import SwitchChange  # noqa: E402

FULL = os.environ.get("KEEZBORD_EMULATOR", "") == "full"

# A small board for the scenarios: three switch chips, eight LEDs, the reference chain
# (tail level 1, data line pulled down, signature chip 0xA5). Heartbeats come faster than
# the default so that tests see several in a short run.
BOARD: dict[str, Any] = {
    "chips": 3,
    "leds": 8,
    "tail_level": 1,
    "signature": 0xA5,
    "debounce": 4,
    "heartbeat_ms": 250,
    "link_timeout_ms": 3000,
    "watchdog_ms": 2000,
}


def chain_for(board: dict[str, Any]) -> dict[str, Any]:
    """The chain as the board says it is wired."""
    return {
        "chips": board["chips"],
        "tail_level": board.get("tail_level", 0),
        "signature": board.get("signature", 0xA5),  # left out: the firmware's default chip
    }


needs_node = pytest.mark.skipif(node_binary() is None, reason="node (20+) is not installed")


@pytest.fixture
def make_pico(tmp_path: Path) -> Iterator[Callable[..., EmulatedPico]]:
    made: list[EmulatedPico] = []

    def make(
        board: dict[str, Any] | None = None, chain: dict[str, Any] | None = None, **kw: Any
    ) -> EmulatedPico:
        b = {**BOARD, **(board or {})}
        c = {**chain_for(b), **(chain or {})}
        p = EmulatedPico(tmp_path / f"pico{len(made)}", b, chain=c, **kw)
        made.append(p)
        return p

    yield make
    for p in made:
        p.stop()


class Host:
    """The real SerialLink on the emulated Pico's port, polled from the test."""

    def __init__(self, pico: EmulatedPico, **kw: Any) -> None:
        self.pico = pico
        self.link = SerialLink(pico.path, **kw)
        self.changes: list[SwitchChange] = []

    def connect(self, *, wait_boot: bool = True) -> None:
        """Open the port; by default once the firmware has said something (a host
        attached from power-up is a scenario of its own: test_emu_boot.py)."""
        if wait_boot:
            self.pico.wait_first_frame()
        assert self.link.connect(), self.link.last_error

    def poll_until(
        self, cond: Callable[[], bool], timeout: float = 60.0, what: str = "condition"
    ) -> None:
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError(
                    f"timed out waiting for {what}; link: "
                    f"{self.link.health().to_dict()}; "
                    f"harness: {self.pico.status()}"
                )
            self.changes += self.link.poll(0.02)

    def drain(self, seconds: float) -> None:
        """Keep polling for a while (wall seconds)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.changes += self.link.poll(0.02)

    def synced(self, timeout: float = 60.0) -> None:
        s = self.link.session
        self.poll_until(
            lambda: s.hello is not None and s.state is not None,
            timeout,
            "HELLO and the first snapshot",
        )

    def close(self) -> None:
        self.link.close()


@pytest.fixture
def host_for() -> Iterator[Callable[..., Host]]:
    made: list[Host] = []

    def make(pico: EmulatedPico, **kw: Any) -> Host:
        h = Host(pico, **kw)
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()
