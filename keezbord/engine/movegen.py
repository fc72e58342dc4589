"""Legal-move generation for every card (RULES.md), lazily, python-chess style.

``successors(pos, card)`` yields ``(move, position after)`` pairs; ``legal_moves`` and
``has_legal_move`` are thin views of it. Generation stops at the first refused step of a
path; with ``permissive=True`` it keeps walking and records every rule broken instead,
which is how ``explain`` finds out what a player did wrong.

Over 400 lines: every card's generator walks the same private path helpers (forward,
backward, into the home) in both modes; the checked ``apply`` and ``is_legal`` close it.
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import BACK_STEPS, ENTER_CARDS, FORWARD_STEPS, KING_STEPS, SEVEN_STEPS, parse_card
from .notation import IllegalMoveError, InvalidMoveError, Move, Part, Step, Swap, parse_move
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST, Position
from .violations import (
    BACK_IN_HOME,
    BACK_INTO_HOME,
    BLOCKADE_LAND,
    BLOCKADE_PASS,
    CAPTURE_PARTNER,
    ENTER_OWN_START,
    FOUR_BACK_START,
    FRESH_HOME,
    HOME_PASS,
    JACK_BLOCKADE,
    JACK_NOT_OWN,
    MUST_ENTER,
    PASS_OWN,
    Violation,
)

Viols = tuple[Violation, ...]
Landing = tuple[int, Viols]
Successor = tuple[Move, Position]
Candidate = tuple[Move, Position, Viols]

_NONE: Viols = ()


# -- single-pawn walks ------------------------------------------------------------------


def forward_landings(
    pos: Position, seat: int, loc: int, steps: int, permissive: bool = False
) -> list[Landing]:
    """Where a pawn of ``seat`` at ``loc`` can land going ``steps`` forward: one landing,
    or two where ``home_entry = may_pass`` lets it choose home or another lap."""
    if loc == NEST:
        return []
    if loc > HOME:
        return _home_walk(pos, seat, loc - HOME, steps, _NONE, permissive)
    topo = pos.topology
    ring = topo.ring
    start = topo.start(seat)
    prof = pos.profile
    track = pos.track
    partner = _partner_of_mover(pos, seat)
    may_pass = prof.home_entry == "may_pass"
    dep = start if loc == FRESH else loc
    out: list[Landing] = []
    # A branch: (hole, steps left, standing on the start as a fresh pawn, violations).
    stack: list[tuple[int, int, bool, Viols]] = [(dep, steps, loc == FRESH, _NONE)]
    while stack:
        t, k, fresh_here, viol = stack.pop()
        while k > 0:
            if t == start:
                if fresh_here:
                    # A fresh pawn must leave its start before it can come home.
                    if permissive:
                        out.extend(
                            _home_walk(pos, seat, 0, k, (*viol, Violation.of(FRESH_HOME)), True)
                        )
                else:
                    out.extend(_home_walk(pos, seat, 0, k, viol, permissive))
                    if not may_pass:
                        if not permissive:
                            break
                        viol = (*viol, Violation.of(MUST_ENTER, hole=f"T{start}"))
            fresh_here = False
            t = t + 1 if t + 1 < ring else 0
            k -= 1
            occ = track[t]
            if occ == EMPTY or t == dep:
                if k == 0:
                    out.append((t, viol))
                continue
            v = _meet(occ, t, k == 0, seat, partner, prof.pass_own, prof.capture_partner)
            if v is not None:
                if not permissive:
                    break
                viol = (*viol, v)
            if k == 0:
                out.append((t, viol))
    return out


def _partner_of_mover(pos: Position, seat: int) -> int | None:
    """The seat whose pawns count as the partner's for a pawn of ``seat``: the partner of
    the player moving it. A player moving the partner's pawns (their own are home) has
    the partner's seat as partner still, so under ``capture_partner = false`` a partner's
    pawn may not land on another of the partner's pawns (RULES.md, Capture)."""
    partner = pos.partner(seat)
    if partner is not None and partner == pos.turn:
        return seat  # moved by the partner (the seat to play)
    return partner


