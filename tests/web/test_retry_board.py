"""Issue 27, "learn from your mistakes" on a real board (a fake GPIO chain behind mock
pins, the card reader's taps posted as its driver posts them): a finished game of the
board (its hands known from the cards tapped) analysed; ``retry_board`` for a labelled
decision sets the position before it up with the LEDs (done by a simulated person who
follows them, sim/follower.py), the same hand is told, the mistake made again with the
pawns is judged with judge_retry: still a mistake, taken back; then the best move."""

from __future__ import annotations

import random
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_analysis_api import get, wait_done
from test_protocol import hello, until
from test_run_mode import FakeGpio, nests
from web_helpers import options, ws_path

from keezbord.engine.game import Game
from keezbord.engine.movegen import successors
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent
from keezbord.host.roles import Role
from keezbord.host.session import GameSession
from keezbord.host.sim.follower import told_of
from keezbord.host.sim.games import simulate
from keezbord.host.sim.physical import events_for_move
from keezbord.host.sim.setting_up import person_for
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def finished_board_game(db: Path, seed: int = 4) -> int:
    """A game played to its end on a real board with a card reader (the simulator's
    events fed to a ``run`` game): every seat's hand known afterwards from its taps."""
    game = simulate(4, "standard", seed, max_turns=5000, quick_taps=0.0)
    setup = {"type": "setup", "seats": 4, "profile": "standard", "mode": "run"}
    setup["dealer"] = Game(4, "standard", seed).table.dealer
    session = GameSession.start(db, setup)
    for ev in game.events:
        session.feed(ev)
    session.tick(session.state.now + 1000)
    gid = session.game
    assert session.state.over
    session.close()
    return gid


def _events(gpio: FakeGpio, events: list[Any]) -> None:
    for ev in events:
        if isinstance(ev, HoleEvent):
            gpio.set(ev.hole, ev.action == "place")
            time.sleep(0.05)


def _tap(hub: Hub, card: str) -> None:
    """A card on the reader: the reading its driver posts to the hub."""
    hub.post(CardTap(hub.now(), card))
    time.sleep(0.2)


def _follow(ws: Any, gpio: FakeGpio, s: dict[str, Any]) -> dict[str, Any]:
    """A simulated person sets the board up as the LEDs and the line say."""
    shown = Position.start(4, "standard")
    person = person_for(shown, frozenset(p["hole"] for p in s["pawns"]), random.Random(3))
    n = 0
    while s["setup"] is not None:
        told = s["setup"]["told"]
        evs = person.respond(s["leds"], told_of(s["setup"]), 0)
        assert evs and n < 60
        _events(gpio, evs)
        n += 1

        def moved(st: dict[str, Any], told: int = told) -> bool:
            return st["setup"] is None or bool(st["setup"]["told"] > told)

        s = until(ws, moved)
    return s


def test_a_mistake_tried_again_with_the_pawns(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    gid = finished_board_game(db)
    gpio = FakeGpio(nests())
    opts = options(db, mode="run", analysis_playouts=4)
    setup = {"type": "setup", "seats": 4, "dealer": 3}
    hubs: list[Hub] = []

    def make() -> Hub:
        hubs.append(Hub.open_run(opts, setup, gpio.board))
        return hubs[-1]

    app = create_app(make)
    with TestClient(app) as c:
        wait_done(c)
        data = get(c, "/api/analysis").json()
        assert data["game"] == gid and data["people"] == [0, 1, 2, 3]  # a board: all persons
        rows = [r for r in data["rows"] if r["type"] == "decision" and r["label"]]
        # A mistake whose position has few pawns out (a short set-up) and another move; a
        # blunder: the retry judges it again at its own budget, where a loss near a
        # lower threshold may come out "good enough".
        row = min(
            (
                r
                for r in rows
                if r["hand_known"] and len(set(r["hand"])) > 1 and r["label"] == "blunder"
            ),
            key=lambda r: r["n"],
        )
        with c.websocket_connect(ws_path(Role.SPECTATOR)) as ws:
            hello(ws)
            ws.send_json({"type": "retry_board", "n": row["n"], "id": 1})
            err = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
            assert "watching only" in err["text"]["en"]
        with c.websocket_connect(ws_path(Role.PLAYER)) as ws:
            hello(ws)
            ws.send_json({"type": "retry_board", "n": row["n"]})
            s = until(ws, lambda s: s["retry"] is not None)
            rt = s["retry"]
            assert rt["n"] == row["n"] and rt["hand"] == row["hand"] and rt["game"] == gid
            assert rt["played"] == row["move"] and rt["verdict"] is None
            assert f"play move {row['n']} again" in rt["task"]["en"]
            s = _follow(ws, gpio, s)
            assert s["instruction"]["source"] == "retry"
            turn_pos = Position.from_dict(s["position"])
            # The mistake made again: still a mistake (its seed is the move's: repeatable).
            played = parse_move(row["move"], turn_pos.topology)
            after = next(a for m, a in successors(turn_pos, played.card) if m == played)
            sensed = frozenset(p["hole"] for p in s["pawns"])
            hub = hubs[-1]
            _tap(hub, played.card)
            _events(gpio, events_for_move(turn_pos, played, after, random.Random(1), 0, sensed))
            s = until(ws, lambda s: s["retry"]["verdict"] is not None, limit=2000)
            v = s["retry"]["verdict"]
            assert v["outcome"] == "mistake" and v["best"] == row["best"]["move"]
            assert v["text"]["en"].startswith("Still a mistake")
            assert v["better"]["move"] == row["best"]["move"] and v["better"]["left"]
            s = until(ws, lambda s: s["flag"] is not None)  # taken back: put it back
            on = {p["hole"] for p in s["pawns"]}
            src, dst = sorted(s["instruction"]["holes"], key=lambda h: h not in on)
            assert s["instruction"]["text"]["en"].endswith(f"from {src} back on {dst}")
            _events(gpio, [HoleEvent(0, "lift", src), HoleEvent(0, "place", dst)])
            s = until(ws, lambda s: s["flag"] is None and s["retry"]["done"] is False)
            best = parse_move(row["best"]["move"], turn_pos.topology)
            b_after = next(a for m, a in successors(turn_pos, best.card) if m == best)
            sensed = frozenset(p["hole"] for p in s["pawns"])
            _tap(hub, best.card)
            _events(gpio, events_for_move(turn_pos, best, b_after, random.Random(1), 0, sensed))
            s = until(ws, lambda s: (s["retry"]["verdict"] or {}).get("outcome") == "best")
            assert s["retry"]["verdict"]["text"]["en"].startswith("The best move")
            assert s["retry"]["done"] is True and s["retry"]["tries"] == 2
            assert s["instruction"]["source"] != "retry"
