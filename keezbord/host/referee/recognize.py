"""Move recognition: what a board of presence switches shows, read against the legal moves.

Over 400 lines: signatures, the expectations of a card and the judgement of a board use
one another's private indexes; they are one reading of the board.

The switches sense presence only, so a board is compared with a position through its
*signature*: the occupied track and home holes, and how many pawns stand in each nest
(nest holes are interchangeable). Colours (which seat a pawn belongs to) follow from the
engine position a legal move leads to; the touch history decides between moves whose
boards look alike (jack swaps) and refuses colourings no hand could have made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations

from keezbord.engine.board import Board, to_move
from keezbord.engine.cards import RANKS
from keezbord.engine.movegen import apply_part, forward_landings
from keezbord.engine.notation import Move, Part, Step
from keezbord.engine.position import (
    BLOCKADE,
    EMPTY,
    FRESH,
    HOME,
    NEST,
    InvalidPositionError,
    Pawns,
    Position,
    location_hole,
)
from keezbord.engine.topology import Topology

from .state import Outcome, Sig

Successor = tuple[Move, Position]


# -- boards and signatures ----------------------------------------------------------------


def nest_seat(hole: str) -> int | None:
    """The seat of a nest hole name (``N2.3`` -> 2), else None."""
    return int(hole[1 : hole.index(".")]) if hole[0] == "N" else None


def board_sig(board: Iterable[str], seats: int) -> Sig:
    th: list[str] = []
    nests = [0] * seats
    for h in board:
        if h[0] == "N":  # (nest_seat inlined: every event reads the board)
            nests[int(h[1 : h.index(".")])] += 1
        else:
            th.append(h)
    return frozenset(th), tuple(nests)


# The caches below are bounded to fit a Pi (about 2 MB together at most, measured by
# bench/bench_referee.py) and keyed on the pawn tuple (with the segment: the seat count
# is its length), not on the Position: an entry never keeps a Position (and its cached
# track) alive, and its hole names are the board's shared strings, not new ones.
SIG_CACHE = 128  # a turn needs tens; each entry of the two is about 1 kB (8 seats)
EXPECTATION_CACHE = 32
PAIRS_CACHE = 32  # the candidate positions of the boards a turn judges (hands.shows)


@lru_cache(maxsize=16)
def _hole_names(seats: int, segment: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Track hole names, and per seat its home hole names (slot 1 first)."""
    topo = Topology(seats, segment)
    return (
        tuple(f"T{i}" for i in range(topo.ring)),
        tuple(tuple(f"H{s}.{k}" for k in range(1, 5)) for s in range(seats)),
    )


def colours(pos: Position) -> dict[str, int]:
    """Track and home holes of a position -> the seat of the pawn there (shared: do not
    modify)."""
    return _colours(pos.topology.segment, pos.pawns)


@lru_cache(maxsize=SIG_CACHE)
def _colours(segment: int, pawns: tuple[tuple[int, ...], ...]) -> dict[str, int]:
    track, homes = _hole_names(len(pawns), segment)
    out: dict[str, int] = {}
    for seat, locs in enumerate(pawns):
        for loc in locs:
            if loc == NEST:
                continue
            if loc > HOME:
                out[homes[seat][loc - HOME - 1]] = seat
            else:
                out[track[seat * segment if loc == FRESH else loc]] = seat
    return out


def colour_pairs(pos: Position) -> frozenset[tuple[str, int]]:
    """(hole, seat) of each track and home pawn (hands.py compares the colours the
    touches carried with every candidate move's position)."""
    return _colour_pairs(pos.topology.segment, pos.pawns)


@lru_cache(maxsize=PAIRS_CACHE)
def _colour_pairs(segment: int, pawns: tuple[tuple[int, ...], ...]) -> frozenset[tuple[str, int]]:
    return frozenset(_colours(segment, pawns).items())


def pos_sig(pos: Position) -> Sig:
    return _pos_sig(pos.topology.segment, pos.pawns)


