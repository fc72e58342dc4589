"""The fast playout board: one mutable board with make/unmake and legal-move generation
on bitmasks and precomputed walks (paths.py), for self-play, the bots and search.

It gives exactly what ``movegen.successors`` gives (same moves, same order, also the
duplicates a 7 can produce), checked by tests/engine/test_fastpath.py on thousands of
random positions, but without building a ``Position`` per candidate. ``Position`` stays
the public value type: ``Board.from_position`` and ``Board.position`` convert, and
``to_move``/``from_move`` convert moves.

Moves here are small tuples: ``(card, parts)`` with each part ``(seat, frm, to)`` (a step,
location codes as in position.py) or ``(seat_a, a, seat_b, b)`` (a jack swap).

Over 400 lines: one hot loop (make, unmake and every card's generator on the same bit
masks and locals); split into modules it pays attribute look-ups on every playout.
"""

from __future__ import annotations

from typing import Final

from .cards import FORWARD_STEPS, KING_STEPS, SEVEN_STEPS
from .notation import Move, Part, Step, Swap
from .paths import paths
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST, Pawns, Position
from .profiles import Profile

FastPart = tuple[int, ...]
FastMove = tuple[str, tuple[FastPart, ...]]
# What make() changed, per part, for unmake(): a step (seat, frm, to, victim seat or -1,
# victim location), or a swap (seat_a, a, seat_b, b).
Undo = list[tuple[int, ...]]

_NO_SEAT: Final = -99  # never an occupancy code
_ALL_HOME: Final = 15  # the home bitmask with slots 1..4 filled


def to_move(move: FastMove) -> Move:
    card, parts = move
    return Move(card, tuple(Step(*p) if len(p) == 3 else Swap(*p) for p in parts))


def from_move(move: Move) -> FastMove:
    return move.card, tuple(_part(p) for p in move.parts)


def _part(p: Part) -> FastPart:
    if isinstance(p, Step):
        return (p.seat, p.frm, p.to)
    return (p.seat_a, p.a, p.seat_b, p.b)


