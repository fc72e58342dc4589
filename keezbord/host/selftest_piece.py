"""One piece at a time: the holes and LEDs of one puzzle piece, and how much of the chain
is connected while a board is built piece by piece from the reader (piece 0 first, each
piece on whole chips: docs/hardware.md, "Chain order"); and the three-hole test piece
(``selftest --test-piece``: the offcut on the first three inputs of chip 0)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from keezbord.host.drivers.switches import WiringLike

BITS_PER_CHIP = 8
OFFCUT_HOLES = ("P1", "P2", "P3")  # the test piece's holes, on chip 0's H, G, F


def pieces_of(topology: object) -> dict[str, int]:
    """Every hole's puzzle piece (numbered by seat), from the board's geometry."""
    from keezbord.hardware.geometry import geometry_for

    g = geometry_for(topology)  # type: ignore[arg-type]
    return {h.name: g.piece_of(h.name) for h in g.holes}


def piece_holes(wiring: WiringLike, pieces: Mapping[str, int], n: int) -> tuple[str, ...]:
    """Piece ``n``'s holes along the LED chain (the order the walk lights them)."""
    if n not in set(pieces.values()):
        raise ValueError(f"no piece {n}: the pieces are 0 to {max(pieces.values())}")
    return tuple(h for h in wiring.led_order if h is not None and pieces.get(h) == n)


def connected_through(wiring: WiringLike, pieces: Mapping[str, int], n: int) -> tuple[int, int]:
    """(chips, LEDs) of pieces 0..n: the chain of a board built that far."""
    holes = [h for h, p in pieces.items() if p <= n]
    last_bit = max(wiring.switch_index(h) for h in holes)
    return last_bit // BITS_PER_CHIP + 1, max(wiring.led_index(h) for h in holes) + 1


@dataclass(frozen=True)
class OffcutWiring:
    """The test piece as a wiring: three holes on bits 0, 1, 2 and LEDs 0, 1, 2."""

    holes: Sequence[str] = OFFCUT_HOLES

    @property
    def switch_order(self) -> Sequence[str | None]:
        return (*self.holes, *([None] * (BITS_PER_CHIP - len(self.holes))))

    @property
    def led_order(self) -> Sequence[str | None]:
        return tuple(self.holes)

    def switch_index(self, hole: str) -> int:
        return list(self.holes).index(hole)

    def hole_at_switch(self, i: int) -> str | None:
        return self.holes[i] if 0 <= i < len(self.holes) else None

    def led_index(self, hole: str) -> int:
        return list(self.holes).index(hole)

    def hole_at_led(self, i: int) -> str | None:
        return self.hole_at_switch(i)
