"""Pairing (round robin, Swiss without repeats) and standings with their tie-breaks."""

from __future__ import annotations

import itertools

from keezbord.host.club.pairing import pair_round, round_robin, swiss
from keezbord.host.club.standings import Game, standings


def test_round_robin_meets_everyone_once() -> None:
    for n in range(2, 9):
        teams = list(range(10, 10 + n))
        rounds = n - 1 if n % 2 == 0 else n
        met: list[frozenset[int]] = []
        byes = []
        for r in range(1, rounds + 1):
            pairs = round_robin(teams, r)
            seen = [t for pair in pairs for t in pair if t is not None]
            assert sorted(seen) == teams, f"round {r} of {n}: each team once"
            met += [frozenset((a, b)) for a, b in pairs if b is not None]
            byes += [pr[0] for pr in pairs if pr[1] is None]
        assert sorted(map(sorted, met)) == sorted(
            map(sorted, map(frozenset, itertools.combinations(teams, 2)))
        )
        assert sorted(byes) == (teams if n % 2 else [])


def test_swiss_avoids_repeats_and_gives_one_bye_each() -> None:
    teams = list(range(1, 10))  # 9 teams: a bye every round
    played: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(6):
        pairs = swiss(teams, played, byes)
        games = [frozenset((a, b)) for a, b in pairs if b is not None]
        assert not set(games) & played, "no repeat opponents"
        played |= set(games)
        byes += [pr[0] for pr in pairs if pr[1] is None]
        teams = teams[3:] + teams[:3]  # a different ranking each round
    assert len(set(byes)) == len(byes) == 6


def test_swiss_pairs_top_down_and_backtracks() -> None:
    assert swiss([1, 2, 3, 4], set()) == [(1, 2), (3, 4)]
    # 1-2 met: 1 plays 3, and 2 then plays 4
    assert swiss([1, 2, 3, 4], {frozenset((1, 2))}) == [(1, 3), (2, 4)]
    # 1 met 2 and 3; 2 met 4: only 1-4 with 2-3 avoids every repeat
    played = {frozenset((1, 2)), frozenset((1, 3)), frozenset((2, 4))}
    assert swiss([1, 2, 3, 4], played) == [(1, 4), (2, 3)]
    # everyone met everyone: repeats, top-down
    everyone = {frozenset(c) for c in itertools.combinations([1, 2, 3, 4], 2)}
    assert swiss([1, 2, 3, 4], everyone) == [(1, 2), (3, 4)]


def test_pair_round_switches_to_swiss() -> None:
    assert pair_round([1, 2, 3, 4], 3, [1, 2, 3, 4], set())[0] == "round robin"
    assert pair_round([1, 2, 3, 4], 4, [4, 3, 2, 1], set())[0] == "swiss"
    assert pair_round(list(range(8)), 1, list(range(8)), set())[0] == "swiss"


def test_standings_tie_breaks() -> None:
    names = {1: "Ajax", 2: "Bolle", 3: "Citroen", 4: "Dames"}
    games = [
        Game(1, 2, 18, 4, 4, 2, "home"),  # 1 beats 2
        Game(3, 4, 8, 6, 4, 3, ""),  # stopped by the clock
        Game(2, 3, 18, 2, 4, 1, "home"),
        Game(4, 1, 10, 8, 5, 4, "home"),  # pawns counted per team
    ]
    rows = standings(names, games)
    assert [(r.name, r.points, r.won, r.pawns) for r in rows] == [
        ("Ajax", 26, 1, 8),
        ("Bolle", 22, 1, 6),
        ("Dames", 16, 1, 8),
        ("Citroen", 10, 0, 5),
    ]
    # Equal on points, wins and pawns: head-to-head decides, not the name.
    tied = [
        Game(1, 2, 6, 18, 3, 4, "away"),  # Bolle wins their own game
        Game(1, 3, 18, 0, 4, 0, "home"),
        Game(2, 3, 6, 18, 3, 4, "away"),
    ]
    rows = standings({1: "Ajax", 2: "Bolle", 3: "Citroen"}, tied)
    a, b = rows[0], rows[1]
    assert (a.points, a.won, a.pawns) == (b.points, b.won, b.pawns) == (24, 1, 7)
    assert [r.name for r in rows] == ["Bolle", "Ajax", "Citroen"]