def _meet(
    occ: int,
    t: int,
    landing: bool,
    seat: int,
    partner: int | None,
    pass_own: bool,
    capture_partner: bool,
) -> Violation | None:
    """The rule broken, if any, by passing (or landing on) the pawn ``occ`` on track hole
    ``t`` with a pawn of ``seat``."""
    if occ >= BLOCKADE:
        return Violation.of(
            BLOCKADE_LAND if landing else BLOCKADE_PASS, seat=occ - BLOCKADE, hole=f"T{t}"
        )
    if not landing:
        if occ == seat and not pass_own:
            return Violation.of(PASS_OWN, seat=seat, hole=f"T{t}")
    elif occ == partner and not capture_partner:
        return Violation.of(CAPTURE_PARTNER, seat=occ, hole=f"T{t}")
    return None


def _home_walk(
    pos: Position, seat: int, slot: int, steps: int, viol: Viols, permissive: bool
) -> list[Landing]:
    """From home slot ``slot`` (0 = the own start hole) ``steps`` further into the home."""
    target = slot + steps
    if target > 4:
        return []
    homes = pos.pawns[seat]
    if HOME + target in homes:
        return []
    for s in range(slot + 1, target):
        if HOME + s in homes:
            if not permissive:
                return []
            viol = (*viol, Violation.of(HOME_PASS, seat=seat, hole=f"H{seat}.{s}"))
    return [(HOME + target, viol)]


def backward_landings(
    pos: Position, seat: int, loc: int, permissive: bool = False
) -> list[Landing]:
    """Where a pawn can land going 4 back (never into or within a home: those are only
    produced, as violations, when ``permissive``)."""
    if loc == NEST:
        return []
    topo = pos.topology
    ring = topo.ring
    start = topo.start(seat)
    if loc > HOME:
        if not permissive:
            return []
        # Physically possible, never legal: back within the home, or out of it.
        slot = loc - HOME
        return [((start - (BACK_STEPS - slot)) % ring, (Violation.of(BACK_IN_HOME),))]
    prof = pos.profile
    track = pos.track
    partner = _partner_of_mover(pos, seat)
    dep = start if loc == FRESH else loc
    from_start = dep == start
    out: list[Landing] = []
    viol: Viols = _NONE
    t = dep
    for i in range(1, BACK_STEPS + 1):
        if permissive and t == start and i > 1:
            out.append((HOME + BACK_STEPS - i + 1, (*viol, Violation.of(BACK_INTO_HOME))))
        t = t - 1 if t else ring - 1
        last = i == BACK_STEPS
        if t == dep:
            continue
        v: Violation | None = None
        if not last and t == start and not from_start and prof.four_back == "from_start_only":
            v = Violation.of(FOUR_BACK_START, hole=f"T{start}")
        occ = track[t]
        if occ != EMPTY and v is None:
            v = _meet(occ, t, last, seat, partner, prof.pass_own, prof.capture_partner)
        if v is not None:
            if not permissive:
                return out
            viol = (*viol, v)
    out.append((t, viol))
    return out


# -- applying parts -------------------------------------------------------------------


def apply_part(pos: Position, part: Part) -> Position:
    """The position after one part, with its capture; no legality check."""
    pawns = [list(p) for p in pos.pawns]
    if isinstance(part, Swap):
        _move_pawn(pawns, part.seat_a, part.a, part.b)
        _move_pawn(pawns, part.seat_b, part.b, part.a)
    else:
        topo = pos.topology
        dest = topo.start(part.seat) if part.to == FRESH else part.to
        if 0 <= dest < HOME:
            occ = pos.at(dest)
            dep = topo.start(part.seat) if part.frm == FRESH else part.frm
            if occ != EMPTY and dest != dep:
                victim = occ % BLOCKADE
                _move_pawn(pawns, victim, FRESH if occ >= BLOCKADE else dest, NEST)
        _move_pawn(pawns, part.seat, part.frm, part.to)
    # Rows a part did not touch stay the old position's tuples (a long game's history
    # holds a position per move: shared rows keep it small).
    old = pos.pawns
    return pos.replace(
        pawns=tuple(old[i] if p == list(old[i]) else tuple(sorted(p)) for i, p in enumerate(pawns))
    )


def _move_pawn(pawns: list[list[int]], seat: int, frm: int, to: int) -> None:
    row = pawns[seat]
    row[row.index(frm)] = to


# -- generation per card --------------------------------------------------------------


