"""The ladder (bench/bench_ladder.py) as a user runs it: a small duplicate match between
bots in their own processes through the engine protocol, each deal played once per team
the first bot sits on, every game appended to the results file, a second run resuming
(nothing played twice, a resumed match at its first rates), and the report's table."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
LADDER = ROOT / "bench" / "bench_ladder.py"


def ladder(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(LADDER), *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )


def test_a_small_duplicate_match_resumes_and_reports(tmp_path: Path) -> None:
    results = tmp_path / "ladder.jsonl"
    common = ["--deals", "1", "--playouts", "2", "--results", str(results)]
    r = ladder("run", "--seats", "4", "--match", "greedy:search,random:greedy", *common)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(x) for x in results.read_text().splitlines()]
    assert len(rows) == 4
    for pair in (("greedy", "search"), ("random", "greedy")):
        games = [g for g in rows if (g["a"], g["b"]) == pair]
        # The same deal twice, the first bot on each team once.
        assert sorted(tuple(g["a_seats"]) for g in games) == [(0, 2), (1, 3)]
        assert len({g["deal"] for g in games}) == 1
        for g in games:
            assert g["a_won"] in (0, 1) and g["winner"] is not None
            assert g["a_won"] == int(g["winner"] == g["a_seats"])
    # Equal time: the ladder measures the searching engine's rate and budgets it.
    six_args = ["--deals", "1", "--movetime", "3", "--results", str(results)]
    r = ladder("run", "--seats", "6", "--match", "random:search", *six_args)
    assert r.returncode == 0, r.stderr
    six = [json.loads(x) for x in results.read_text().splitlines()][4:]
    assert sorted(tuple(g["a_seats"]) for g in six) == [(0, 3), (1, 4), (2, 5)]
    assert all(g["rate_b"] > 0 and g["rate_a"] == 0 for g in six)
    # Resumed with more deals, the match keeps the rate its first games were played at
    # (here made distinctive), not one measured on today's load.
    kept = [{**g, "rate_b": 1234} for g in six]
    head = results.read_text().splitlines()[:4]
    results.write_text("\n".join(head + [json.dumps(g) for g in kept]) + "\n")
    r = ladder("run", "--seats", "6", "--match", "random:search", *six_args[2:], "--deals", "2")
    assert r.returncode == 0, r.stderr
    assert "kept from the match's first games: playouts a second: search 1234" in r.stdout
    more = [json.loads(x) for x in results.read_text().splitlines()][7:]
    assert len(more) == 3 and all(g["rate_b"] == 1234 and g["deal"] != six[0]["deal"] for g in more)
    results.write_text("\n".join(results.read_text().splitlines()[:7]) + "\n")
    # Run again: everything is in the file already, nothing is played twice.
    r = ladder("run", "--seats", "4", "--match", "greedy:search,random:greedy", *common)
    assert r.returncode == 0 and "0 games played, 7 were already" in r.stdout, r.stdout
    assert len(results.read_text().splitlines()) == 7
    r = ladder("report", str(results))
    assert r.returncode == 0, r.stderr
    assert "| greedy | search | playouts:2 | 2 | 1 |" in r.stdout, r.stdout
    assert "| random | search | movetime:3 | 3 | 1 |" in r.stdout
    assert "6 seats (3 teams" in r.stdout and "Elo (greedy = 0)" in r.stdout


def test_the_fitted_elo_is_the_maximum_of_the_likelihood() -> None:
    # Matches that form a chain (no cycle): the most likely ratings give every match
    # its own Elo gap exactly, the prior's even game counted.
    sys.path.insert(0, str(LADDER.parent))
    bench = importlib.import_module("bench_ladder")  # a script, not a typed module
    elo_of, fit_elo = bench.elo_of, bench.fit_elo

    chain = [
        ("random", "greedy", 0.0, 200, 2),
        ("greedy", "search", 23.0, 178, 2),
        ("search", "ceiling", 146.0, 394, 2),
        ("search", "search-b80f2dd", 602.0, 1000, 2),
    ]
    elo = fit_elo(chain)
    assert elo["greedy"] == 0.0
    for a, b, w, n, t in chain:
        gap = elo_of((w + 1 / t) / (n + 1), t)
        assert abs((elo[a] - elo[b]) - gap) < 0.5, (a, b, elo, gap)
    # Three teams: one team of A against two of B.
    three = fit_elo([("greedy", "search", 2.0, 17, 3), ("search", "ceiling", 5.0, 11, 3)])
    assert abs(three["search"] - -elo_of((2 + 1 / 3) / 18, 3)) < 0.5, three
    assert abs(three["search"] - three["ceiling"] - elo_of((5 + 1 / 3) / 12, 3)) < 0.5, three
