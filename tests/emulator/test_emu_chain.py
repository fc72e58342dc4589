"""Chain faults on the emulated Pico: the 74HC165 model answers the firmware's SPI reads
as a faulty board would, and every fault reaches the host as a fault, never as pawns
lifted or placed."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import BOARD, Host, chain_for, needs_node
from emu import EmulatedPico

pytestmark = [pytest.mark.emulator, needs_node, pytest.mark.timeout(300)]

PAWNS = [1, 10, 22]  # on the board throughout: a fault must not lift or place them

# name: (chain settings, the fault the firmware should name)
FAULTS: dict[str, tuple[dict[str, Any], str]] = {
    "unplugged": ({"mode": "unplugged"}, "open data line"),
    "chip 1 missing, its input floating low": (
        {"break_after": 1, "float_level": 0},
        "tail bits wrong",
    ),
    "chip 1 missing, its input floating high": (
        {"break_after": 1, "float_level": 1},
        "signature byte wrong",
    ),
    "one chip fewer than configured": ({"chips": 2}, "signature byte wrong"),
    "one chip more than configured": ({"chips": 4}, "tail bits wrong"),
    "signature chip cut off, line floating high": (
        {"break_after": 3, "float_level": 1},
        "signature byte wrong",
    ),
}
GOOD: dict[str, Any] = {"mode": "ok", "break_after": None, "float_level": 0, **chain_for(BOARD)}


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmulatedPico, Host]]:
    """One boot for all the faults: they are put in and repaired one after the other."""
    pico = EmulatedPico(
        tmp_path_factory.mktemp("chain"), BOARD, chain={**chain_for(BOARD), "closed": PAWNS}
    )
    host = Host(pico)
    host.connect()
    host.synced()
    try:
        yield pico, host
    finally:
        host.close()
        pico.stop()


def _log_lines(host: Host) -> list[str]:
    return list(host.link.session.log)


@pytest.mark.parametrize("name", list(FAULTS))
def test_chain_fault_is_reported_never_as_moves(rig: tuple[EmulatedPico, Host], name: str) -> None:
    pico, host = rig
    setting, text = FAULTS[name]
    host.poll_until(lambda: host.link.health().chain_ok is True, what="a good chain first")
    assert sorted(i for i in range(24) if host.link.session.closed(i)) == PAWNS
    host.changes.clear()
    host.link.session.log.clear()

    pico.chain(**setting)
    host.poll_until(lambda: host.link.health().chain_ok is False, what=f"the fault ({name})")
    host.poll_until(
        lambda: any(text in ln for ln in _log_lines(host)),
        what=f"the firmware naming the fault: {text!r}",
    )
    t = pico.now_ns()
    host.poll_until(lambda: pico.now_ns() > t + 300_000_000, what="300 ms of faulty scans")
    host.drain(0.2)
    assert host.changes == [], "a chain fault came through as pawn moves"
    health = host.link.health()
    assert health.firmware_counters["chain_errors"] > 0 and not health.ok

    pico.chain(**GOOD)
    host.poll_until(lambda: host.link.health().chain_ok is True, what="the chain repaired")
    host.poll_until(
        lambda: any("chain ok again" in ln for ln in _log_lines(host)),
        what="the firmware saying the chain is back",
    )
    assert host.changes == []
    assert sorted(i for i in range(24) if host.link.session.closed(i)) == PAWNS
