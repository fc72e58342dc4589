"""Board topology: the track ring, start holes, nests and homes for 2 to 8 seats.

Hole names follow FORMATS.md: ``T<i>`` on the track, ``N<p>.<k>`` in seat p's nest and
``H<p>.<k>`` in seat p's home (k = 1..4, ``.1`` nearest the track).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

MIN_SEATS = 2
MAX_SEATS = 8
DEFAULT_SEGMENT = 16
PAWNS_PER_SEAT = 4
# A 13-step move must never wrap past its own departure, so the ring must be longer.
MIN_SEGMENT = 7

HoleKind = Literal["T", "N", "H"]

# fullmatch and [0-9]: "$" lets a trailing newline through, "\d" other scripts' digits.
_HOLE_RE = re.compile(r"(?:T(0|[1-9][0-9]*)|([NH])([0-7])\.([1-4]))")


class TopologyError(ValueError):
    """A seat count, segment length or hole name that does not fit the board."""


@dataclass(frozen=True, slots=True, order=True)
class Hole:
    """One physical hole. ``seat`` is None for track holes; ``index`` is the track index
    or the nest/home slot 1..4."""

    kind: HoleKind
    index: int
    seat: int | None = None

    @property
    def name(self) -> str:
        if self.kind == "T":
            return f"T{self.index}"
        return f"{self.kind}{self.seat}.{self.index}"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Topology:
    """The shape of a board: ``seats`` seats of ``segment`` track holes each."""

    seats: int
    segment: int = DEFAULT_SEGMENT

    def __post_init__(self) -> None:
        if not isinstance(self.seats, int) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise TopologyError(f"seats must be {MIN_SEATS} to {MAX_SEATS}, not {self.seats!r}")
        if not isinstance(self.segment, int) or self.segment < MIN_SEGMENT:
            raise TopologyError(f"segment must be at least {MIN_SEGMENT}, not {self.segment!r}")

    @property
    def ring(self) -> int:
        """Number of track holes."""
        return self.seats * self.segment

    def start(self, seat: int) -> int:
        """Track index of the seat's start hole."""
        return seat * self.segment

    def owner_of_start(self, track_index: int) -> int | None:
        """The seat whose start hole this is, if any."""
        seat, rest = divmod(track_index, self.segment)
        return seat if rest == 0 else None

    @cached_property
    def holes(self) -> tuple[Hole, ...]:
        """Every hole once: the track in order, then per seat its nest and home."""
        track = [Hole("T", i) for i in range(self.ring)]
        off = [
            Hole(kind, k, seat)
            for seat in range(self.seats)
            for kind in ("N", "H")
            for k in range(1, PAWNS_PER_SEAT + 1)
        ]
        return tuple(track + off)

    @cached_property
    def hole_names(self) -> tuple[str, ...]:
        return tuple(h.name for h in self.holes)

    def parse_hole(self, name: str) -> Hole:
        """Parse a physical hole name, refusing names off this board."""
        m = _HOLE_RE.fullmatch(name) if isinstance(name, str) else None
        if not m:
            raise TopologyError(f"not a hole name: {name!r} (expected T<i>, N<p>.<k> or H<p>.<k>)")
        if m.group(1) is not None:
            i = int(m.group(1))
            if i >= self.ring:
                raise TopologyError(f"hole {name} is off the board (track is T0..T{self.ring - 1})")
            return Hole("T", i)
        seat = int(m.group(3))
        if seat >= self.seats:
            raise TopologyError(f"hole {name} is off the board (seats are 0..{self.seats - 1})")
        kind: HoleKind = "N" if m.group(2) == "N" else "H"
        return Hole(kind, int(m.group(4)), seat)


# Seat colours, used in player-facing text ("the blue pawn") and by the board drawings.
# Chosen so that every seat count from 2 to 8 uses the first N and stays distinguishable;
# the web page and drawings add a symbol per seat so colour is never the only cue.
@dataclass(frozen=True, slots=True)
class SeatColour:
    en: str
    nl: str
    hex: str
    symbol: str
    nl_adj: str  # inflected before a noun: "de blauwe pion"


SEAT_COLOURS: tuple[SeatColour, ...] = (
    SeatColour("red", "rood", "#d62728", "●", "rode"),
    SeatColour("blue", "blauw", "#1f77b4", "■", "blauwe"),
    SeatColour("yellow", "geel", "#f2c500", "▲", "gele"),
    SeatColour("green", "groen", "#2ca02c", "◆", "groene"),
    SeatColour("purple", "paars", "#8e44ad", "★", "paarse"),
    SeatColour("orange", "oranje", "#ff7f0e", "✚", "oranje"),
    SeatColour("white", "wit", "#f4f4f4", "⬟", "witte"),
    SeatColour("black", "zwart", "#303030", "✖", "zwarte"),
)