def successors(pos: Position, card: str, seat: int | None = None) -> Iterator[Successor]:
    """Every legal move of ``seat`` (default: the seat to play) with ``card``, and the
    position it leads to (turn passed to the next seat clockwise)."""
    mover = pos.turn if seat is None else seat
    nxt = (mover + 1) % pos.seats
    for move, after, _ in _generate(pos, card, mover, False, None):
        yield move, after.replace(turn=nxt)


def candidates(
    pos: Position, card: str, seat: int | None = None, control: tuple[int, ...] | None = None
) -> Iterator[Candidate]:
    """Legal and illegal moves alike, each with the rules it breaks (explain uses this).
    ``control`` overrides which seats' pawns the mover may touch."""
    mover = pos.turn if seat is None else seat
    yield from _generate(pos, card, mover, True, control)


def legal_moves(pos: Position, card: str, seat: int | None = None) -> Iterator[Move]:
    for move, _ in successors(pos, card, seat):
        yield move


def has_legal_move(pos: Position, card: str, seat: int | None = None) -> bool:
    return next(successors(pos, card, seat), None) is not None


def playable_cards(
    pos: Position, hand: list[str] | tuple[str, ...], seat: int | None = None
) -> list[str]:
    """The cards of a hand that have a legal move (each distinct card checked once)."""
    ok: dict[str, bool] = {}
    for c in hand:
        if c not in ok:
            ok[c] = has_legal_move(pos, c, seat)
    return [c for c in hand if ok[c]]


def _generate(
    pos: Position, card: str, mover: int, permissive: bool, control: tuple[int, ...] | None
) -> Iterator[Candidate]:
    seats = control if control is not None else (pos.controlled_seat(mover),)
    if card in ENTER_CARDS:
        yield from _enter(pos, card, seats, permissive)
        if card == "A":
            yield from _singles(pos, card, seats, 1, permissive)
        elif pos.profile.king_13:
            yield from _singles(pos, card, seats, KING_STEPS, permissive)
    elif card in FORWARD_STEPS:
        yield from _singles(pos, card, seats, FORWARD_STEPS[card], permissive)
    elif card == "4":
        yield from _backs(pos, seats, permissive)
    elif card == "7":
        yield from _sevens(pos, mover, control, permissive)
    elif card == "J":
        yield from _jacks(pos, seats, permissive, control is not None)
    else:
        raise ValueError(f"unknown card {card!r}")


def _movable(pos: Position, seat: int) -> list[int]:
    """Distinct locations of the seat's pawns off the nest."""
    out: list[int] = []
    for loc in pos.pawns[seat]:
        if loc != NEST and (not out or out[-1] != loc):
            out.append(loc)
    return out


def _enter(
    pos: Position, card: str, seats: tuple[int, ...], permissive: bool
) -> Iterator[Candidate]:
    for seat in seats:
        if pos.pawns[seat][0] != NEST:
            continue
        start = pos.topology.start(seat)
        occ = pos.track[start]
        viol: Viols = _NONE
        if occ != EMPTY:
            if occ % BLOCKADE == seat:
                viol = (Violation.of(ENTER_OWN_START, seat=seat, hole=f"T{start}"),)
            elif occ == pos.partner(seat) and not pos.profile.capture_partner:
                viol = (Violation.of(CAPTURE_PARTNER, seat=occ, hole=f"T{start}"),)
        if viol and not permissive:
            continue
        step = Step(seat, NEST, FRESH)
        yield Move(card, (step,)), apply_part(pos, step), viol


def _singles(
    pos: Position, card: str, seats: tuple[int, ...], steps: int, permissive: bool
) -> Iterator[Candidate]:
    for seat in seats:
        for loc in _movable(pos, seat):
            for dest, viol in forward_landings(pos, seat, loc, steps, permissive):
                step = Step(seat, loc, dest)
                yield Move(card, (step,)), apply_part(pos, step), viol


def _backs(pos: Position, seats: tuple[int, ...], permissive: bool) -> Iterator[Candidate]:
    for seat in seats:
        for loc in _movable(pos, seat):
            for dest, viol in backward_landings(pos, seat, loc, permissive):
                step = Step(seat, loc, dest)
                yield Move("4", (step,)), apply_part(pos, step), viol


