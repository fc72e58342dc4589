"""The link and the chain of a simulated board, for ``keezbord selftest --sim``'s faults
that stop a selftest before its walk: no Pico (the real SerialLink on a port that is not
there), an open data line, a wrong signature chip or a chain cut between two chips (the
74HC165 model of keezbord/host/drivers/fakes.py read by the Pi-direct reader, whose
check bits catch the fault as on a real board). The verdict is keezbord/host/bringup.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from keezbord.host.bringup import (
    BringupFault,
    chain_error_fault,
    pico_preflight,
)
from keezbord.host.drivers.chain_check import BrokenChainError
from keezbord.host.drivers.fakes import Hc165Chain
from keezbord.host.drivers.link_serial import SerialLike, SerialLink
from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.scanner_gpio import ChainPins, open_chain

READS = 8  # reads of the chain before the walk (the selftest's own preflight)


@dataclass
class ChainFaults:
    no_pico: bool = False
    open_line: bool = False  # the data line to the reader open (or the chips unpowered)
    signature: int | None = None  # the byte the board's signature chip really gives
    cut_after: int | None = None  # chip k's DS not connected (a link between pieces)

    @property
    def any(self) -> bool:
        return (
            self.no_pico
            or self.open_line
            or self.signature is not None
            or (self.cut_after is not None)
        )


def _absent(port: str) -> SerialLike:
    # What pyserial raises for a device node that does not exist.
    raise FileNotFoundError(2, f"could not open port {port}: No such file or directory")


def sim_preflight(
    faults: ChainFaults, bits: int, signature: int | None, port: str
) -> BringupFault | None:
    """The preflight on the simulated board: None when its link and chain are fine."""
    if faults.no_pico:
        link = SerialLink(port, open_port=_absent, find_port=lambda: None)
        return pico_preflight(link, bits, signature, lambda: 0, wait_ms=0)
    factory = MockPinFactory(clock=lambda: 0)
    pins = ChainPins(17, 27, 22)
    built_sig = faults.signature if faults.signature is not None else signature
    chain = Hc165Chain(factory, (bits + 7) // 8, pins, signature=built_sig)
    chain.data_connected = not faults.open_line
    chain.cut_after = faults.cut_after
    reader = open_chain(factory, bits, method="bitbang", pins=pins, signature=signature)
    try:
        for _ in range(READS):
            reader.read()
    except BrokenChainError as e:
        return chain_error_fault(e, signature)
    return None


class ChainBench:
    """A simulated builder's board read the real way: the builder's pawns close the
    inputs of the 74HC165 model, the Pi-direct reader clocks them out (with the signature
    and tail check) and its debouncer reports the changes; a WalkIO for the selftest.
    Poll it at the scan rate (every ``1000 / scan_hz`` ms) for the real debounce."""

    def __init__(
        self,
        builder: Any,
        bits: int,
        signature: int | None,
        faults: ChainFaults | None = None,
        debounce: int = 3,
    ) -> None:
        from keezbord.host.drivers.scanner_gpio import GpioScanner

        f = faults or ChainFaults()
        self.builder = builder
        self.factory = MockPinFactory(clock=lambda: 0)
        pins = ChainPins(17, 27, 22)
        built = f.signature if f.signature is not None else signature
        self.chain = Hc165Chain(self.factory, (bits + 7) // 8, pins, signature=built)
        self.chain.data_connected = not f.open_line
        self.chain.cut_after = f.cut_after
        reader = open_chain(self.factory, bits, method="bitbang", pins=pins, signature=signature)
        self.scanner = GpioScanner(reader, None, debounce)
        self.signature = signature
        self.broken = 0
        for s in builder.closed_at_start():
            self.chain.close_switch(s)
        for k in range(debounce + 1):
            self._scan(k)

    def closed_at_start(self) -> frozenset[int]:
        return self.scanner.closed_switches()

    def apply(self, effect: Any) -> None:
        self.builder.apply(effect)

    def _scan(self, now: int) -> list[Any]:
        self.factory.history.clear()  # the mock's record of every pin edge: not kept here
        try:
            changes: list[Any] = self.scanner.scan(now)
        except BrokenChainError as e:
            self.broken += 1
            if self.broken >= 3:
                from keezbord.host.bringup import BringupStop

                raise BringupStop(chain_error_fault(e, self.signature)) from None
            return []
        self.broken = 0
        return changes

    def poll(self, now: int) -> list[Any]:
        from keezbord.host.drivers.switches import SwitchChange

        passed = []
        for inp in self.builder.poll(now):
            if isinstance(inp, SwitchChange):
                self.chain.close_switch(inp.index, inp.closed)
            else:
                passed.append(inp)  # a skip typed by the builder
        return passed + self._scan(now)
