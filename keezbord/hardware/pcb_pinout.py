"""The one pinout of the signal connector between pieces, as the PCB generator reads it.

Every piece has an IN connector (towards the reader) and an OUT connector (towards the
next piece, or the terminator plug with the signature chip at the chain's far end); both
carry the same eight pins in the same order, so any piece plugs into any other. Ground
sits between the fast lines (CLK, /PL) and LED data is kept away from the chain's QH.

The generator reads the pinout from `SIGNAL_PINOUT` only (keezbord.hardware.pcb_design):
the schematic, the board and the docs' table come from this one tuple.
"""

from __future__ import annotations

# (pin number, signal): the signal names are the nets on the IN side; on the OUT side
# CLK and /PL are this piece's re-driven bus, QH is the next piece's data coming back
# and LED is this piece's last LED's DOUT.
SIGNAL_PINOUT: tuple[tuple[int, str], ...] = (
    (1, "3V3"),
    (2, "GND"),
    (3, "CLK"),
    (4, "GND"),
    (5, "/PL"),
    (6, "QH"),
    (7, "GND"),
    (8, "LED"),
)


def pin_of(signal: str) -> list[int]:
    """The connector pins that carry ``signal`` (GND is on several)."""
    return [n for n, s in SIGNAL_PINOUT if s == signal]
