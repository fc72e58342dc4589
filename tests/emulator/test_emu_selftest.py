"""The selftest's preflight on the emulated Pico (one boot): a good chain lets the walk
begin; an open data line and a wrong signature chip stop it with the firmware's own cause,
heard by a selftest started after the fault (the firmware repeats it at each HELLO)."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import BOARD, chain_for, needs_node
from emu import EmulatedPico

from keezbord.host.bringup import BringupFault, pico_preflight
from keezbord.host.drivers.link_serial import SerialLink, monotonic_ms

pytestmark = [pytest.mark.emulator, needs_node, pytest.mark.timeout(300)]

BITS = BOARD["chips"] * 8
GOOD: dict[str, Any] = {"mode": "ok", "break_after": None, "float_level": 0, **chain_for(BOARD)}


@pytest.fixture(scope="module")
def pico(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatedPico]:
    p = EmulatedPico(tmp_path_factory.mktemp("selftest"), BOARD, chain=chain_for(BOARD))
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
    assert found is not None and found.kind == kind, found
    assert en in found.text.en and nl in found.text.nl
    assert "keezbord firmware status" in found.text.en
