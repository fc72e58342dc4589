"""An independent, deliberately plain reading of RULES.md, used only by the tests.

It works on the JSON form of positions (FORMATS.md: pawn strings per seat) and answers,
for a position and a card, the set of canonical pawn lists the legal moves lead to. It
shares no code with keezbord.engine, so agreement between the two is evidence and a
disagreement is a finding to judge against RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FORWARD = {"2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "Q": 12}

# The standard rules' flags; the other profiles as their differences from them.
STANDARD_FLAGS: dict[str, Any] = {
    "jack": "own_with_other",
    "home_entry": "must_enter",
    "four_back": "any",
    "pass_own": True,
    "capture_partner": True,
    "king_13": False,
    "seven_pawns": 2,
    "partner_exchange": False,
    "scoring": "none",
}
PROFILE_FLAGS: dict[str, dict[str, Any]] = {
    "standard": dict(STANDARD_FLAGS),
    "keezspel": {
        **STANDARD_FLAGS,
        "jack": "any_two",
        "home_entry": "may_pass",
        "four_back": "from_start_only",
        "capture_partner": False,
    },
    "wikipedia": dict(STANDARD_FLAGS),
    "reiseditie": {**STANDARD_FLAGS, "jack": "any_two", "king_13": True, "partner_exchange": True},
    "nk": {**STANDARD_FLAGS, "pass_own": False, "scoring": "nk"},
    "bordspel": dict(STANDARD_FLAGS),
}

# A pawn: ("N",), ("S",), ("T", i), ("H", k)
Pawn = tuple[Any, ...]
State = tuple[tuple[Pawn, ...], ...]


def parse(s: str) -> Pawn:
    if s == "N" or s == "S":
        return (s,)
    return (s[0], int(s[1:]))


def show(p: Pawn) -> str:
    return p[0] if len(p) == 1 else f"{p[0]}{p[1]}"


def _key(p: Pawn) -> tuple[int, int]:
    return ({"N": 0, "S": 1, "T": 2, "H": 3}[p[0]], p[1] if len(p) > 1 else 0)


def canonical(state: State) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(show(p) for p in sorted(row, key=_key)) for row in state)


@dataclass(frozen=True)
class Board:
    seats: int
    seg: int
    flags: dict[str, Any]
    pairs: bool

    @property
    def ring(self) -> int:
        return self.seats * self.seg

    def start(self, seat: int) -> int:
        return seat * self.seg

    def partner(self, seat: int) -> int | None:
        return (seat + self.seats // 2) % self.seats if self.pairs else None


def board_of(d: dict[str, Any]) -> Board:
    seats = d["seats"]
    teams = d.get("teams") or ("pairs" if seats in (4, 6, 8) else "none")
    return Board(
        seats, d.get("segment", 16), PROFILE_FLAGS[d.get("profile", "standard")], teams == "pairs"
    )


def state_of(d: dict[str, Any]) -> State:
    return tuple(tuple(parse(s) for s in row) for row in d["pawns"])


def hole_of(b: Board, seat: int, p: Pawn) -> int | None:
    """Track index of a pawn, or None off the track."""
    if p[0] == "S":
        return b.start(seat)
    if p[0] == "T":
        return int(p[1])
    return None


def track_map(b: Board, st: State) -> dict[int, tuple[int, bool]]:
    occ: dict[int, tuple[int, bool]] = {}
    for seat, row in enumerate(st):
        for p in row:
            h = hole_of(b, seat, p)
            if h is not None:
                occ[h] = (seat, p[0] == "S")
    return occ


def all_home(st: State, seat: int) -> bool:
    return all(p[0] == "H" for p in st[seat])


def controlled(b: Board, st: State, seat: int) -> int:
    if b.pairs and all_home(st, seat):
        p = b.partner(seat)
        assert p is not None
        return p
    return seat


def winner(b: Board, st: State, mover: int) -> bool:
    """Has the mover's team (or the mover, playing alone) brought every pawn home?"""
    team = [mover] if not b.pairs else [mover, b.partner(mover)]
    return all(all_home(st, s) for s in team if s is not None)


def move_pawn(b: Board, st: State, seat: int, frm: Pawn, to: Pawn) -> State:
    """Move one pawn; a pawn of any seat on the landing track hole goes to its nest."""
    rows = [list(r) for r in st]
    dest = hole_of(b, seat, to)
    if dest is not None:
        for s2, row in enumerate(rows):
            for i, p in enumerate(row):
                if hole_of(b, s2, p) == dest and not (s2 == seat and p == frm):
                    row[i] = ("N",)
    rows[seat][rows[seat].index(frm)] = to
    return tuple(tuple(r) for r in rows)


