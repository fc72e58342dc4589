"""Who plays whom: a round robin for a few teams, Swiss pairing for more.

Pure functions over team ids. A pair is ``(home, away)``; ``away`` None is a bye (an odd
number of teams: the team sits the round out; it scores nothing, docs/club.md).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

Pair = tuple[int, int | None]

ROUND_ROBIN_MAX = 6  # up to this many teams play everyone once (5 rounds at most)


def round_robin(teams: Sequence[int], round_no: int) -> list[Pair]:
    """Round ``round_no`` (1-based; it wraps around after the last) of the circle method:
    every team meets every other once in n-1 rounds (n rounded up to even)."""
    order: list[int | None] = list(teams)
    if len(order) % 2:
        order.append(None)
    n = len(order)
    if n == 0:
        return []
    r = (round_no - 1) % (n - 1)
    rest = order[1:]
    rest = rest[-r:] + rest[:-r] if r else rest
    ring = [order[0], *rest]
    pairs: list[Pair] = []
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if (r + i) % 2:  # alternate who sits at seat 0 (the home team)
            a, b = b, a
        if a is None:
            a, b = b, None
        assert a is not None
        pairs.append((a, b))
    return pairs


def swiss(
    ranked: Sequence[int], played: Collection[frozenset[int]], had_bye: Collection[int] = ()
) -> list[Pair]:
    """Swiss pairing: teams in standings order, each paired with the best-placed team it
    has not met yet (backtracking when that leaves someone without an opponent); if no
    pairing avoids every repeat, the top-down pairing with repeats. With an odd number,
    the lowest-placed team that has had no bye yet sits out."""
    teams = list(ranked)
    bye: int | None = None
    if len(teams) % 2:
        bye = next((t for t in reversed(teams) if t not in had_bye), teams[-1])
        teams.remove(bye)
    found = _pair_without_repeats(teams, {frozenset(p) for p in played})
    if found is None:
        found = [(teams[i], teams[i + 1]) for i in range(0, len(teams), 2)]
    pairs: list[Pair] = list(found)
    if bye is not None:
        pairs.append((bye, None))
    return pairs


def _pair_without_repeats(
    teams: list[int], played: set[frozenset[int]]
) -> list[tuple[int, int]] | None:
    if not teams:
        return []
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in played:
            continue
        tail = _pair_without_repeats(rest[:i] + rest[i + 1 :], played)
        if tail is not None:
            return [(first, other), *tail]
    return None


def pair_round(
    teams: Sequence[int],
    round_no: int,
    ranked: Sequence[int],
    played: Collection[frozenset[int]],
    had_bye: Collection[int] = (),
    robin_max: int = ROUND_ROBIN_MAX,
) -> tuple[str, list[Pair]]:
    """The next round's pairs and the method: ``round robin`` while the teams are few
    and the schedule has rounds left, else ``swiss``."""
    n = len(teams) + len(teams) % 2
    if len(teams) <= robin_max and round_no <= n - 1:
        return "round robin", round_robin(sorted(teams), round_no)
    return "swiss", swiss(ranked, played, had_bye)
