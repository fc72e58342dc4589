"""NK competition scoring and the table penalty for partners who consult (RULES.md)."""

from __future__ import annotations

from .position import FRESH, HOME, NEST, Position

PAWN_HOME_POINTS = 2
WIN_BONUS = 10
TIME_LIMIT_MINUTES = 50


def distance_home(pos: Position, seat: int, loc: int) -> int | None:
    """Forward steps from a track pawn to its own start hole, where it turns in; a fresh
    pawn must go round the whole ring. None off the track."""
    if loc == NEST or loc > HOME:
        return None
    topo = pos.topology
    if loc == FRESH:
        return topo.ring
    return (topo.start(seat) - loc) % topo.ring


def nk_score(pos: Position, *, timed_out: bool = False) -> dict[tuple[int, ...], int]:
    """Points per team (or per seat in individual play): 2 per pawn home, 10 bonus to the
    winners unless the game was stopped by the time limit."""
    teams = sorted({pos.team_of(s) for s in range(pos.seats)})
    winner = None if timed_out else pos.winner()
    return {
        team: sum(PAWN_HOME_POINTS * pos.home_count(s) for s in team)
        + (WIN_BONUS if winner == team else 0)
        for team in teams
    }


def front_pawn(pos: Position, seat: int) -> int | None:
    """The seat's pawn on the track nearest its home by forward distance."""
    best: tuple[int, int] | None = None
    for loc in pos.pawns[seat]:
        d = distance_home(pos, seat, loc)
        if d is not None and (best is None or d < best[0]):
            best = (d, loc)
    return None if best is None else best[1]


def front_pawn_penalty(pos: Position, seat: int) -> Position:
    """The offender's front pawn goes back to its nest; if it has none on the track, the
    partner's front pawn does. Unchanged if neither has a pawn on the track."""
    for s in (seat, pos.partner(seat)):
        if s is None:
            continue
        loc = front_pawn(pos, s)
        if loc is not None:
            row = list(pos.pawns[s])
            row[row.index(loc)] = NEST
            pawns = list(pos.pawns)
            pawns[s] = tuple(sorted(row))
            return pos.replace(pawns=tuple(pawns))
    return pos
