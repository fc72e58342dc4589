"""Standings from the stored results, with a club's tie-breaks: points, then games won,
then pawns home, then head-to-head (the points the tied teams scored in their games
against each other), then the name. Pure: results in, ranked rows out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """One finished match as the standings need it."""

    home: int
    away: int
    home_points: int
    away_points: int
    home_pawns: int
    away_pawns: int
    winner: str  # "home", "away" or ""


@dataclass(frozen=True)
class Row:
    team: int
    name: str
    played: int
    won: int
    points: int
    pawns: int


def standings(names: Mapping[int, str], games: Iterable[Game]) -> list[Row]:
    games = list(games)
    tally = {t: [0, 0, 0, 0] for t in names}  # played, won, points, pawns
    for g in games:
        for team, pts, pawns, side in (
            (g.home, g.home_points, g.home_pawns, "home"),
            (g.away, g.away_points, g.away_pawns, "away"),
        ):
            row = tally.setdefault(team, [0, 0, 0, 0])
            row[0] += 1
            row[1] += g.winner == side
            row[2] += pts
            row[3] += pawns
    rows = [Row(t, names.get(t, f"#{t}"), v[0], v[1], v[2], v[3]) for t, v in tally.items()]
    rows.sort(key=lambda r: (-r.points, -r.won, -r.pawns))
    out: list[Row] = []
    i = 0
    while i < len(rows):  # groups tied on the first three: head-to-head, then name
        j = i
        key = (rows[i].points, rows[i].won, rows[i].pawns)
        while j < len(rows) and (rows[j].points, rows[j].won, rows[j].pawns) == key:
            j += 1
        group = rows[i:j]
        if len(group) > 1:
            h2h = _head_to_head({r.team for r in group}, games)
            group.sort(key=lambda r: (-h2h.get(r.team, 0), r.name))
        out.extend(group)
        i = j
    return out


def _head_to_head(teams: set[int], games: list[Game]) -> dict[int, int]:
    pts: dict[int, int] = {}
    for g in games:
        if g.home in teams and g.away in teams:
            pts[g.home] = pts.get(g.home, 0) + g.home_points
            pts[g.away] = pts.get(g.away, 0) + g.away_points
    return pts