def forward_dests(
    b: Board, st: State, seat: int, p: Pawn, k: int, mover: int | None = None
) -> list[Pawn]:
    # RULES.md: a partner's pawn is any pawn of the mover's partner's seat, also when the
    # mover plays the partner's pawns.
    partner = b.partner(seat if mover is None else mover)
    homes = {q[1] for q in st[seat] if q[0] == "H"}
    if p[0] == "N":
        return []
    if p[0] == "H":
        j = int(p[1])
        if j + k > 4 or any(j + i in homes for i in range(1, k + 1)):
            return []
        return [("H", j + k)]
    occ = track_map(b, st)
    start = b.start(seat)
    here = hole_of(b, seat, p)
    assert here is not None
    del occ[here]
    out: list[Pawn] = []

    def go(t: int, left: int, fresh: bool) -> None:
        if left == 0:
            out.append(("T", t))
            return
        if t == start and not fresh:
            if left <= 4 and not any(i in homes for i in range(1, left + 1)):
                out.append(("H", left))
            if b.flags["home_entry"] == "must_enter":
                return
        nxt = (t + 1) % b.ring
        o = occ.get(nxt)
        if o is not None:
            oseat, ofresh = o
            if ofresh:
                return
            if left > 1 and oseat == seat and not b.flags["pass_own"]:
                return
            if left == 1 and oseat == partner and not b.flags["capture_partner"]:
                return
        go(nxt, left - 1, False)

    go(here, k, p[0] == "S")
    return out


def backward_dest(b: Board, st: State, seat: int, p: Pawn, mover: int | None = None) -> Pawn | None:
    partner = b.partner(seat if mover is None else mover)
    if p[0] not in ("S", "T"):
        return None
    occ = track_map(b, st)
    start = b.start(seat)
    here = hole_of(b, seat, p)
    assert here is not None
    del occ[here]
    t = here
    for i in range(1, 5):
        t = (t - 1) % b.ring
        o = occ.get(t)
        if i < 4:
            if t == start and here != start and b.flags["four_back"] == "from_start_only":
                return None
            if o is not None and (o[1] or (o[0] == seat and not b.flags["pass_own"])):
                return None
        elif o is not None and (o[1] or (o[0] == partner and not b.flags["capture_partner"])):
            return None
    return ("T", t)


def pawns_of(st: State, seat: int) -> list[Pawn]:
    return sorted({p for p in st[seat] if p[0] != "N"}, key=_key)


def forward_results(
    b: Board, st: State, seats: list[int], k: int, mover: int | None = None
) -> list[tuple[State, int, Pawn]]:
    out = []
    for seat in seats:
        for p in pawns_of(st, seat):
            for d in forward_dests(b, st, seat, p, k, mover):
                out.append((move_pawn(b, st, seat, p, d), seat, d))
    return out


def enter_results(b: Board, st: State, seat: int) -> list[State]:
    if ("N",) not in st[seat]:
        return []
    o = track_map(b, st).get(b.start(seat))
    if o is not None:
        if o[0] == seat:
            return []
        if o[0] == b.partner(seat) and not b.flags["capture_partner"]:
            return []
    return [move_pawn(b, st, seat, ("N",), ("S",))]


def results(d: dict[str, Any], card: str) -> set[tuple[tuple[str, ...], ...]]:
    """Every position (canonical pawn lists) a legal move of ``card`` leads to."""
    b = board_of(d)
    st = state_of(d)
    mover = d.get("turn", 0)
    ctl = controlled(b, st, mover)
    out: list[State] = []
    if card in ("A", "K"):
        out += enter_results(b, st, ctl)
        if card == "A":
            out += [r[0] for r in forward_results(b, st, [ctl], 1, mover)]
        elif b.flags["king_13"]:
            out += [r[0] for r in forward_results(b, st, [ctl], 13, mover)]
    elif card in FORWARD:
        out += [r[0] for r in forward_results(b, st, [ctl], FORWARD[card], mover)]
    elif card == "4":
        for p in pawns_of(st, ctl):
            dest = backward_dest(b, st, ctl, p, mover)
            if dest is not None:
                out.append(move_pawn(b, st, ctl, p, dest))
    elif card == "7":
        for k1 in range(1, 8):
            for st1, s1, d1 in forward_results(b, st, [ctl], k1, mover):
                if k1 == 7 or winner(b, st1, mover):
                    out.append(st1)
                    continue
                ctl2 = controlled(b, st1, mover)
                for p in pawns_of(st1, ctl2):
                    if (ctl2, p) == (s1, d1):
                        continue
                    for dest in forward_dests(b, st1, ctl2, p, 7 - k1, mover):
                        out.append(move_pawn(b, st1, ctl2, p, dest))
    elif card == "J":
        on_track = [(seat, p) for seat in range(b.seats) for p in st[seat] if p[0] in ("S", "T")]
        for sa, pa in on_track:
            for sb, pb in on_track:
                if sa == sb or pa[0] == "S" or pb[0] == "S":
                    continue
                if b.flags["jack"] == "own_with_other" and sa != ctl:
                    continue
                rows = [list(r) for r in st]
                rows[sa][rows[sa].index(pa)] = pb
                rows[sb][rows[sb].index(pb)] = pa
                out.append(tuple(tuple(r) for r in rows))
    else:
        raise ValueError(card)
    return {canonical(s) for s in out}
