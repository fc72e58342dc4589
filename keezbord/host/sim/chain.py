"""The link and the chain of a simulated board, for ``keezbord selftest --sim``'s faults
that stop a selftest before its walk: no Pico (the real SerialLink on a port that is not
there), an open data line, a wrong signature chip or a chain cut between two chips (the
74HC165 model of keezbord/host/drivers/fakes.py read by the Pi-direct reader, whose
check bits catch the fault as on a real board). The verdict is keezbord/host/bringup.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

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