@lru_cache(maxsize=SIG_CACHE)
def _pos_sig(segment: int, pawns: tuple[tuple[int, ...], ...]) -> Sig:
    return (
        frozenset(_colours(segment, pawns)),
        tuple(sum(1 for loc in locs if loc == NEST) for locs in pawns),
    )


def board_of(pos: Position) -> frozenset[str]:
    """The physical board of a position, nest pawns in the lowest nest holes."""
    return frozenset(h.name for h in pos.occupancy())


def changed_holes(before: Position, after: Position) -> frozenset[str]:
    """Track and home holes whose pawn (or its colour) differs."""
    a, b = colours(before), colours(after)
    return frozenset(h for h in a.keys() | b.keys() if a.get(h) != b.get(h))


def move_holes(pos: Position, move: Move) -> frozenset[str]:
    """Track and home holes whose pawn a move changes, whatever the colours: every part's
    departure and landing (a capture lands on the victim's hole; a swap changes both).
    A pawn replaced by another of the same colour is a change too (issue 11, items 1-2)."""
    topo = pos.topology
    out: set[str] = set()
    for part in move.parts:
        if isinstance(part, Step):
            if part.frm != NEST:
                out.add(location_hole(topo, part.seat, part.frm).name)
            out.add(location_hole(topo, part.seat, part.to).name)
        else:
            out.update((f"T{part.a}", f"T{part.b}"))
    return frozenset(out)


def hole_key(hole: str) -> str:
    """Nest holes are interchangeable: ``N2.3`` -> ``N2``."""
    return hole[: hole.index(".")] if hole[0] == "N" else hole


def step_from(topo: Topology, step: Step) -> str:
    return f"N{step.seat}" if step.frm == NEST else location_hole(topo, step.seat, step.frm).name


def step_to(topo: Topology, step: Step) -> str:
    return location_hole(topo, step.seat, step.to).name


def victim_of(base: Position, step: Step) -> int | None:
    """The seat of the pawn a step captures, if any."""
    topo = base.topology
    dest = topo.start(step.seat) if step.to == FRESH else step.to
    if not 0 <= dest < HOME:
        return None
    dep = topo.start(step.seat) if step.frm == FRESH else step.frm
    occ = base.at(dest)
    return None if occ == EMPTY or dest == dep else occ % BLOCKADE


def path_holes(base: Position, card: str, step: Step) -> list[str]:
    """The holes a pawn visits between departure and landing (not either end)."""
    topo = base.topology
    if step.frm == NEST:
        return []
    if card == "4":
        dep = topo.start(step.seat) if step.frm == FRESH else step.frm
        return [f"T{(dep - j) % topo.ring}" for j in (1, 2, 3)]
    to = step_to(topo, step)
    out: list[str] = []
    for j in range(1, 14):
        lands = [
            location_hole(topo, step.seat, loc).name
            for loc, _ in forward_landings(base, step.seat, step.frm, j, permissive=True)
        ]
        if to in lands:
            return out
        out.extend(lands)
    return out


# -- what a card allows ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    hole: str
    victim: int | None  # seat captured there


