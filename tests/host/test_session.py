"""GameSession: the snapshot a web page reads, undo, and the CLI's replay contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keezbord.host.cli import main
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.session import GameSession

SETUP = {"type": "setup", "seats": 4, "profile": "standard", "dealer": 3}


def test_snapshot_and_undo(tmp_path: Path) -> None:
    s = GameSession.start(tmp_path / "j.db", SETUP)
    s.feed(CardTap(1000, "K"))
    s.feed(HoleEvent(1100, "lift", "N0.1"))
    assert s.snapshot()["leds"].get("T0") == "target"
    s.feed(HoleEvent(1300, "place", "T0"))
    s.feed(Tick(2000))
    snap = s.snapshot()
    json.dumps(snap)
    assert snap["history"] == [{"t": 1800, "seat": 0, "card": "K", "move": "K 0:N-S"}]
    assert snap["turn"] == 1 and snap["winner"] is None
    assert snap["table"]["cards_left"] == [4, 5, 5, 5]
    s.undo_last_move(2500)
    s.feed(Tick(3100))
    snap = s.snapshot()
    assert snap["history"] == [] and snap["turn"] == 0
    assert snap["flag"]["pairs"] == [["T0", "N0.1"]]
    assert set(snap["flag"]["reason"]) == {"nl", "en"}
    s.close()


def _trace(tmp_path: Path, lines: list[str]) -> str:
    p = tmp_path / "t.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_replay_cli_prints_decisions_leds_and_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _trace(
        tmp_path,
        [
            json.dumps(SETUP),
            '{"t": 10, "type": "card", "card": "5"}',
            '{"t": 20, "type": "card", "card": "A"}',
            '{"t": 30, "type": "lift", "hole": "N0.1"}',
            '{"t": 40, "type": "place", "hole": "T0"}',
        ],
    )
    assert main(["replay", path, "--leds", "--lang", "nl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[-1]["type"] == "state"
    assert any(d["type"] == "leds" for d in out)
    [rej] = [d for d in out if d["type"] == "card_rejected"]
    assert "pion" in rej["reason"]  # Dutch
    assert [d["move"] for d in out if d["type"] == "move"] == ["A 0:N-S"]


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("not json", "line 2"),
        ('{"t": 5, "type": "lift", "hole": "T99"}', "line 2"),
        ('{"t": 5, "type": "fly"}', "line 2"),
        ('{"type": "lift", "hole": "T1"}', "line 2"),
    ],
)
def test_replay_cli_bad_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, needle: str
) -> None:
    path = _trace(tmp_path, [json.dumps(SETUP), line])
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_replay_cli_time_going_backwards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _trace(
        tmp_path, [json.dumps(SETUP), '{"t": 9, "type": "tick"}', '{"t": 5, "type": "tick"}']
    )
    assert main(["replay", path]) == 2
    assert "line 3" in capsys.readouterr().err