class Board:
    """A position as mutable lists and bitmasks: ``pawns`` (locations per seat, in no
    order), ``occ`` (track occupancy codes as ``Position.track``), ``home`` (per seat, bit
    k-1 for home slot k), ``trk`` (per seat, bit t for a non-fresh pawn on track hole t),
    ``fresh`` (bit s: seat s has a fresh pawn on its start)."""

    __slots__ = (
        "any_two",
        "back",
        "fresh",
        "fwd",
        "guard",
        "home",
        "homed",
        "king_13",
        "occ",
        "own_check",
        "pairs",
        "partner",
        "pawns",
        "profile",
        "ring",
        "seats",
        "seven_pawns",
        "start",
        "strict_back",
        "team",
        "teams",
        "topology",
        "trk",
        "window",
    )

    def __init__(self, pos: Position) -> None:
        topo = pos.topology
        prof: Profile = pos.profile
        tables = paths(topo.seats, topo.segment, prof.home_entry == "may_pass")
        self.topology = topo
        self.profile = prof
        self.teams = pos.teams
        self.seats = seats = topo.seats
        self.ring = topo.ring
        self.start = tables.start
        self.fwd = tables.forward
        self.back = tables.backward
        self.window = tables.window
        self.pairs = pos.teams == "pairs"
        self.partner = tuple(
            (s + seats // 2) % seats if self.pairs else _NO_SEAT for s in range(seats)
        )
        self.team = tuple(pos.team_of(s) for s in range(seats))
        # guard[m]: the seat whose pawns player m may not land on (capture_partner = false):
        # its partner, also while m moves the partner's pawns (RULES.md, Capture).
        self.guard = tuple(
            _NO_SEAT if prof.capture_partner else self.partner[s] for s in range(seats)
        )
        self.own_check = not prof.pass_own
        self.strict_back = prof.four_back == "from_start_only"
        self.any_two = prof.jack == "any_two"
        self.king_13 = prof.king_13
        self.seven_pawns = prof.seven_pawns
        self.pawns = [list(r) for r in pos.pawns]
        self.occ = [EMPTY] * self.ring
        self.home = [0] * seats
        self.trk = [0] * seats
        self.fresh = 0
        self.homed = 0
        for seat, row in enumerate(self.pawns):
            for loc in row:
                self._fill(seat, loc)

    @classmethod
    def from_position(cls, pos: Position) -> Board:
        return cls(pos)

    # -- views --------------------------------------------------------------------------

    def key(self) -> Pawns:
        """The pawns in canonical form (``Position.pawns``)."""
        return tuple(tuple(sorted(r)) for r in self.pawns)

    def position(self, turn: int) -> Position:
        return Position(self.topology, self.profile, self.teams, turn, self.key())

    def controlled(self, mover: int) -> int:
        if self.pairs and self.home[mover] == _ALL_HOME:
            return self.partner[mover]
        return mover

    def team_home(self, seat: int) -> bool:
        home = self.home
        if home[seat] != _ALL_HOME:
            return False
        partner = self.partner[seat]
        return partner == _NO_SEAT or home[partner] == _ALL_HOME

    def winner(self) -> tuple[int, ...] | None:
        """As ``Position.winner``."""
        home = self.home
        if _ALL_HOME not in home:
            return None
        for team in self.team:
            if all(home[s] == _ALL_HOME for s in team):
                return team
        return None

    # -- make / unmake ------------------------------------------------------------------

    def make(self, move: FastMove) -> Undo:
        """Play a (legal) move, captures included; returns what unmake needs."""
        undo: Undo = []
        for p in move[1]:
            if len(p) == 3:
                seat, frm, to = p
                undo.append((seat, frm, to, *self._step(seat, frm, to)))
            else:
                self._swap(*p)
                undo.append(p)
        return undo

    def unmake(self, undo: Undo) -> None:
        for u in reversed(undo):
            if len(u) == 5:
                self._unstep(*u)
            else:
                sa, a, sb, b = u
                self._swap(sa, b, sb, a)

    def _fill(self, seat: int, loc: int) -> None:
        if loc == NEST:
            return
        if loc > HOME:
            self.home[seat] |= 1 << (loc - HOME - 1)
            self.homed += 1
        elif loc == FRESH:
            self.occ[self.start[seat]] = seat + BLOCKADE
            self.fresh |= 1 << seat
        else:
            self.occ[loc] = seat
            self.trk[seat] |= 1 << loc

    def _clear(self, seat: int, loc: int) -> None:
        if loc == NEST:
            return
        if loc > HOME:
            self.home[seat] &= ~(1 << (loc - HOME - 1))
            self.homed -= 1
        elif loc == FRESH:
            self.occ[self.start[seat]] = EMPTY
            self.fresh &= ~(1 << seat)
        else:
            self.occ[loc] = EMPTY
            self.trk[seat] &= ~(1 << loc)

    def _step(self, seat: int, frm: int, to: int) -> tuple[int, int]:
        row = self.pawns[seat]
        row[row.index(frm)] = to
        self._clear(seat, frm)
        victim, vloc = -1, NEST
        if to < HOME:
            t = self.start[seat] if to == FRESH else to
            o = self.occ[t]
            if o != EMPTY:
                victim = o % BLOCKADE
                vloc = FRESH if o >= BLOCKADE else t
                self._clear(victim, vloc)
                vrow = self.pawns[victim]
                vrow[vrow.index(vloc)] = NEST
        self._fill(seat, to)
        return victim, vloc

    def _unstep(self, seat: int, frm: int, to: int, victim: int, vloc: int) -> None:
        self._clear(seat, to)
        row = self.pawns[seat]
        row[row.index(to)] = frm
        if victim >= 0:
            vrow = self.pawns[victim]
            vrow[vrow.index(NEST)] = vloc
            self._fill(victim, vloc)
        self._fill(seat, frm)

    def _swap(self, sa: int, a: int, sb: int, b: int) -> None:
        ra, rb = self.pawns[sa], self.pawns[sb]
        ra[ra.index(a)] = b
        rb[rb.index(b)] = a
        self.occ[a] = sb
        self.occ[b] = sa
        both = (1 << a) | (1 << b)
        self.trk[sa] ^= both
        self.trk[sb] ^= both

    # -- legal moves --------------------------------------------------------------------

    def movable(self, seat: int) -> list[int]:
        """Locations of the seat's pawns off the nest, ascending (only nest pawns share
        a location)."""
        return sorted([loc for loc in self.pawns[seat] if loc != NEST])

    def forward(self, seat: int, loc: int, k: int, guard: int) -> list[int]:
        """Legal landings of the seat's pawn at ``loc`` going ``k`` forward (home first);
        ``guard``: the seat whose pawns it may not land on (``self.guard[mover]``)."""
        if loc > HOME:
            slot = loc - HOME
            target = slot + k
            if target <= 4 and not (self.home[seat] >> slot) & ((1 << k) - 1):
                return [HOME + target]
            return []
        fresh = self.fresh
        own = self.trk[seat] if self.own_check else 0
        occ = self.occ
        out: list[int] = []
        for dest, passed, starts in self.fwd[seat][self.ring if loc == FRESH else loc][k]:
            if starts & fresh or passed & own:
                continue
            if dest > HOME:
                if self.home[seat] & ((1 << (dest - HOME)) - 1):
                    continue
            else:
                o = occ[dest]
                if o != EMPTY and (o >= BLOCKADE or o == guard):
                    continue
            out.append(dest)
        return out

    def moves(self, card: str, mover: int) -> list[FastMove]:
        """Every legal move of ``mover`` with ``card``, as ``successors`` lists them."""
        seat = self.controlled(mover)
        guard = self.guard[mover]
        if card == "A" or card == "K":
            out: list[FastMove] = []
            if NEST in self.pawns[seat]:
                o = self.occ[self.start[seat]]
                if o == EMPTY or (o % BLOCKADE != seat and o != guard):
                    out.append((card, ((seat, NEST, FRESH),)))
            if card == "A":
                self._singles(out, card, seat, 1, guard)
            elif self.king_13:
                self._singles(out, card, seat, KING_STEPS, guard)
            return out
        steps = FORWARD_STEPS.get(card)
        if steps is not None:
            out = []
            self._singles(out, card, seat, steps, guard)
            return out
        if card == "4":
            return self._backs(seat, guard)
        if card == "7":
            out = []
            if self.seven_pawns == 2:
                self._sevens_two(out, mover, guard)
            else:
                self._sevens(out, mover, guard, SEVEN_STEPS, (), ())
            return out
        if card == "J":
            return self._jacks(seat)
        raise ValueError(f"unknown card {card!r}")

    def has_move(self, card: str, mover: int) -> bool:
        return bool(self.moves(card, mover))

    def _singles(self, out: list[FastMove], card: str, seat: int, k: int, guard: int) -> None:
        for loc in self.movable(seat):
            for dest in self.forward(seat, loc, k, guard):
                out.append((card, ((seat, loc, dest),)))

    def _backs(self, seat: int, guard: int) -> list[FastMove]:
        out: list[FastMove] = []
        fresh = self.fresh
        own = self.trk[seat] if self.own_check else 0
        table = self.back[seat]
        for loc in self.movable(seat):
            if loc > HOME:
                continue
            dest, passed, starts, own_start = table[self.ring if loc == FRESH else loc]
            if starts & fresh or passed & own or (own_start and self.strict_back):
                continue
            o = self.occ[dest]
            if o != EMPTY and (o >= BLOCKADE or o == guard):
                continue
            out.append(("4", ((seat, loc, dest),)))
        return out

    def _sevens(
        self,
        out: list[FastMove],
        mover: int,
        guard: int,
        left: int,
        parts: tuple[FastPart, ...],
        moved: tuple[tuple[int, int], ...],
    ) -> None:
        # Control is judged afresh before every part: a part that brings the player's
        # last pawn home hands the rest of the 7 to the partner's pawns.
        seat = self.controlled(mover)
        last_part = len(parts) + 1 == self.seven_pawns
        for loc in self.movable(seat):
            if moved and (seat, loc) in moved:
                continue
            for k in (left,) if last_part else range(left, 0, -1):
                for dest in self.forward(seat, loc, k, guard):
                    step = (seat, loc, dest)
                    if k == left:
                        out.append(("7", (*parts, step)))
                        continue
                    victim, vloc = self._step(seat, loc, dest)
                    if self.team_home(mover):
                        # This part completed the mover's team: the game ends, mid-split.
                        out.append(("7", (*parts, step)))
                    else:
                        self._sevens(
                            out, mover, guard, left - k, (*parts, step), (*moved, (seat, dest))
                        )
                    self._unstep(seat, loc, dest, victim, vloc)

    def _sevens_two(self, out: list[FastMove], mover: int, guard: int) -> None:
        """``_sevens`` unrolled for a 7 over at most two pawns (every profile today):
        the same moves in the same order, without the recursion."""
        seat = self.controlled(mover)
        for loc in self.movable(seat):
            for k in range(SEVEN_STEPS, 0, -1):
                for dest in self.forward(seat, loc, k, guard):
                    first = (seat, loc, dest)
                    if k == SEVEN_STEPS:
                        out.append(("7", (first,)))
                        continue
                    victim, vloc = self._step(seat, loc, dest)
                    if self.team_home(mover):
                        out.append(("7", (first,)))  # the game ends, mid-split
                    else:
                        seat2 = self.controlled(mover)
                        left = SEVEN_STEPS - k
                        for loc2 in self.movable(seat2):
                            if loc2 == dest and seat2 == seat:
                                continue  # the first part's pawn
                            for dest2 in self.forward(seat2, loc2, left, guard):
                                out.append(("7", (first, (seat2, loc2, dest2))))
                    self._unstep(seat, loc, dest, victim, vloc)

    def _jacks(self, seat: int) -> list[FastMove]:
        # Non-fresh track pawns in hole order (a fresh pawn is never swapped).
        on_track = sorted(
            [(loc, s) for s, row in enumerate(self.pawns) for loc in row if 0 <= loc < HOME]
        )
        out: list[FastMove] = []
        if not self.any_two:
            for a, sa in on_track:
                if sa == seat:
                    for b, sb in on_track:
                        if sb != seat:
                            out.append(("J", ((sa, a, sb, b),)))
            return out
        # any_two: the controlled pawn is written first; two others once, in hole order.
        for i, (a, sa) in enumerate(on_track):
            for j, (b, sb) in enumerate(on_track):
                if sa == sb:
                    continue
                if sa == seat or (sb != seat and j > i):
                    out.append(("J", ((sa, a, sb, b),)))
        return out