class Expectation:
    """The legal moves of one card in one position, indexed for recognition. Built once
    per (position, card) and cached: it is a pure function of both. Built on the fast
    board (engine/board.py: the same moves in the same order as ``successors``, tested),
    so a card tap costs no ``Position`` per move; the positions after the moves are made
    when the board is judged, and only for the moves whose board fits."""

    def __init__(self, pos: Position, card: str) -> None:
        self.pos = pos
        self.card = card
        board = Board(pos)
        legal: list[Move] = []
        keys: list[Pawns] = []
        for fm in board.moves(card, pos.turn):
            undo = board.make(fm)
            keys.append(board.key())
            board.unmake(undo)
            legal.append(to_move(fm))
        self.legal = legal
        self._keys = keys
        self._after: dict[int, Position] = {}

    def after(self, i: int) -> Position:
        """The position after legal move ``i`` (turn passed on, as ``successors``)."""
        a = self._after.get(i)
        if a is None:
            p = self.pos
            # Rows the move left alone stay the old position's tuples: the history keeps
            # this position for the rest of the game (movegen.apply shares them too).
            key = tuple(o if o == n else n for o, n in zip(p.pawns, self._keys[i], strict=True))
            a = Position(p.topology, p.profile, p.teams, (p.turn + 1) % p.seats, key)
            self._after[i] = a
        return a

    def leading_to(self, target: Position) -> Expectation:
        """This card's legal moves that lead to ``target``'s pawns, alone (a lit move:
        the board is read against it and its other orders of a 7's parts only)."""
        keep = [i for i, key in enumerate(self._keys) if key == target.pawns]
        only = object.__new__(Expectation)
        only.pos, only.card = self.pos, self.card
        only.legal = [self.legal[i] for i in keep]
        only._keys = [self._keys[i] for i in keep]
        only._after = {}
        return only

    @property
    def moves(self) -> list[Successor]:
        """Every legal move with its position (builds them all: for tests and tools)."""
        return [(m, self.after(i)) for i, m in enumerate(self.legal)]

    @cached_property
    def by_sig(self) -> dict[Sig, list[int]]:
        """Board signature after a legal move -> the indexes of the moves giving it."""
        segment = self.pos.topology.segment
        out: dict[Sig, list[int]] = {}
        for i, key in enumerate(self._keys):
            out.setdefault(_pos_sig(segment, key), []).append(i)
        return out

    def fitting(self, sig: Sig) -> list[Successor]:
        """The legal moves (with their positions) whose board is ``sig``."""
        return [(self.legal[i], self.after(i)) for i in self.by_sig.get(sig, ())]

    @cached_property
    def firsts(self) -> dict[Sig, list[tuple[Position, Step]]]:
        """For a 7: boards after a legal first part -> (that position, a second part)."""
        out: dict[Sig, list[tuple[Position, Step]]] = {}
        for m in self.legal:
            if len(m.parts) == 2 and isinstance(m.parts[1], Step):
                first = apply_part(self.pos, m.parts[0])
                out.setdefault(pos_sig(first), []).append((first, m.parts[1]))
        return out

    @cached_property
    def departures(self) -> dict[str, list[Target]]:
        """Hole key of a pawn that can move (first part) -> where it can land."""
        out: dict[str, list[Target]] = {}
        topo = self.pos.topology
        for m in self.legal:
            part = m.parts[0]
            if isinstance(part, Step):
                tgt = Target(step_to(topo, part), victim_of(self.pos, part))
                out.setdefault(step_from(topo, part), []).append(tgt)
            else:
                out.setdefault(f"T{part.a}", []).append(Target(f"T{part.b}", None))
                out.setdefault(f"T{part.b}", []).append(Target(f"T{part.a}", None))
        return out

    def second_departures(self, sig: Sig) -> dict[str, list[Target]]:
        out: dict[str, list[Target]] = {}
        topo = self.pos.topology
        for first, step in self.firsts.get(sig, []):
            out.setdefault(step_from(topo, step), []).append(
                Target(step_to(topo, step), victim_of(first, step))
            )
        return out

    @cached_property
    def patient(self) -> frozenset[Sig]:
        """Boards a person passes through while making a legal move: a pawn resting on
        a hole of its path, or a victim carried to its nest before the capturing pawn
        arrives (and both)."""
        return self._passed(counting=True)

    @cached_property
    def carried_first(self) -> frozenset[Sig]:
        """The boards of ``patient`` without a pawn resting on its path: where pawns are
        put down for good (the simulator's clicks), only a victim carried home first."""
        return self._passed(counting=False)

    def _passed(self, counting: bool) -> frozenset[Sig]:
        out: set[Sig] = set()
        # A 7's moves share their first parts (one pawn's k steps, then each second part):
        # each (position, step) is walked once, each first part applied once.
        done: set[tuple[Pawns, Step]] = set()
        after: dict[Part, Position] = {}
        for m in self.legal:
            base = self.pos
            for i, part in enumerate(m.parts):
                if isinstance(part, Step) and (base.pawns, part) not in done:
                    done.add((base.pawns, part))
                    out |= _partial_sigs(base, self.card, part, counting)
                if i == 0 and len(m.parts) > 1:
                    nxt = after.get(part)
                    if nxt is None:
                        nxt = after[part] = apply_part(base, part)
                    base = nxt
                elif i + 1 < len(m.parts):
                    base = apply_part(base, part)
        return frozenset(out)


