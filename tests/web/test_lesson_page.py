"""Issue 26 part 2 on a real board from the page (a fake GPIO chain behind mock pins, no
card reader): the course and a learner's progress (GET /api/lessons), a lesson's step
asked (``lesson``): the board is set up as its position, a wrong move is refused with the
rule it breaks, a move that is allowed but not the task is taken back, the right one is
confirmed with why and kept in the learner's progress."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import hello, until
from test_run_mode import FakeGpio, nests, run_app
from web_helpers import ws_path

from keezbord.host.roles import Role

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _carry(gpio: FakeGpio, frm: str, to: str) -> None:
    gpio.set(frm, False)
    time.sleep(0.1)  # a hand carries a pawn: the lift is scanned before the place
    gpio.set(to, True)


def _told_after(told: int) -> Callable[[dict[str, Any]], bool]:
    return lambda s: s["setup"] is None or s["setup"]["told"] > told


def _set_up(ws: Any, gpio: FakeGpio, s: dict[str, Any]) -> dict[str, Any]:
    """Do what the lights say until the board is set up."""
    while s["setup"] is not None:
        told = s["setup"]["told"]
        leds = s["leds"]
        on = {p["hole"] for p in s["pawns"]}
        src = sorted(h for h, r in leds.items() if r == "source" and h in on)[0]
        dst = sorted(h for h, r in leds.items() if r == "target" and h not in on)[0]
        _carry(gpio, src, dst)
        s = until(ws, _told_after(told))
    return s


def test_a_lesson_step_played_on_the_board_from_the_page(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    with (
        TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path(Role.PLAYER)) as ws,
    ):
        course = c.get("/api/lessons").json()["lessons"]
        assert len(course) >= 10 and all(les["done"] == [] for les in course)
        hello(ws)
        ws.send_json({"type": "lesson", "lesson": "out", "step": 3, "learner": "Anna"})
        s = until(ws, lambda s: s["lesson"] is not None and s["setup"] is not None)
        assert s["lesson"]["task"]["en"].startswith("Blue has just come out")
        assert s["lesson"]["step"] == 3 and s["lesson"]["verdict"] is None
        assert s["instruction"]["source"] == "setup"  # the board first, then the task
        s = _set_up(ws, gpio, s)
        assert s["position"]["pawns"][0] == ["N", "N", "T2", "T12"]
        assert s["instruction"]["source"] == "lesson"
        assert s["instruction"]["text"] == s["lesson"]["task"]
        # Wrong: over blue's protected pawn. The referee refuses it, with the rule.
        _carry(gpio, "T12", "T18")
        s = until(ws, lambda s: s["lesson"]["verdict"] is not None)
        v = s["lesson"]["verdict"]
        assert v["result"] == "wrong" and v["text"]["en"].endswith("Try again.")
        assert s["flag"] is not None and s["instruction"]["source"] == "flag"  # urgent
        _carry(gpio, "T18", "T12")  # put back as the lights say
        s = until(ws, lambda s: s["flag"] is None)
        # Right: the pawn on T2 six on.
        _carry(gpio, "T2", "T8")
        s = until(ws, lambda s: (s["lesson"]["verdict"] or {}).get("result") == "right")
        assert s["lesson"]["verdict"]["text"]["nl"].startswith("Goed!")
        assert s["instruction"]["source"] != "lesson"  # done: the game goes on
        done = {x["id"]: x["done"] for x in c.get("/api/lessons?learner=Anna").json()["lessons"]}
        assert done["out"] == [3] and done["count"] == []
        assert c.get("/api/lessons?learner=%07").status_code == 400


def test_a_move_allowed_but_not_the_task_is_taken_back(tmp_path: Path) -> None:
    gpio = FakeGpio(nests())
    with (
        TestClient(run_app(tmp_path / "r.sqlite", gpio.board)) as c,
        c.websocket_connect(ws_path(Role.PLAYER)) as ws,
    ):
        hello(ws)
        ws.send_json({"type": "lesson", "lesson": "capture", "step": 2})
        s = _set_up(ws, gpio, until(ws, lambda s: s["setup"] is not None))
        _carry(gpio, "T20", "T25")  # legal, but blue on T12 was to be captured
        s = until(ws, lambda s: any(d["type"] == "undo" for d in s["decisions"]))
        assert s["lesson"]["verdict"]["result"] == "other"
        assert "behind blue" in s["lesson"]["verdict"]["text"]["en"]
        assert s["turn"] == 0  # red plays again
        assert s["instruction"]["source"] == "lesson"  # the task again
        bad_ones: list[tuple[dict[str, Any], str]] = [
            ({"lesson": "nope"}, "choose a lesson"),
            ({"step": 9}, "choose"),
        ]
        for bad, words in bad_ones:
            ws.send_json({"type": "lesson", "lesson": "out", **bad, "id": 5})
            reply = next(m for m in iter(ws.receive_json, None) if m.get("type") == "error")
            assert words in reply["text"]["en"]


def test_a_lesson_in_the_simulator_with_the_simulated_hand(tmp_path: Path) -> None:
    # keezbord sim: the simulated board shows the step's position at once, the learner
    # holds the step's hand on the page, moves on the drawn board; a move allowed but
    # not the task is taken back by the simulated table itself, the right one is kept.
    from web_helpers import sim_hub_at

    from keezbord.host.web.app import create_app

    kinds = ["human", "greedy", "greedy", "greedy"]
    make = sim_hub_at(tmp_path / "s.sqlite", 1, [["N"] * 4] * 4, kinds)
    with TestClient(create_app(make)) as c, c.websocket_connect(ws_path(Role.PLAYER)) as ws:
        hello(ws)
        msg = {"type": "lesson", "lesson": "capture", "step": 2, "learner": "Sem"}
        ws.send_json(msg)
        s = until(ws, lambda s: s["lesson"] is not None and s["game"] == 2)
        assert s["setup"] is None and s["hand"]["cards"] == ["5"]  # the step's hand only
        assert s["instruction"]["source"] == "lesson"
        on = sorted(p["hole"] for p in s["pawns"] if p["hole"].startswith("T"))
        assert on == ["T12", "T20", "T7"]
        for ev in ({"type": "card", "card": "5"}, {"type": "lift", "hole": "T20"}):
            ws.send_json(ev)
        time.sleep(0.1)
        ws.send_json({"type": "place", "hole": "T25"})
        s = until(
            ws,
            lambda s: (
                any(d["type"] == "undo" for d in s["decisions"])
                and {"T20", "T7", "T12"} <= {p["hole"] for p in s["pawns"]}
            ),
        )
        assert s["lesson"]["verdict"]["result"] == "other"
        assert "T25" not in {p["hole"] for p in s["pawns"]}
        assert s["turn"] == 0 and s["hand"]["cards"] == ["5"]  # put back: try again
        ws.send_json({"type": "card", "card": "5"})
        # The capture: blue's pawn to its nest, red's onto its hole (as a hand does it).
        sensed = {p["hole"] for p in s["pawns"]}
        nest = next(h for h in (f"N1.{k}" for k in range(1, 5)) if h not in sensed)
        for kind, hole in (("lift", "T12"), ("place", nest), ("lift", "T7"), ("place", "T12")):
            ws.send_json({"type": kind, "hole": hole})
            time.sleep(0.1)
        s = until(ws, lambda s: (s["lesson"]["verdict"] or {}).get("result") == "right")
        assert "nearly home" in s["lesson"]["verdict"]["text"]["en"]
        done = {x["id"]: x["done"] for x in c.get("/api/lessons?learner=Sem").json()["lessons"]}
        assert done["capture"] == [2]
