"""The raw win chances of the playouts made to mean what they say (issue 38).

The playouts' chances (leaf.py, averaged over sampled deals) are too cautious away from
an even game: the playouts' policy plays a weaker, more random game than the players,
and a lead converts less surely in them. The chance a person sees (the analysis's
``win``, ``best`` and chart, the coach's and the puzzles' margins, the hint) is
therefore the raw distribution over the teams sharpened by a temperature fitted per
number of seats on self-play games (bench/bench_calibration.py; docs/analysis.md,
"Calibrated win chances"):

    shown(t) = raw(t) ** T / sum over teams u of raw(u) ** T

It keeps the order of the teams, a certain result certain, and an even board even (each
of n teams 1/n); with two teams it is the logistic curve of T times the raw chance's
log-odds (Platt scaling without a shift). Plain numbers: the engine stays free of
dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from .board import Board
from .leaf import team_order
from .search import Analysis

# Fitted by ``bench/bench_calibration.py fit`` (its output, pasted): by number of seats
# (4, 6, 8 in pairs: 2, 3, 4 teams; 3 without teams).
TEMPERATURE: Final = {3: 2.025, 4: 1.09, 6: 1.366, 8: 1.357}
# The teams of those boards (standard profile); the fallback of another number of seats.
FITTED_TEAMS: Final = {4: 2, 6: 3, 8: 4, 3: 3}


def temperature_of(seats: int, teams: int) -> float:
    """The fitted temperature for ``seats``; for a number of seats not fitted, that of a
    fitted one with as many teams, else 1 (the raw chances)."""
    if seats in TEMPERATURE:
        return TEMPERATURE[seats]
    like = [s for s, n in FITTED_TEAMS.items() if n == teams]
    return TEMPERATURE[like[0]] if like else 1.0


def calibrate(dist: Sequence[float], temperature: float) -> tuple[float, ...]:
    """``dist`` (every team's raw chance, summing to 1) sharpened by ``temperature``."""
    if not dist:
        return ()
    if temperature == 1.0:
        return tuple(dist)
    # In logs: tiny chances raised to a power neither underflow nor all become 0.
    logs = [temperature * math.log(v) if v > 0.0 else -math.inf for v in dist]
    top = max(logs)
    if top == -math.inf:
        return tuple(1.0 / len(dist) for _ in dist)
    ex = [math.exp(v - top) for v in logs]
    total = sum(ex)
    return tuple(e / total for e in ex)


def shown(seats: int, dist: Sequence[float]) -> tuple[float, ...]:
    """The chances a person is shown for a board of ``seats``."""
    return calibrate(dist, temperature_of(seats, len(dist)))


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


def brier(samples: Sequence[tuple[Sequence[float], int]], temperature: float) -> float:
    """The Brier score of (every team's raw chance, the winner's index) pairs shown at
    ``temperature``: the mean over them of the squared distance between every team's
    chance and the result (1 for the winner, 0 for the others)."""
    total = 0.0
    for dist, w in samples:
        q = calibrate(dist, temperature)
        total += sum((v - (1.0 if i == w else 0.0)) ** 2 for i, v in enumerate(q))
    return total / max(1, len(samples))


def reliability(
    samples: Sequence[tuple[Sequence[float], int]], temperature: float
) -> list[tuple[int, float, float, int]]:
    """The reliability plot's points: per decile of the chance shown at ``temperature``
    (every team's chance at every sample), (decile, mean chance, share won, chances)."""
    bins: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(10)]
    for dist, w in samples:
        for i, v in enumerate(calibrate(dist, temperature)):
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