def _partial_sigs(base: Position, card: str, step: Step, counting: bool = True) -> set[Sig]:
    topo = base.topology
    th, nests = pos_sig(base)
    frm = location_hole(topo, step.seat, step.frm).name if step.frm != NEST else None
    out: set[Sig] = set()
    victim = victim_of(base, step)
    bases = [(th, nests)]
    if victim is not None:
        vn = list(nests)
        vn[victim] += 1
        vsig = (th - {step_to(topo, step)}, tuple(vn))
        bases.append(vsig)
        out.add(vsig)
    if frm is None or not counting:
        return out
    for mid in path_holes(base, card, step):
        for bth, bn in bases:
            if mid not in bth:
                out.add(((bth - {frm}) | {mid}, bn))
    return out


@lru_cache(maxsize=EXPECTATION_CACHE)
def expectation(pos: Position, card: str) -> Expectation:
    return Expectation(pos, card)


def clear_caches() -> None:
    """Empty the caches above: after a long game was replayed to resume it, they hold
    positions long past (the web host calls this once it has opened a game)."""
    for f in (_colours, _colour_pairs, _pos_sig, expectation):
        f.cache_clear()


def expectations(pos: Position, card: str | None, reader: bool) -> list[Expectation]:
    """The cards a board is read against: the tapped card, or without a reader every
    card (in rank order: the first card that explains a move is recorded)."""
    if card is not None:
        return [expectation(pos, card)]
    if reader:
        return []
    return [expectation(pos, c) for c in RANKS]


# -- judging a board at rest -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Judgement:
    outcome: Outcome
    moves: tuple[Successor, ...] = ()  # accepted: one; ambiguous: the candidates
    also_partial: bool = False  # the board is also a legal first part of a 7


def in_lift_order(pos: Position, moves: Sequence[Successor], lifted: Sequence[str]) -> Successor:
    """Of several moves leading to one position (a 7's parts in different orders), the
    one whose parts start from holes in the order the player first lifted them; the
    first move when the lifts do not tell."""
    if len(moves) == 1 or not lifted:
        return moves[0]
    topo = pos.topology
    first = {h: i for i, h in enumerate(lifted)}

    def order(move: Move) -> list[int] | None:
        idx = []
        for part in move.parts:
            if not isinstance(part, Step) or part.frm == NEST:
                return None
            i = first.get(location_hole(topo, part.seat, part.frm).name)
            if i is None:
                return None
            idx.append(i)
        return idx

    for m, a in moves:
        idx = order(m)
        if idx is not None and idx == sorted(idx):
            return m, a
    return moves[0]


def _in_order(pos: Position, move: Move, lifted: Sequence[str]) -> bool:
    """A 7 whose second part lands where its first landed captures the first part's
    pawn: that pawn must have left its hole before the capturing one did (a pawn moved
    and then another of the same seat sent to the nest is no such 7: its pawn never
    stood on the landing hole)."""
    if len(move.parts) != 2 or not lifted:
        return True
    a, b = move.parts
    topo = pos.topology
    if not (isinstance(a, Step) and isinstance(b, Step)) or step_to(topo, a) != step_to(topo, b):
        return True
    fa, fb = step_from(topo, a), step_from(topo, b)
    if fa not in lifted or fb not in lifted:
        return True
    return lifted.index(fa) < lifted.index(fb)


