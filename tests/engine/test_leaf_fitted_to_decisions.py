"""The leaf fitted to decisions (bench/fit_leaf_decisions.py): the judge's playouts' ends
it records give back the judge's own gap for the shipped weights, to the bit, and the
stored row's at its budget; the gap's gradient in the weights is right; the playouts are
left as they were, an error or not; a subset and a join keep each decision's gap."""

from __future__ import annotations

import importlib
import json
import pickle
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import keezbord.engine.rollout as rollout
import keezbord.engine.search as search
from keezbord.engine.alternatives import evaluate_moves
from keezbord.engine.board import Board
from keezbord.engine.leaf import FEATURES, JUDGE, team_order
from keezbord.engine.puzzles import puzzle_seed
from keezbord.engine.rollout import FITTED_LEAF

np = pytest.importorskip("numpy")  # a development dependency, as the bench's
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
dfl = importlib.import_module("fit_leaf_decisions")
sources = importlib.import_module("truth_decisions")
RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


@cache
def _advice() -> list[Any]:
    return list(sources.advice_decisions(0))


def _home_decision() -> Any:
    # Red on T61 and T20 with a 5: home to H2, or the other pawn on.
    return next(d for d in _advice() if d[0] == "bring a pawn home")


def test_the_recorded_ends_give_the_judges_own_gap_for_the_shipped_weights() -> None:
    decision = _home_decision()
    name, pos, hand, known, moves, _ = decision
    [ends] = dfl.record([decision], 12)
    assert ends[0] == name and all(len(per) == 12 for per in ends[2])
    dec = dfl.Decisions.recorded([{"id": name, "truth": 0.0, "se": 0.01}], [ends])
    assert len(dec) == 1
    mine = team_order(Board(pos)).index(pos.team_of(pos.turn))
    ev = evaluate_moves(
        pos, hand, known, playouts=12, seed=puzzle_seed(name) + 5, only=moves, how=FITTED_LEAF
    )
    first, second = (ev.find(c, m, pos) for c, m in moves)
    assert first is not None and second is not None
    judged = first.raw_dist[mine] - second.raw_dist[mine]
    gap, _grad = dec.gaps(dfl.shipped_weights(len(dfl.SHIPPED)))
    assert gap[0] == pytest.approx(judged, abs=1e-9)
    # At the truth bench's budget, the gap its stored row holds for the fitted leaf.
    row = next(
        r
        for r in map(json.loads, (RESULTS / "truth-advice.jsonl").read_text().splitlines())
        if r["id"] == name
    )
    [ends] = dfl.record([decision], sources.JUDGE_PLAYOUTS)
    stored = dfl.Decisions.recorded([row], [ends]).gaps(dfl.shipped_weights(len(dfl.SHIPPED)))[0][0]
    assert round(float(stored), 4) == row["fitted_raw"]


def test_the_recorded_ends_give_the_judges_leaf_its_own_gap() -> None:
    # The playouts are the same whatever judges their ends: weighed with the judge's
    # weights (its terms: the bot's and ``shut``), they give the judge's gap.
    decision = _home_decision()
    name, pos, hand, known, moves, _ = decision
    [ends] = dfl.record([decision], 12)
    cols = [*dfl.SHIPPED, FEATURES.index("shut")]
    dec = dfl.Decisions.recorded([{"id": name, "truth": 0.0, "se": 0.01}], [ends], cols)
    mine = team_order(Board(pos)).index(pos.team_of(pos.turn))
    ev = evaluate_moves(pos, hand, known, playouts=12, seed=puzzle_seed(name) + 5, only=moves)
    first, second = (ev.find(c, m, pos) for c, m in moves)
    assert first is not None and second is not None
    gap, _grad = dec.gaps(np.array([JUDGE[i] for i in cols]))
    assert gap[0] == pytest.approx(first.raw_dist[mine] - second.raw_dist[mine], abs=1e-9)