def _sevens(
    pos: Position, mover: int, control: tuple[int, ...] | None, permissive: bool
) -> Iterator[Candidate]:
    max_parts = pos.profile.seven_pawns

    def rec(
        p: Position,
        left: int,
        parts: tuple[Part, ...],
        viol: Viols,
        moved: frozenset[tuple[int, int]],
    ) -> Iterator[Candidate]:
        # Control is judged afresh before every part: a part that brings the player's
        # last pawn home hands the rest of the 7 to the partner's pawns.
        seats = control if control is not None else (p.controlled_seat(mover),)
        last_part = len(parts) + 1 == max_parts
        for seat in seats:
            for loc in _movable(p, seat):
                if (seat, loc) in moved:
                    continue
                for k in (left,) if last_part else range(left, 0, -1):
                    for dest, v in forward_landings(p, seat, loc, k, permissive):
                        step = Step(seat, loc, dest)
                        after = apply_part(p, step)
                        all_parts = (*parts, step)
                        all_viol = viol + v if v else viol
                        if k == left or after.team_home(mover):
                            # All 7 used, or this part completed the mover's team: the
                            # game ends at once, mid-split.
                            yield Move("7", all_parts), after, all_viol
                        else:
                            yield from rec(
                                after, left - k, all_parts, all_viol, moved | {(seat, dest)}
                            )

    yield from rec(pos, SEVEN_STEPS, (), _NONE, frozenset())


def _jacks(
    pos: Position, seats: tuple[int, ...], permissive: bool, any_control: bool
) -> Iterator[Candidate]:
    # (seat, hole, fresh) of every pawn on the track, in hole order.
    on_track: list[tuple[int, int, bool]] = []
    for t, occ in enumerate(pos.track):
        if occ != EMPTY:
            on_track.append((occ % BLOCKADE, t, occ >= BLOCKADE))
    any_two = pos.profile.jack == "any_two"
    done: set[tuple[int, int]] = set()
    for sa, a, fa in on_track:
        for sb, b, fb in on_track:
            if sa == sb or (b, a) in done:
                continue
            a_own, b_own = sa in seats, sb in seats
            if not a_own and (b_own or (not any_two and not permissive)):
                continue  # write the controlled pawn first
            viol: Viols = _NONE
            if fa or fb:
                viol = (
                    Violation.of(JACK_BLOCKADE, seat=sa if fa else sb, hole=f"T{a if fa else b}"),
                )
            if not any_two and not a_own and not b_own and not any_control:
                viol = (*viol, Violation.of(JACK_NOT_OWN))
            if viol and not permissive:
                continue
            done.add((a, b))
            swap = Swap(sa, a, sb, b)
            # A fresh pawn is only swapped in permissive mode (it loses its blockade).
            after = _swap_fresh(pos, swap, fa, fb) if fa or fb else apply_part(pos, swap)
            yield Move("J", (swap,)), after, viol


def _swap_fresh(pos: Position, swap: Swap, fa: bool, fb: bool) -> Position:
    pawns = [list(p) for p in pos.pawns]
    _move_pawn(pawns, swap.seat_a, FRESH if fa else swap.a, swap.b)
    _move_pawn(pawns, swap.seat_b, FRESH if fb else swap.b, swap.a)
    return pos.replace(pawns=tuple(tuple(sorted(p)) for p in pawns))


def successor_positions(pos: Position, card: str, seat: int | None = None) -> dict[Position, Move]:
    """Distinct positions reachable with the card, each with one move leading there."""
    out: dict[Position, Move] = {}
    for move, after in successors(pos, card, seat):
        out.setdefault(after, move)
    return out


# -- checked play (python-chess's is_legal / push) -----------------------------------------


def is_legal(pos: Position, card: str, move: Move | str) -> bool:
    """Is ``move`` (a Move or its notation) a legal move of the seat to play with ``card``?
    Malformed notation is not legal."""
    try:
        apply(pos, card, move)
    except (IllegalMoveError, InvalidMoveError):
        return False
    return True


def apply(pos: Position, card: str, move: Move | str) -> Position:
    """The position after ``move`` (a Move or its notation), played by the seat to play
    with ``card``; the turn passes to the next seat clockwise (as ``successors``).
    Raises InvalidMoveError for malformed notation, IllegalMoveError when the rules do not
    allow the move."""
    card = parse_card(card)
    if isinstance(move, str):
        move = parse_move(move, pos.topology)
    if move.card != card:
        raise IllegalMoveError(f"{move} is written for a {move.card}, not a {card}")
    for m, after in successors(pos, card):
        if m == move:
            return after
    raise IllegalMoveError(f"{move} is not legal here (seat {pos.turn} to play)")