def judge(
    pos: Position,
    exps: Sequence[Expectation],
    sensed: frozenset[str],
    touched: frozenset[str],
    co_empty: frozenset[tuple[str, str]],
    amb_touched: frozenset[str] = frozenset(),
    lifted: Sequence[str] = (),
    carried: Callable[[Move, Position], bool] | None = None,
    counting: bool = True,
) -> Judgement:
    """The board at rest read against the legal moves of ``exps``. ``carried``: whether
    a move and its position are what the touches carried (hands.py: colours, and each
    moved pawn where the move takes it); a move they contradict is no candidate (a swap
    undone one pawn at a time is undone)."""
    sig = board_sig(sensed, pos.seats)
    before = pos_sig(pos)
    # Distinct positions that fit, each with its first move (rank order, then generator;
    # among one card's orders of a 7's parts, the order the pawns were lifted in).
    fits: dict[tuple[tuple[int, ...], ...], tuple[Successor, bool, frozenset[str]]] = {}
    for exp in exps:
        # Only moves a hand can have made: every hole whose pawn the move changes was
        # lifted or filled this turn (a same-coloured pawn replaced counts as a change).
        made: dict[tuple[tuple[int, ...], ...], list[tuple[Successor, frozenset[str]]]] = {}
        for m, a in exp.fitting(sig):
            if a.pawns in fits:
                continue
            d = move_holes(pos, m)
            if d <= touched and (carried is None or carried(m, a)) and _in_order(pos, m, lifted):
                made.setdefault(a.pawns, []).append(((m, a), d))
        for pawns, group in made.items():
            (m, a) = in_lift_order(pos, [s for s, _ in group], lifted)
            d = next(dd for s, dd in group if s[0] == m)
            strong = all(tuple(sorted(p)) in co_empty for p in combinations(d, 2))
            if sig == before and not strong:
                continue  # a swap shows as both holes empty at once
            fits[pawns] = ((m, a), strong, d)
    partial = any(sig in exp.firsts for exp in exps if exp.card == "7")
    if fits:
        cands = list(fits.values())
        if len(cands) > 1 and any(s for _, s, _ in cands):
            cands = [c for c in cands if c[1]]
        if len(cands) > 1 and amb_touched:
            narrowed = [c for c in cands if amb_touched <= c[2]]
            cands = narrowed or cands
        if len(cands) == 1:
            return Judgement("accepted", (cands[0][0],), partial)
        return Judgement("ambiguous", tuple(c[0] for c in cands))
    if sig == before:
        return Judgement("before")
    if partial:
        return Judgement("partial")
    if any(sig in (exp.patient if counting else exp.carried_first) for exp in exps):
        return Judgement("patient")
    return Judgement("illegal")


# -- putting a board right -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Repair:
    error: tuple[str, ...]
    restore: tuple[str, ...]
    pairs: tuple[tuple[str | None, str | None], ...]


def references(
    pos: Position, exps: Sequence[Expectation], shown: Sig | None = None, undone: Sig | None = None
) -> list[Sig]:
    """Boards the players may be asked to restore: the position before the move, every
    legal move's result (a knocked pawn is put back, the move itself stays), and for a 7
    every legal first part. The nearest wins; on a tie, the legal move's board ``shown``
    at rest before a pawn of it was lifted (a knocked pawn), else the position before.
    Never ``undone``, the board of a move just taken back (RefereeState.undone)."""
    refs = [pos_sig(pos)] if shown is None else [shown, pos_sig(pos)]
    for exp in exps:
        refs.extend(exp.by_sig)
        if exp.card == "7":
            refs.extend(exp.firsts)
    return [r for r in refs if r != undone] if undone is not None else refs


def repair(topo: Topology, sensed: frozenset[str], refs: Sequence[Sig]) -> Repair:
    """What is wrong with the board against the nearest reference, and which misplaced
    pawn goes where (nearest pairs)."""
    sth, snests = board_sig(sensed, topo.seats)

    def cost(ref: Sig) -> int:
        return len(sth ^ ref[0]) + sum(abs(a - b) for a, b in zip(snests, ref[1], strict=True))

    rth, rnests = min(refs, key=cost)
    error = set(sth - rth)
    restore = set(rth - sth)
    for seat in range(topo.seats):
        have = sorted(h for h in sensed if nest_seat(h) == seat)
        diff = snests[seat] - rnests[seat]
        if diff > 0:
            error.update(have[-diff:])
        elif diff < 0:
            free = [f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in sensed]
            restore.update(free[:-diff])
    return Repair(_ordered(topo, error), _ordered(topo, restore), _pair(topo, error, restore))


