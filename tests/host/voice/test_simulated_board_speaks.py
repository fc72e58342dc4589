"""A whole bot game on a simulated real board (``keezbord run --simulate``'s trace) spoken
on the Pi's path: every decision's words made, queued and played through ALSA to the
test's file device, in both languages; and a lesson's step and a puzzle's verdict said
from their own texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.engine.topology import Topology
from keezbord.host.config_voice import VoiceSettings
from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.events import Tick
from keezbord.host.sim.games import simulate
from keezbord.host.voice.attach import attach
from keezbord.host.voice.player import Player
from keezbord.host.voice.tasks import task_phrases
from keezbord.host.web.hub import Hub
from keezbord.host.web.options import HubOptions


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_a_simulated_board_game_is_spoken_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    out = tmp_path / "played.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.keezbordtest {{\n type file\n slave.pcm "null"\n file "{out}"\n format "raw"\n}}\n'
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    game = simulate(4, "standard", 11)
    setup = {**game.setup, "mode": "simulated"}
    hub = Hub.open_run(
        HubOptions(db=tmp_path / "j.db", mode="run"), setup, FakeBoard(), resume=False
    )
    voice = attach(hub, VoiceSettings("all", lang, "keezbordtest"))
    assert voice.queue is not None
    voice.queue.KEEP = 100_000  # keep the whole game's log
    for ev in game.events:
        hub.feed(ev)
        assert voice.queue.idle()
    hub.feed(Tick(game.events[-1].t + 1000))  # the last move settles
    assert voice.queue.idle()
    log = voice.queue.log
    said = [s.utterance.text.get(lang) for s in log if s.began_at is not None]
    moves = [s for s in log if s.utterance.kind == "move"]
    assert len(moves) == len(hub.session.state.history) == len(game.moves)
    assert all(s.error is None and not s.dropped for s in log)
    if game.winner is not None:
        assert said[-1].endswith(("het spel!", "the game!"))
    assert not any(ch in text for text in said for ch in ("→", "⇄", " T1", " T2", " T3"))
    # ALSA's file device is written anew by each aplay: it holds the last sentence said.
    assert out.stat().st_size >= len(Player().render(said[-1], lang)) - 44


T4 = Topology(4, 16)


def test_a_lesson_step_and_a_puzzle_verdict_are_said_from_their_own_texts() -> None:
    step1 = {"step": 1, "task": {"nl": "Zet een pion op T16.", "en": "Bring a pawn to T16."}}
    (u,) = task_phrases("lesson", None, step1, T4)
    assert (u.text.nl, u.text.en) == (
        "Zet een pion op de start van blauw.",
        "Bring a pawn to blue's start.",
    )
    assert task_phrases("lesson", step1, step1, T4) == []  # said once
    verdict = {
        **step1,
        "verdict": {"result": "wrong", "text": {"nl": "Nog niet.", "en": "Not yet."}},
    }
    (v,) = task_phrases("lesson", step1, verdict, T4)
    assert v.kind == "lesson_verdict" and v.dispute and v.text.nl == "Nog niet."
    puzzle = {"task": {"nl": "Vind de zet.", "en": "Find the move."}, "verdict": None}
    solved = {**puzzle, "verdict": {"outcome": "best", "text": {"nl": "Goed!", "en": "Right!"}}}
    assert [x.text.en for x in task_phrases("puzzle", puzzle, solved, T4)] == ["Right!"]
