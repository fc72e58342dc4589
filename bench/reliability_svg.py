"""The reliability plot of the win chances, before and after calibration, one panel per
number of seats (bench/bench_calibration.py ``plot``; docs/img/analysis-reliability.svg).

Each panel: the chance shown (x, the mean of a decile) against how often the team won
(y), with the 95% interval of "won" (resampling the games), for the raw chances (before)
and the calibrated ones (after); the diagonal a perfect rating follows and the band of
3 points either side of it (issue 38's goal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

BEFORE = "#d55e00"  # vermilion and blue: told apart with every common colour blindness
AFTER = "#0072b2"


class Point(NamedTuple):
    rated: float
    won: float
    lo: float
    hi: float
    n: int


class Panel(NamedTuple):
    title: str  # "4 seats (2 teams)"
    note: str  # "116 games, T 1.297, Brier 0.4289 → 0.4293"
    before: Sequence[Point]
    after: Sequence[Point]


SIZE, LEFT, BOTTOM, TOP, GAP = 260, 44, 40, 44, 24


def _panel(p: Panel, ox: float, oy: float) -> list[str]:
    def x(v: float) -> float:
        return ox + LEFT + SIZE * v

    def y(v: float) -> float:
        return oy + TOP + SIZE * (1 - v)

    out = [
        f'<text x="{x(0.5)}" y="{oy + 16}" text-anchor="middle" font-size="13">{p.title}</text>',
        f'<text x="{x(0.5)}" y="{oy + 32}" text-anchor="middle" fill="#555">{p.note}</text>',
        # the goal: within 3 points of the diagonal
        f'<polygon points="{x(0)},{y(0.03)} {x(0)},{y(0)} {x(0.03)},{y(0)} {x(1)},{y(0.97)} '
        f'{x(1)},{y(1)} {x(0.97)},{y(1)}" fill="#eee"/>',
    ]
    for v in (0, 0.2, 0.4, 0.6, 0.8, 1.0):
        out.append(f'<line x1="{x(v)}" y1="{y(0)}" x2="{x(v)}" y2="{y(1)}" stroke="#ddd"/>')
        out.append(f'<line x1="{x(0)}" y1="{y(v)}" x2="{x(1)}" y2="{y(v)}" stroke="#ddd"/>')
        out.append(f'<text x="{x(v)}" y="{y(0) + 15}" text-anchor="middle">{v:.0%}</text>')
        out.append(f'<text x="{x(0) - 5}" y="{y(v) + 4}" text-anchor="end">{v:.0%}</text>')
    out.append(
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#888" '
        'stroke-dasharray="4 3"/>'
    )
    for points, colour, shift, filled in (
        (p.before, BEFORE, -0.006, False),
        (p.after, AFTER, 0.006, True),
    ):
        pts = []
        for q in points:
            if q.n == 0:
                continue
            cx = x(q.rated + shift)  # the two series side by side, not on each other
            out.append(
                f'<line x1="{cx:.1f}" y1="{y(q.lo):.1f}" x2="{cx:.1f}" y2="{y(q.hi):.1f}" '
                f'stroke="{colour}" stroke-width="1.5"/>'
            )
            fill = colour if filled else "#fff"
            out.append(
                f'<circle cx="{cx:.1f}" cy="{y(q.won):.1f}" r="3.5" fill="{fill}" '
                f'stroke="{colour}" stroke-width="1.5"/>'
            )
            pts.append(f"{cx:.1f},{y(q.won):.1f}")
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}"/>')
    return out


def reliability_svg(panels: Sequence[Panel], subtitle: str) -> str:
    """Two panels a row; the legend and the axes' names once."""
    cols = 2
    rows = (len(panels) + cols - 1) // cols
    pw, ph = LEFT + SIZE + GAP, TOP + SIZE + BOTTOM
    w, h = cols * pw + 30, rows * ph + 90
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" font-family="sans-serif" font-size="11">',
        f'<rect width="{w}" height="{h}" fill="#fff"/>',
        f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="15">'
        "Reliability of the win chances, before and after calibration</text>",
        f'<text x="{w / 2}" y="38" text-anchor="middle" fill="#555">{subtitle}</text>',
        f'<circle cx="{w / 2 - 150}" cy="54" r="3.5" fill="#fff" stroke="{BEFORE}" '
        'stroke-width="1.5"/>',
        f'<text x="{w / 2 - 142}" y="58">before (raw)</text>',
        f'<circle cx="{w / 2 - 50}" cy="54" r="3.5" fill="{AFTER}" stroke="{AFTER}"/>',
        f'<text x="{w / 2 - 42}" y="58">after (shown)</text>',
        f'<rect x="{w / 2 + 50}" y="48" width="12" height="12" fill="#eee"/>',
        f'<text x="{w / 2 + 66}" y="58">within 3 points</text>',
    ]
    for i, p in enumerate(panels):
        out += _panel(p, 30 + (i % cols) * pw, 64 + (i // cols) * ph)
    mid = 64 + rows * ph / 2
    out.append(
        f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle">'
        "win chance of the team after the move (the decile's mean); bars: 95% interval "
        "of how often it won (games resampled)</text>"
    )
    out.append(
        f'<text x="14" y="{mid}" text-anchor="middle" transform="rotate(-90 14 {mid})">'
        "how often the team won</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