def _ordered(topo: Topology, holes: Iterable[str]) -> tuple[str, ...]:
    index = {h: i for i, h in enumerate(topo.hole_names)}
    return tuple(sorted(holes, key=lambda h: index.get(h, len(index))))


def _coord(topo: Topology, hole: str) -> int:
    if hole[0] == "T":
        return int(hole[1:])
    return topo.start(int(hole[1 : hole.index(".")]))


def _pair(
    topo: Topology, error: set[str], restore: set[str]
) -> tuple[tuple[str | None, str | None], ...]:
    ring = topo.ring

    def dist(a: str, b: str) -> tuple[int, bool, str, str]:
        d = abs(_coord(topo, a) - _coord(topo, b)) % ring
        return (min(d, ring - d), a[0] != b[0], a, b)

    pairs = sorted(dist(a, b) for a in error for b in restore)
    used_a: set[str] = set()
    used_b: set[str] = set()
    out: list[tuple[str | None, str | None]] = []
    for _, _, a, b in pairs:
        if a not in used_a and b not in used_b:
            used_a.add(a)
            used_b.add(b)
            out.append((a, b))
    out.extend((a, None) for a in _ordered(topo, error - used_a))
    out.extend((None, b) for b in _ordered(topo, restore - used_b))
    return tuple(out)


def guess_after(
    pos: Position, sensed: frozenset[str], owners: Mapping[str, int] | None = None
) -> Position | None:
    """A coloured reading of the sensed board for ``explain``: pawns that left a hole
    are paired with the holes that filled (nest arrivals and home holes with pawns of
    that seat, the rest nearest first). ``owners``: the colours on the track and home
    holes where the touches tell them (hands.py), which then decide. None when no such
    reading exists."""
    topo = pos.topology
    before = colours(pos)
    known = owners or {}
    sth, snests = board_sig(sensed, pos.seats)
    pool: list[tuple[int, int]] = []  # (seat, loc) of pawns that moved
    pawns = [list(p) for p in pos.pawns]
    for seat, locs in enumerate(pos.pawns):
        for loc in locs:
            if loc == NEST:
                continue
            hole = location_hole(topo, seat, loc).name
            if hole not in sth or known.get(hole, seat) != seat:
                pool.append((seat, loc))
        leave = locs.count(NEST) - snests[seat]
        pool.extend([(seat, NEST)] * max(0, leave))
    for seat, loc in pool:
        pawns[seat].remove(loc)
    arrivals: list[tuple[str, int | None]] = [
        (h, known.get(h)) for h in sth if h not in before or known.get(h, before[h]) != before[h]
    ]
    for seat in range(pos.seats):
        arrivals.extend(("N", seat) for _ in range(snests[seat] - pos.pawns[seat].count(NEST)))
    for hole, owner in sorted(arrivals, key=lambda a: (a[0][0] != "N" and a[0][0] != "H", a[0])):
        if owner is None and hole[0] == "H":
            owner = int(hole[1 : hole.index(".")])
        options = [p for p in pool if owner is None or p[0] == owner]
        if not options:
            return None
        if hole[0] == "T":
            t = int(hole[1:])
            pick = min(
                options,
                key=lambda p: (p[1] == NEST and t != topo.start(p[0]), _loc_dist(topo, p, t)),
            )
            loc = FRESH if pick[1] == NEST and t == topo.start(pick[0]) else t
        elif hole[0] == "H":
            pick = options[0]
            loc = HOME + int(hole[hole.index(".") + 1 :])
        else:
            pick = max(options, key=lambda p: p[1] != NEST)
            loc = NEST
        pool.remove(pick)
        pawns[pick[0]].append(loc)
    if pool or any(len(p) != 4 for p in pawns):
        return None
    try:
        out = pos.replace(pawns=tuple(tuple(sorted(p)) for p in pawns))
        out.validate()
    except (InvalidPositionError, ValueError):
        return None
    return out


def _loc_dist(topo: Topology, pawn: tuple[int, int], t: int) -> int:
    seat, loc = pawn
    frm = topo.start(seat) if loc in (NEST, FRESH) or loc > HOME else loc
    return (t - frm) % topo.ring
