"""``keezbord selfplay --level`` and ``hint --level`` (issue 38, section 5): the named
levels play, a bad name or a budget given with a level is one line and exit 2."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from clihelp import assert_one_line_error, run

from keezbord.engine.levels import LEVELS

POS = {"seats": 4, "pawns": [["S", "T20", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]}


@pytest.mark.parametrize(
    "args,words",
    [
        (["selfplay", "--level", "expert"], "--level must be beginner, casual, club or strong"),
        (["selfplay", "--level", "beginner,strong"], "or 4 of them"),
        (["selfplay", "--level", "greedy"], "--level must be"),
        (["selfplay", "--level", "club", "--playouts", "5"], "leave out --playouts"),
        (["selfplay", "--level", "club", "--bot", "greedy"], "not allowed with"),
        (["hint", "--hand", "A,2", "--level", "expert", "pos.json"], "club or strong"),
        (["hint", "--hand", "A,2", "--level", "beginner", "pos.json"], "'beginner': club or"),
        (["hint", "--hand", "A,2", "--level", "club", "--playouts", "9", "pos.json"], "not al"),
    ],
)
def test_bad_levels_are_one_line(args: list[str], words: str, tmp_path: Path) -> None:
    (tmp_path / "pos.json").write_text(json.dumps(POS), encoding="utf-8")
    assert_one_line_error(run(tmp_path, *args, cwd=tmp_path), words)


def test_selfplay_plays_the_levels_and_hint_searches_at_a_levels_budget(tmp_path: Path) -> None:
    r = run(tmp_path, "selfplay", "--level", "beginner,casual,beginner,casual", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["bots"] == ["beginner", "casual", "beginner", "casual"] and out["unfinished"] == 0
    (tmp_path / "pos.json").write_text(json.dumps(POS), encoding="utf-8")
    r = run(tmp_path, "hint", "--hand", "A,2", "--level", "club", "pos.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["playouts"] == 30  # the club level's budget a decision


def test_the_engine_plays_the_beginner_with_its_mistakes() -> None:
    # Red on T10, its partner yellow on T15: the 5 sends yellow home (the beginner's
    # partner_capture), the 2 is a plain step. The greedy engine never captures yellow.
    from keezbord.host.commands.engine_protocol import Engine

    def moves(bot: str) -> list[str]:
        engine = Engine(bot)
        out = []
        for seed in range(40):
            engine.handle("position NNNT10/NNNN/NNNT15/NNNN 0 standard")
            engine.handle("hand 5 2")
            out.append(engine.handle(f"go seed {seed}")[-1])
        return out

    beginner = moves("beginner")
    assert set(beginner) == {"bestmove 5 0:T10-T15", "bestmove 2 0:T10-T12"}
    assert set(moves("greedy")) == {"bestmove 2 0:T10-T12"}


def test_each_level_has_its_elo_from_the_ladders_games(tmp_path: Path) -> None:
    # The Elo a level shows (levels.LEVELS, the page, --help) is the ladder's fit over
    # bench/results/ladder-levels-fitted.jsonl (casual, the greedy bot, = 0).
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "bench"))
    bench = importlib.import_module("bench_ladder")  # a script, not a typed module
    games = bench.games_in(root / "bench" / "results" / "ladder-levels-fitted.jsonl")
    tally: dict[tuple[str, str], list[int]] = {}
    for g in games:
        if g["a_won"] is not None:
            won = tally.setdefault((g["a"], g["b"]), [0, 0])
            won[0] += g["a_won"]
            won[1] += 1
    fit = bench.fit_elo([(a, b, float(w), n, 2) for (a, b), (w, n) in tally.items()])
    for lv in LEVELS:
        assert abs(fit[lv.bot if lv.playouts is None else lv.name] - lv.elo) < 1, (lv, fit)
    r = run(tmp_path, "selfplay", "--help")
    said = ", ".join(f"{lv.name} {lv.elo:+d}" if lv.elo else f"{lv.name} 0" for lv in LEVELS)
    assert said in " ".join(r.stdout.split())
