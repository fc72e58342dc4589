"""The live view of the chain: every chip's eight inputs (H first, as they shift out) with
the hole on each, whether its switch is closed and how often it changed. Pressing on a
suspect joint while watching it finds a cold one: its bit flips while no pawn moves
(``keezbord selftest --live`` in the terminal; ``chips`` in the page's health view).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from keezbord.engine.text import Text
from keezbord.host.drivers.switches import SwitchChange, WiringLike

BITS_PER_CHIP = 8
FLAKY_CHANGES = 6  # a bit that changed this often with no pawn moved: a loose joint?


class BitsView:
    def __init__(self, wiring: WiringLike, bits: int, closed: Iterable[int] = ()) -> None:
        self.wiring, self.bits = wiring, bits
        self.closed = set(closed)
        self.changes = [0] * bits

    def update(self, changes: Iterable[SwitchChange]) -> list[int]:
        """Apply switch changes; the chips whose bits changed."""
        chips: set[int] = set()
        for c in changes:
            if not 0 <= c.index < self.bits or (c.index in self.closed) == c.closed:
                continue
            (self.closed.add if c.closed else self.closed.discard)(c.index)
            self.changes[c.index] += 1
            chips.add(c.index // BITS_PER_CHIP)
        return sorted(chips)

    def flaky(self) -> list[str]:
        """Holes (or #bits) whose switch changed FLAKY_CHANGES times or more."""
        return [
            self.wiring.hole_at_switch(i) or f"#{i}"
            for i, n in enumerate(self.changes)
            if n >= FLAKY_CHANGES
        ]

    def chip_line(self, k: int) -> str:
        """``chip 2  H T16 ○ 0  G T17 ● 7 ...``: input, hole, closed (●) or open, changes."""
        cells = []
        for i in range(k * BITS_PER_CHIP, min(self.bits, (k + 1) * BITS_PER_CHIP)):
            hole = self.wiring.hole_at_switch(i) or "-"
            mark = "●" if i in self.closed else "○"
            cells.append(f"{'HGFEDCBA'[i % BITS_PER_CHIP]} {hole} {mark} {self.changes[i]}")
        return f"chip {k:>2}  " + "  ".join(cells)

    def lines(self) -> list[str]:
        return [self.chip_line(k) for k in range((self.bits + 7) // BITS_PER_CHIP)]

    def flaky_text(self) -> Text | None:
        holes = ", ".join(self.flaky())
        if not holes:
            return None
        return Text(
            nl=f"wisselt vaak zonder pion: {holes}: een losse soldeerverbinding, of de "
            "schakelaar raakt een buur; druk erop en kijk of het bit verspringt",
            en=f"changes often with no pawn: {holes}: a loose joint, or the switch touches "
            "a neighbour; press on it and watch the bit flip",
        )

    def to_dict(self) -> dict[str, Any]:
        return chips_view(self.wiring, self.bits, self.closed, self.changes)


def chips_view(
    wiring: WiringLike, bits: int, closed: Iterable[int], changes: list[int]
) -> dict[str, Any]:
    """The chips as plain data (the page's health view: ``health.chips``)."""
    shut = set(closed)
    return {
        "chips": [
            {
                "chip": k,
                "bits": [
                    {
                        "input": "HGFEDCBA"[i % BITS_PER_CHIP],
                        "hole": wiring.hole_at_switch(i),
                        "closed": i in shut,
                        "changes": changes[i],
                    }
                    for i in range(k * BITS_PER_CHIP, min(bits, (k + 1) * BITS_PER_CHIP))
                ],
            }
            for k in range((bits + 7) // BITS_PER_CHIP)
        ]
    }
