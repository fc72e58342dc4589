"""After the game through the app (issue 27, docs/web.md "After the game"): the state's
analysis progress, GET /api/analysis (nothing that shows a hand before the game is
over, except to the referee), the analysis kept in the journal, and GET /api/retry."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's note about httpx, at import time
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from finished import finished_sim_game
from web_helpers import TOKENS, opening_seed, options

from keezbord.host.analysis.store import load
from keezbord.host.journal import Journal
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def get(client: TestClient, path: str, token: str | None = None, **q: Any) -> Any:
    params = {**q, **({"token": token} if token else {})}
    return client.get(path, params=params)


def wait_done(client: TestClient, limit: float = 600) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        st: dict[str, Any] = get(client, "/api/state").json()
        if st["analysis"] and st["analysis"]["state"] == "done":
            return st
        time.sleep(0.2)
    raise AssertionError("the analysis did not finish")


def test_a_game_in_progress_shows_its_analysis_to_nobody_but_the_referee(tmp_path: Path) -> None:
    seed, _ = opening_seed()
    app = create_app(lambda: Hub.open_sim(options(tmp_path / "j.sqlite", seed=seed)))
    with TestClient(app) as client:
        assert get(client, "/api/state").json()["analysis"] is None
        for token in (None, TOKENS.player):
            r = get(client, "/api/analysis", token)
            assert r.status_code == 403 and "after the game" in r.json()["error"]["en"]
        assert get(client, "/api/analysis", TOKENS.referee).status_code == 404  # none yet
        assert get(client, "/api/retry", TOKENS.player, n=1).status_code == 403


def test_a_finished_game_is_analysed_kept_and_tried_again(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    gid = finished_sim_game(db)
    opts = options(db, analysis_playouts=4)
    app = create_app(lambda: Hub.open_sim(opts))
    with TestClient(app) as client:
        st = wait_done(client)
        view = st["analysis"]
        assert view["game"] == gid and view["done"] == view["total"] > 100
        data = get(client, "/api/analysis").json()  # a spectator: the game is over
        decisions = [r for r in data["rows"] if r["type"] == "decision"]
        assert len(decisions) == view["total"] == len(data["curve"])
        assert any(r["type"] == "discard" for r in data["rows"])
        assert data["people"] == [0, 2] and data["teams"] == [[0, 2], [1, 3]]
        assert all(abs(sum(c) - 1) < 1e-3 for c in data["curve"])
        summary = data["summary"]
        assert summary["decisions"] == len(decisions) and len(summary["players"]) == 4
        mine = [r for r in decisions if r["label"] and r["seat"] in (0, 2)]
        bots = [r for r in decisions if r["label"] and r["seat"] in (1, 3)]
        assert mine and bots
        # Try again: only a person's labelled move, and only for a page that plays.
        row = max(mine, key=lambda r: r["loss"])
        assert get(client, "/api/retry", None, n=row["n"]).status_code == 403
        assert get(client, "/api/retry", TOKENS.player, n=bots[0]["n"]).status_code == 404
        setup = get(client, "/api/retry", TOKENS.player, n=row["n"]).json()
        assert setup["hand"] == row["hand"] and setup["played"] == row["move"]
        best = next(
            m
            for m in setup["moves"][row["best"]["move"].split()[0]]
            if m["move"] == row["best"]["move"]
        )
        assert best["left"] and best["reached"] and best["text"]["nl"]
        v = get(client, "/api/retry", TOKENS.player, n=row["n"], move=best["move"]).json()
        assert v["outcome"] == "best" and v["text"]["en"].startswith("The best move")
        v = get(client, "/api/retry", TOKENS.player, n=row["n"], move=row["move"]).json()
        assert v["outcome"] in ("mistake", "good") and v["best"] == row["best"]["move"]
        r = get(client, "/api/retry", TOKENS.player, n=row["n"], move="Q 0:T1-T13")
        assert r.status_code == 400 and "not a legal move" in r.json()["error"]["en"]
    # Kept in the journal: a host opened again shows it without analysing anew.
    with Journal(db, readonly=True) as journal:
        kept = load(journal.db, gid)
    assert kept is not None and kept["rows"] == data["rows"]
    # `keezbord analyse` judges the same game anew to the same rows, labels and all, for
    # the same seed and playouts (the page's analyst: seed 0).
    args = ["analyse", "--db", str(db), "--game", str(gid), "--json", "--no-save"]
    cli = subprocess.run(
        [sys.executable, "-m", "keezbord", *args, "--playouts", "4", "--seed", "0", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert cli.returncode == 0, cli.stderr
    again = [json.loads(line) for line in cli.stdout.splitlines()][:-1]
    assert [r.get("label") for r in again] == [r.get("label") for r in data["rows"]]
    assert [r.get("win") for r in again] == [r.get("win") for r in data["rows"]]
    assert [r["comment"] for r in again if r.get("label")] == [
        r["comment"]["en"] for r in data["rows"] if r.get("label")
    ]
    app = create_app(lambda: Hub.open_sim(options(db, analysis_playouts=4)))
    with TestClient(app) as client:
        st = get(client, "/api/state").json()
        assert st["analysis"]["state"] == "done"
        assert get(client, "/api/analysis").json()["rows"] == data["rows"]
        v = get(client, "/api/retry", TOKENS.referee, n=row["n"], move=row["best"]["move"])
        assert v.json()["outcome"] == "best"


def _seed_with(card: str) -> int:
    """A deal whose first player is seat 0, holding ``card``."""
    from keezbord.engine.game import Game

    games = (Game(4, "standard", s) for s in range(1000))
    return next(g.seed for g in games if g.table.turn == 0 and card in g.hands[0])


def test_the_game_just_won_on_the_page_is_analysed_at_once(tmp_path: Path) -> None:
    from web_helpers import sim_hub_at, ws_path

    h4 = ["H1", "H2", "H3", "H4"]
    pawns = [["T62", "H2", "H3", "H4"], ["T10", "N", "N", "N"], h4, ["T40", "N", "N", "N"]]
    seed = _seed_with("3")
    db = tmp_path / "j.sqlite"
    make = sim_hub_at(db, seed, pawns, analysis_playouts=8)
    app = create_app(make)
    with TestClient(app) as client, client.websocket_connect(ws_path()) as ws:
        assert ws.receive_json()["type"] == "hello"
        assert ws.receive_json()["analysis"] is None
        for msg in (
            {"type": "card", "card": "3"},
            {"type": "lift", "hole": "T62"},
            {"type": "place", "hole": "H0.1"},
        ):
            ws.send_json(msg)
            time.sleep(0.1)
        st = wait_done(client, 60)
        assert st["winner"] == [0, 2]
        data = get(client, "/api/analysis", TOKENS.player).json()
        (row,) = [r for r in data["rows"] if r["type"] == "decision"]
        assert row["move"] == "3 0:T62-H1" and row["win"] == 1.0 and row["label"] is None
        assert data["summary"]["teams"][0]["end"] == 1.0