def test_the_playouts_are_given_back_after_listening_an_error_or_not() -> None:
    before = (vars(search)["playout"], vars(rollout)["fitted_chances"])
    with dfl.Listener():
        assert vars(search)["playout"] is not before[0]
        assert vars(rollout)["fitted_chances"] is not before[1]
    assert (vars(search)["playout"], vars(rollout)["fitted_chances"]) == before
    with pytest.raises(ZeroDivisionError), dfl.Listener():
        _ = 1 / 0
    assert (vars(search)["playout"], vars(rollout)["fitted_chances"]) == before


def test_the_gap_gradient_is_the_gaps_slope() -> None:
    [ends] = dfl.record([_home_decision()], 8)
    dec = dfl.Decisions.recorded([{"id": ends[0], "truth": 0.0, "se": 0.01}], [ends])
    w = dfl.shipped_weights(len(dfl.SHIPPED))
    _gap, grad = dec.gaps(w)
    for k in (0, 2, 5, 15):  # home, deep, track, cards
        step = np.zeros_like(w)
        step[k] = 1e-6
        slope = (dec.gaps(w + step)[0][0] - dec.gaps(w - step)[0][0]) / 2e-6
        assert grad[0][k] == pytest.approx(slope, rel=1e-4, abs=1e-9)
    assert np.abs(grad).sum() > 0  # the weights move the gap


def test_a_subset_and_a_join_keep_each_decisions_gap() -> None:
    decisions = [d for d in _advice() if d[1].seats == 4][:3]
    ends = dfl.record(decisions, 6)
    rows = [{"id": e[0], "truth": 0.01 * i, "se": 0.01} for i, e in enumerate(ends)]
    dec = dfl.Decisions.recorded(rows, ends)
    w = dfl.shipped_weights(len(dfl.SHIPPED))
    whole = dec.gaps(w)[0]
    odd = dec.subset(lambda r: r["truth"] in (0.01,))
    even = dec.subset(lambda r: r["truth"] not in (0.01,))
    assert list(odd.gaps(w)[0]) == pytest.approx([whole[1]], abs=1e-12)
    joined = dfl.Decisions.joined([even, odd])
    assert list(joined.gaps(w)[0]) == pytest.approx([whole[0], whole[2], whole[1]], abs=1e-12)
    assert list(joined.truth) == [0.0, 0.02, 0.01]
    none = dec.subset(lambda r: False)
    assert len(none) == 0 and none.gaps(w)[0].shape == (0,)


def test_an_ordered_fit_keeps_a_pawn_home_worth_at_least_the_door() -> None:
    order = dfl.home_order(dfl.SHIPPED)
    shipped = dfl.shipped_weights(len(dfl.SHIPPED))
    assert (order @ shipped)[0] < -0.5  # the shipped leaf: H1 well below T61
    # Data that pushes the wrong way: entering home said to lose 30 points.
    [ends] = dfl.record([_home_decision()], 8)
    dec = dfl.Decisions.recorded([{"id": ends[0], "truth": -0.3, "se": 0.01}], [ends])
    none = np.zeros((1, len(shipped)))
    free = dfl.fit_weights(dec, none, np.zeros(1), 0.0, steps=600)
    held = dfl.fit_weights(dec, none, np.zeros(1), 0.0, order, steps=600)
    assert (order @ free).min() < -0.1
    assert (order @ held).min() > -1e-3
    assert dec.gaps(held)[0][0] > dec.gaps(free)[0][0]  # the order costs the fit


def test_ends_recorded_with_other_terms_are_refused(tmp_path: Path) -> None:
    # Recorded before ``shut`` moved into the engine's terms: the same width, another
    # order, which would be read wrong without a word.
    old = (*dfl.fit_leaf.HOME_NAMES[:16], "slack", "free", "shut")
    path = tmp_path / "ends.pkl"
    path.write_bytes(pickle.dumps({"terms": old, "data": {}}))
    with pytest.raises(SystemExit, match="recorded with other terms"):
        dfl.main(["fit", str(path)])
