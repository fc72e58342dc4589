"""The raw win chances of the playouts made to mean what they say (issue 38).

The playouts' chances (leaf.py, averaged over sampled deals) are too cautious away from
an even game: the playouts' policy plays a weaker, more random game than the players,
and a lead converts less surely in them. The chance a person sees (the analysis's
``win``, ``best`` and chart, the coach's and the puzzles' margins, the hint) is
therefore the raw distribution over the teams mapped by a scale fitted per number of
seats on self-play games (bench/bench_calibration.py; docs/analysis.md, "Calibrated win
chances"): each team's raw chance given a score, the scores made a distribution again,

    shown(t) = exp(score(raw(t))) / sum over teams u of exp(score(raw(u)))

A scale is a temperature ``T`` (``score(p) = T ln p``: the raw chances raised to the power
``T``, renormalised; with two teams the logistic curve of ``T`` times the raw log-odds,
Platt scaling without a shift) or, where one temperature cannot follow the data (4 teams,
3 seats without teams), a curve: the score's slope in ``ln p`` between fixed knots
(``KNOTS``), each slope at least 0. Either keeps the order of the teams, a certain result
certain and an even board even (each of n teams 1/n). Plain numbers: the engine stays free
of dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from .board import Board
from .leaf import team_order
from .search import Analysis

# Where a curve's slopes change: raw chances, evenly spaced up to 3/4 (a raw chance above
# that is a clear leader's; the last slope runs from there to 1).
KNOTS: Final = (0.15, 0.3, 0.45, 0.6, 0.75)
# A temperature, or a curve: the score's slope in ln p below KNOTS[0], then between each
# knot and the next, then above the last (len(KNOTS) + 1 slopes).
Scale = float | tuple[float, ...]

# Fitted by ``bench/bench_calibration.py fit`` (its output, pasted): by number of seats
# (4, 6, 8 in pairs: 2, 3, 4 teams; 3 without teams).
SCALES: Final[dict[int, Scale]] = {
    3: (0.887, 2.719, 1.998, 1.05, 0.0, 0.0),
    4: 1.09,
    6: 1.366,
    8: (1.876, 1.218, 1.449, 1.52, 2.261, 0.0),
}
# The teams of those boards (standard profile); the fallback of another number of seats.
FITTED_TEAMS: Final = {4: 2, 6: 3, 8: 4, 3: 3}
_LOG_KNOTS: Final = tuple(math.log(k) for k in KNOTS)


def scale_of(seats: int, teams: int) -> Scale:
    """The scale fitted for ``seats`` with its usual teams; else (another number of
    seats, or a board without teams) that of the fitted board with as many teams, else
    with the nearest number of teams (the more, on a tie): a shape follows the teams."""
    if FITTED_TEAMS.get(seats) == teams:
        return SCALES[seats]
    near = min(FITTED_TEAMS, key=lambda s: (abs(FITTED_TEAMS[s] - teams), -FITTED_TEAMS[s]))
    return SCALES[near]


def score(p: float, scale: Scale) -> float:
    """A raw chance's score (``-inf`` for 0): ``T ln p``, or the curve's integral of its
    slopes in ``ln p`` from the top (a raw chance of 1 scores 0 either way)."""
    if not p > 0.0:  # (NaN too)
        return -math.inf
    x = math.log(p)
    if isinstance(scale, float | int):
        return scale * x
    total, top = 0.0, 0.0  # walk down from ln 1 = 0, segment by segment
    for slope, edge in zip(reversed(scale), (*reversed(_LOG_KNOTS), -math.inf), strict=True):
        if x >= edge:
            return total + slope * (x - top)
        total += slope * (edge - top)
        top = edge
    return total  # (not reached: every x is at least the last edge, -inf)


def calibrate(dist: Sequence[float], scale: Scale) -> tuple[float, ...]:
    """``dist`` (every team's raw chance, summing to 1) mapped by ``scale``."""
    if not dist:
        return ()
    if scale == 1.0:
        return tuple(dist)
    # In scores (logs): tiny chances neither underflow nor all become 0.
    logs = [score(v, scale) for v in dist]
    top = max(logs)
    if top == -math.inf:
        return tuple(1.0 / len(dist) for _ in dist)
    ex = [math.exp(v - top) for v in logs]
    total = sum(ex)
    return tuple(e / total for e in ex)


def shown(seats: int, dist: Sequence[float]) -> tuple[float, ...]:
    """The chances a person is shown for a board of ``seats``."""
    return calibrate(dist, scale_of(seats, len(dist)))


def slope(seats: int, dist: Sequence[float], team: int) -> float:
    """How fast ``team``'s shown chance moves with its raw chance near ``dist`` (the
    others' raw chances shrunk in proportion to make room): carries a difference of raw
    chances, and its standard error, to the shown scale the thresholds are on."""
    p = dist[team] if 0 <= team < len(dist) else 0.0
    if not 0.0 < p < 1.0:
        return 1.0
    h = min(1e-4, (1.0 - p) / 2)
    moved = [p + h if i == team else v * (1.0 - p - h) / (1.0 - p) for i, v in enumerate(dist)]
    return (shown(seats, moved)[team] - shown(seats, dist)[team]) / h


def brier(samples: Sequence[tuple[Sequence[float], int]], scale: Scale) -> float:
    """The Brier score of (every team's raw chance, the winner's index) pairs shown at
    ``scale``: the mean over them of the squared distance between every team's
    chance and the result (1 for the winner, 0 for the others)."""
    total = 0.0
    for dist, w in samples:
        q = calibrate(dist, scale)
        total += sum((v - (1.0 if i == w else 0.0)) ** 2 for i, v in enumerate(q))
    return total / max(1, len(samples))


def reliability(
    samples: Sequence[tuple[Sequence[float], int]], scale: Scale
) -> list[tuple[int, float, float, int]]:
    """The reliability plot's points: per decile of the chance shown by ``scale``
    (every team's chance at every sample), (decile, mean chance, share won, chances)."""
    bins: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(10)]
    for dist, w in samples:
        for i, v in enumerate(calibrate(dist, scale)):
            b = bins[min(9, int(v * 10))]
            b[0] += v
            b[1] += 1.0 if i == w else 0.0
            b[2] += 1
    return [(d, b[0] / b[2], b[1] / b[2], int(b[2])) for d, b in enumerate(bins) if b[2]]


def calibrated_analysis(board: Board, a: Analysis) -> Analysis:
    """The search's result with its chances as shown (the hint's numbers); the order is
    the search's (with two teams the calibration keeps it; with more, the shown chance
    of the seat's team depends on the others' too)."""
    mine = team_order(board).index(board.team[a.seat])
    ranked = []
    for c in a.ranked:
        d = shown(board.seats, c.dist)
        if d:
            c = replace(c, total=d[mine] * c.playouts, shares=[v * c.playouts for v in d])
        ranked.append(c)
    return Analysis(a.seat, ranked, a.playouts)
