"""The coach's remark (hints "coach") said: on its own seat's device always (the page,
from the remarks the server keeps to that seat), on the board's speaker only when it
names no card of a hidden hand (its better move is played with the card played, which
lies on the reader for all to see): docs/voice.md, "Who may hear what"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance_speech import traces

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.voice.attach import Voice
from keezbord.host.voice.narrator import hidden
from keezbord.host.voice.queue import SpeechQueue
from keezbord.host.web.hub import Hub
from keezbord.host.web.options import HubOptions


def _remark(played: str, better: str) -> dict[str, Any]:
    return {
        "n": 0,
        "seat": 1,
        "played": played,
        "better": better,
        "holes": [],
        "played_win": 0.3,
        "better_win": 0.5,
        "text": {
            "nl": "Dat kon beter (flinke misser, -20%): de zeven: blauw T20 → T27 geeft je "
            "team een geschatte winkans van 50%, jouw zet 30%.",
            "en": "There was a better move (a clear miss, -20%): the seven: blue T20 → T27 "
            "gives your team an estimated win chance of 50%, yours 30%.",
        },
    }


SAME = _remark("7 1:T20-T25 1:T25-T27", "7 1:T20-T27")
OTHER = _remark("5 1:T20-T25", "7 1:T20-T27")


def test_a_remark_with_another_card_than_the_one_played_is_hidden() -> None:
    assert hidden(OTHER) and not hidden(SAME)


def test_the_board_speaker_says_the_coach_only_when_nothing_hidden(tmp_path: Path) -> None:
    setup = {**traces()["g104-2seats-nk"][0], "mode": "run"}
    hub = Hub.open_run(
        HubOptions(db=tmp_path / "j.db", mode="run"), setup, FakeBoard(), resume=False
    )
    said: list[str] = []
    voice = Voice(hub, SpeechQueue(lambda text, lang: said.append(text), "all", "nl"))
    hub.heard.append(voice.heard)
    hub.coach = OTHER
    hub.coach = SAME
    assert voice.queue is not None and voice.queue.idle()
    assert said == [
        "Coach: dat kon beter (flinke misser, -20%): de zeven: blauw vier na de start van blauw "
        "naar vijf voor de start van rood geeft je team een geschatte winkans van 50%, "
        "jouw zet 30%."
    ]
    # Not in the table's words (every page's): the seat's page says it from its remarks,
    # where the hole labels are spoken too.
    assert all(u["kind"] != "coach" for u in voice.view()["said"])
    entry = hub.remarks.entries[-1]
    assert entry["kind"] == "coach" and entry["seat"] == 1
    assert "T20" in entry["text"]["en"] and "T20" not in entry["said"]["en"]
    assert " to five before red's start" in entry["said"]["en"]
