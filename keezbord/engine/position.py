"""Immutable positions, their JSON form (FORMATS.md, "Position") and their one-line text
form (``NNST20/NNNT33/NT60H3H4/NNNN 0 standard``, docs/formats.md), which ``repr`` shows.

A pawn's location is a small int, so positions hash and compare fast and sort into the
canonical order N, S, T ascending, H ascending:

- ``NEST`` (-2): in its nest;
- ``FRESH`` (-1): fresh on its own start hole (a blockade);
- ``0 .. ring-1``: on that track hole (own start included, when not fresh);
- ``HOME + k`` (k = 1..4): in home slot k.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from .position_error import InvalidPositionError as InvalidPositionError
from .position_text import text_fields  # its parser, apart: this module is long
from .profiles import DEFAULT_PROFILE, Profile, UnknownProfileError, get_profile
from .topology import MAX_SEATS, PAWNS_PER_SEAT, Hole, Topology, TopologyError

NEST: Final = -2
FRESH: Final = -1
HOME: Final = 10_000
EMPTY: Final = -1
# Track occupancy codes: the seat, plus BLOCKADE when that pawn is fresh on its start.
BLOCKADE: Final = 16

Pawns = tuple[tuple[int, ...], ...]
TeamMode = Literal["pairs", "none"]

# fullmatch and [0-9]: "$" lets a trailing newline through, "\d" other scripts' digits.
_LOC_RE = re.compile(r"(?:(N)|(S)|T(0|[1-9][0-9]*)|H([1-4]))")
# The text form: one seat's four locations written together, seats joined by "/".


def is_home(loc: int) -> bool:
    return loc > HOME


def is_track(loc: int) -> bool:
    """On the track, fresh pawns included."""
    return FRESH <= loc < HOME


def default_teams(seats: int) -> TeamMode:
    return "pairs" if seats in (4, 6, 8) else "none"


@dataclass(frozen=True, repr=False)
class Position:
    """Where every pawn stands, under which rules, and whose turn it is.

    >>> Position.from_text("NNST20/NNNT33/NT60H3H4/NNNN 0 standard").seats
    4
    """

    # Slots, not a __dict__: a long game's history keeps thousands of positions, and a
    # dict each (materialised by the caches below) cost four times the position itself.
    # ``_hash`` and ``_track`` are caches, set on first use (unset until then).
    __slots__ = ("__weakref__", "_hash", "_track", "pawns", "profile", "teams", "topology", "turn")
    _hash: ClassVar[int]  # typed for mypy; ClassVar keeps them out of the dataclass fields
    _track: ClassVar[tuple[int, ...]]

    topology: Topology
    profile: Profile
    teams: TeamMode
    turn: int
    pawns: Pawns

    def __hash__(self) -> int:
        # Computed once, on demand: most positions made during generation are never hashed.
        try:
            return self._hash
        except AttributeError:
            h = hash((self.topology, self.profile.name, self.teams, self.turn, self.pawns))
            object.__setattr__(self, "_hash", h)
            return h

    def __reduce__(self) -> tuple[Any, ...]:
        # A frozen class with slots: pickle rebuilds it through __init__ (no caches).
        return (Position, (self.topology, self.profile, self.teams, self.turn, self.pawns))

    # -- construction -------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        seats: int,
        profile: str = DEFAULT_PROFILE,
        *,
        segment: int = 16,
        teams: TeamMode | None = None,
        turn: int = 0,
    ) -> Position:
        """Every pawn in its nest."""
        topo = Topology(seats, segment)
        return cls(
            topo,
            get_profile(profile),
            _check_teams(seats, teams),
            turn,
            tuple((NEST,) * PAWNS_PER_SEAT for _ in range(seats)),
        )

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        """Build and validate a position from its JSON form."""
        if not isinstance(data, Mapping):
            raise InvalidPositionError("a position must be a JSON object")
        # Other fields are ignored: FORMATS.md's formats grow only by optional fields,
        # which a reader that does not know them passes over.
        seats = data.get("seats")
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise InvalidPositionError("'seats' must be a whole number from 2 to 8")
        segment = data.get("segment", 16)
        try:
            topo = Topology(seats, segment)
        except TopologyError as e:
            raise InvalidPositionError(str(e)) from None
        try:
            profile = get_profile(data.get("profile", DEFAULT_PROFILE))
        except UnknownProfileError as e:
            raise InvalidPositionError(str(e)) from None
        teams_raw = data.get("teams")
        if teams_raw not in (None, "pairs", "none"):
            raise InvalidPositionError(f'\'teams\' must be "pairs" or "none", not {teams_raw!r}')
        teams = _check_teams(seats, teams_raw)
        turn = data.get("turn", 0)
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < seats:
            raise InvalidPositionError(f"'turn' must be a seat from 0 to {seats - 1}, not {turn!r}")
        raw = data.get("pawns")
        if not isinstance(raw, list) or len(raw) != seats:
            raise InvalidPositionError(f"'pawns' must list the pawns of all {seats} seats")
        pawns = []
        for seat, row in enumerate(raw):
            if not isinstance(row, list) or len(row) != PAWNS_PER_SEAT:
                raise InvalidPositionError(
                    f"seat {seat} must have exactly {PAWNS_PER_SEAT} pawns, not "
                    f"{len(row) if isinstance(row, list) else row!r}"
                )
            pawns.append(tuple(sorted(parse_loc(topo, seat, s) for s in row)))
        pos = cls(topo, profile, teams, turn, tuple(pawns))
        pos.validate()
        return pos

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Build and validate a position from its one-line text form (docs/formats.md):
        ``<pawns> <turn> <profile> [segment=<L>] [teams=pairs|none]``, the pawns seat by
        seat joined by ``/``, each seat's four locations written together."""
        return cls.from_dict(text_fields(text))

    def replace(self, *, pawns: Pawns | None = None, turn: int | None = None) -> Position:
        return Position(
            self.topology,
            self.profile,
            self.teams,
            self.turn if turn is None else turn,
            self.pawns if pawns is None else pawns,
        )

    def validate(self) -> None:
        """Refuse impossible positions: two pawns on one hole."""
        seen: dict[int, int] = {}
        for seat, locs in enumerate(self.pawns):
            homes = [loc for loc in locs if is_home(loc)]
            if len(homes) != len(set(homes)):
                raise InvalidPositionError(f"two pawns of seat {seat} on one home hole")
            for loc in locs:
                if not is_track(loc):
                    continue
                t = self.topology.start(seat) if loc == FRESH else loc
                if t in seen:
                    raise InvalidPositionError(
                        f"two pawns on hole T{t} (seats {seen[t]} and {seat})"
                    )
                seen[t] = seat

    # -- JSON -----------------------------------------------------------------------------

    def to_dict(self, *, full: bool = False) -> dict[str, Any]:
        """The JSON form; optional fields only when not the default (or ``full``)."""
        d: dict[str, Any] = {
            "seats": self.topology.seats,
            "profile": self.profile.name,
            "turn": self.turn,
        }
        if full or self.topology.segment != 16:
            d["segment"] = self.topology.segment
        if full or self.teams != default_teams(self.topology.seats):
            d["teams"] = self.teams
        d["pawns"] = self.pawn_strings()
        return d

    def to_text(self) -> str:
        """The one-line text form (docs/formats.md), round-trip exact with ``from_text``
        and the JSON: optional fields only when not the default, as ``to_dict``."""
        parts = [
            "/".join("".join(row) for row in self.pawn_strings()),
            str(self.turn),
            self.profile.name,
        ]
        if self.topology.segment != 16:
            parts.append(f"segment={self.topology.segment}")
        if self.teams != default_teams(self.topology.seats):
            parts.append(f"teams={self.teams}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Position({self.to_text()!r})"

    def pawn_strings(self) -> list[list[str]]:
        return [[loc_str(loc) for loc in locs] for locs in self.pawns]

    # -- derived facts --------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.topology.seats

    @property
    def track(self) -> tuple[int, ...]:
        """Occupancy of every track hole: EMPTY, or the seat (+ BLOCKADE if fresh).
        Built on first use and kept (see ``drop_caches``)."""
        try:
            return self._track
        except AttributeError:
            occ = [EMPTY] * self.topology.ring
            for seat, locs in enumerate(self.pawns):
                for loc in locs:
                    if loc == FRESH:
                        occ[self.topology.start(seat)] = seat + BLOCKADE
                    elif 0 <= loc < HOME:
                        occ[loc] = seat
            track = tuple(occ)
            object.__setattr__(self, "_track", track)
            return track

    def at(self, hole: int) -> int:
        """``track[hole]`` without building the track (and caching it on the position):
        for a look at one hole of a position a long history keeps, where a cached track
        (a tuple of the ring's length) per position would outweigh the position itself."""
        cached: tuple[int, ...] | None = getattr(self, "_track", None)
        if cached is not None:
            return cached[hole]
        owner = self.topology.owner_of_start(hole)
        for seat, locs in enumerate(self.pawns):
            if hole in locs:
                return seat
            if seat == owner and FRESH in locs:
                return seat + BLOCKADE
        return EMPTY

    def drop_caches(self) -> None:
        """Forget the derived facts cached on this position (the track; rebuilt if
        asked for again): the referee calls it when a position joins the history, where
        a thousand cached tracks would outweigh the positions."""
        with contextlib.suppress(AttributeError):
            object.__delattr__(self, "_track")

    def partner(self, seat: int) -> int | None:
        if self.teams != "pairs":
            return None
        return (seat + self.seats // 2) % self.seats

    def team_of(self, seat: int) -> tuple[int, ...]:
        p = self.partner(seat)
        return (seat,) if p is None else tuple(sorted((seat, p)))

    def home_count(self, seat: int) -> int:
        return sum(1 for loc in self.pawns[seat] if loc > HOME)

    def all_home(self, seat: int) -> bool:
        return self.pawns[seat][0] > HOME

    def controlled_seat(self, seat: int) -> int:
        """Whose pawns this seat moves: its own, or in team play, once all its own are
        home, its partner's."""
        if self.teams == "pairs" and self.all_home(seat):
            return (seat + self.seats // 2) % self.seats
        return seat

    def team_home(self, seat: int) -> bool:
        """Has the seat's team (the seat alone, in individual play) every pawn home?"""
        return all(self.pawns[s][0] > HOME for s in self.team_of(seat))

    def winner(self) -> tuple[int, ...] | None:
        """The winning seats (a team, or one seat in individual play), or None."""
        if not any(locs[0] > HOME for locs in self.pawns):
            return None  # the common case, checked fast: nobody has all pawns home
        for seat in range(self.seats):
            team = self.team_of(seat)
            if all(self.all_home(s) for s in team):
                return team
        return None

    def occupancy(self) -> dict[Hole, int]:
        """Physical occupancy, hole to seat, with nest pawns in the lowest nest holes."""
        out: dict[Hole, int] = {}
        for seat, locs in enumerate(self.pawns):
            nest_k = 1
            for loc in locs:
                out[location_hole(self.topology, seat, loc, nest_k)] = seat
                if loc == NEST:
                    nest_k += 1
        return out

    def __str__(self) -> str:
        rows = " | ".join(f"{s}: {' '.join(r)}" for s, r in enumerate(self.pawn_strings()))
        return f"[{self.profile.name}, seat {self.turn} to play] {rows}"


def _check_teams(seats: int, teams: str | None) -> TeamMode:
    if teams is None:
        return default_teams(seats)
    if teams == "pairs" and (seats % 2 or seats < 4):
        raise InvalidPositionError(f"teams of pairs need 4, 6 or 8 seats, not {seats}")
    return "pairs" if teams == "pairs" else "none"


def parse_loc(topo: Topology, seat: int, text: Any) -> int:
    """Parse a pawn location string (``N``, ``S``, ``T<i>``, ``H<k>``) for a seat."""
    m = _LOC_RE.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise InvalidPositionError(
            f"seat {seat}: {text!r} is not a pawn location (N, S, T<i> or H1..H4)"
        )
    if m.group(1):
        return NEST
    if m.group(2):
        return FRESH
    if m.group(3) is not None:
        i = int(m.group(3))
        if i >= topo.ring:
            raise InvalidPositionError(
                f"seat {seat}: T{i} is off the board (track is T0..T{topo.ring - 1})"
            )
        return i
    return HOME + int(m.group(4))


def loc_str(loc: int) -> str:
    """A pawn location as written in positions and moves: ``N``, ``S``, ``T<i>``, ``H<k>``."""
    if loc == NEST:
        return "N"
    if loc == FRESH:
        return "S"
    if loc > HOME:
        return f"H{loc - HOME}"
    return f"T{loc}"


def location_hole(topo: Topology, seat: int, loc: int, nest_slot: int = 1) -> Hole:
    """The physical hole of a pawn location (nest pawns: the given nest slot)."""
    if loc == NEST:
        return Hole("N", nest_slot, seat)
    if loc == FRESH:
        return Hole("T", topo.start(seat))
    if loc > HOME:
        return Hole("H", loc - HOME, seat)
    return Hole("T", loc)


assert MAX_SEATS < BLOCKADE
