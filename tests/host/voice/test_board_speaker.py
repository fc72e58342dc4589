"""The board's own speaker: espeak-ng renders every phrase of whole refereed games, the
queue plays them through ALSA's aplay to a device the test provides (ALSA's file plugin
behind a null sink: the samples land in a file), stale words are replaced, an undone
move is not announced after its undo, a hidden hand is never said, and a real run-mode
hub fed a conformance trace speaks it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conformance_speech import GOLDEN, spoken, traces

from keezbord.engine.text import Text
from keezbord.host.config import parse_config
from keezbord.host.config_table import ConfigError
from keezbord.host.config_voice import VoiceSettings
from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.referee.trace import input_from_dict
from keezbord.host.voice.attach import attach
from keezbord.host.voice.phrases import Utterance
from keezbord.host.voice.player import Player, VoiceError, wav_seconds
from keezbord.host.voice.queue import SpeechQueue
from keezbord.host.web.hub import Hub
from keezbord.host.web.options import HubOptions

TRACES = traces()


@pytest.fixture
def alsa_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An ALSA device ``keezbordtest`` that writes what is played to a file."""
    out = tmp_path / "played.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.keezbordtest {{\n type file\n slave.pcm "null"\n file "{out}"\n format "raw"\n}}\n'
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    return out


@pytest.mark.parametrize("name", ["g104-2seats-nk", "g101-overshoot", "g101-wrong-card"])
@pytest.mark.parametrize("lang", ["nl", "en"])
def test_espeak_renders_every_phrase_of_a_game(name: str, lang: str) -> None:
    player = Player()
    said = {u.text.get(lang) for u in spoken(TRACES[name])}
    for text in sorted(said):
        seconds = wav_seconds(player.render(text, lang))
        words = len(text.split())
        # 160 words a minute: about 0.37 s a word; a sentence between half and twice that.
        assert 0.18 * words < seconds < 0.8 * words + 1.0, (text, seconds)


def test_the_player_plays_through_alsa_to_the_given_device(alsa_file: Path) -> None:
    player = Player("keezbordtest")
    wav = player.render("Rood speelt een zeven: vijf en twee.", "nl")
    player.play(wav)
    assert alsa_file.stat().st_size >= len(wav) - 44


def test_a_device_that_is_not_there_is_one_line() -> None:
    with pytest.raises(VoiceError) as e:
        Player("nosuchdevice").say("Het bord klopt weer.", "nl")
    assert "aplay -D nosuchdevice" in str(e.value) and "\n" not in str(e.value)


def test_voice_section_of_board_toml() -> None:
    cfg = parse_config({"voice": {"level": "disputes", "language": "en", "device": "hdmi"}})
    assert cfg.voice == VoiceSettings("disputes", "en", "hdmi")
    assert parse_config({}).voice.level == "off"
    with pytest.raises(ConfigError, match=r"voice\.level"):
        parse_config({"voice": {"level": "loud"}})


class Gate:
    """A say that waits till the test lets it finish (the first sentence is being said
    while more come), recording what was said."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.go = threading.Event()
        self.began = threading.Event()
        self.stopped = 0

    def say(self, text: str, lang: str) -> None:
        self.said.append(text)
        self.began.set()
        self.go.wait(10)

    def stop(self) -> None:
        self.stopped += 1
        self.go.set()


def _u(kind: str, nl: str, dispute: bool = False, seat: int | None = None) -> Utterance:
    return Utterance(kind, Text(nl, nl), dispute, seat)


def test_a_newer_utterance_of_a_kind_replaces_a_stale_one() -> None:
    gate = Gate()
    now = [0.0]
    q = SpeechQueue(gate.say, "all", "nl", gate.stop, clock=lambda: now[0])
    q.put(_u("move", "een"))
    assert gate.began.wait(5)
    q.put(_u("move", "twee"))
    q.put(_u("move", "drie"))  # decided together with twee: both said
    q.put(_u("board", "dat mag niet", True))
    q.put(_u("board", "het bord klopt weer", True))  # a dispute's news replaces at once
    now[0] = SpeechQueue.STALE_S
    q.put(_u("move", "vier"))  # twee and drie waited too long: no news any more
    gate.go.set()
    assert q.idle()
    assert gate.said == ["een", "het bord klopt weer", "vier"]


def test_an_undone_move_is_not_announced_after_its_undo() -> None:
    gate = Gate()
    q = SpeechQueue(gate.say, "all", "nl", gate.stop)
    q.put(_u("board", "eerst"))
    assert gate.began.wait(5)
    q.put(_u("move", "rood speelt een zes"))
    q.put(_u("undo", "zet teruggenomen"))
    gate.go.set()
    assert q.idle()
    assert gate.said == ["eerst", "zet teruggenomen"]
    # The move being said when the undo comes is cut.
    gate2 = Gate()
    q2 = SpeechQueue(gate2.say, "all", "nl", gate2.stop)
    q2.put(_u("move", "rood speelt een zes"))
    assert gate2.began.wait(5)
    q2.put(_u("undo", "zet teruggenomen"))
    assert q2.idle()
    assert gate2.stopped == 1 and gate2.said == ["rood speelt een zes", "zet teruggenomen"]


def test_levels_and_hidden_hands_on_the_table_speaker() -> None:
    gate = Gate()
    gate.go.set()
    q = SpeechQueue(gate.say, "disputes", "nl", gate.stop)
    q.put(_u("move", "rood speelt"))
    q.put(_u("board", "dat mag niet", True))
    q.put(_u("hint", "speel je zeven", True, seat=0))
    assert q.idle()
    assert gate.said == ["dat mag niet"]


def test_a_run_mode_hub_fed_a_trace_speaks_it(tmp_path: Path, alsa_file: Path) -> None:
    lines = TRACES["g104-2seats-nk"]
    setup = {**lines[0], "mode": "run"}
    hub = Hub.open_run(
        HubOptions(db=tmp_path / "j.db", mode="run"), setup, FakeBoard(), resume=False
    )
    voice = attach(hub, VoiceSettings("all", "en", "keezbordtest"))
    assert voice.queue is not None
    for d in lines[1:]:
        hub.feed(input_from_dict(d))
        assert voice.queue.idle()  # one event at a time, as a person plays
    hub.feed(input_from_dict({"type": "tick", "t": int(lines[-1]["t"]) + 1000}))
    assert voice.queue.idle()
    said = [s.utterance.text.en for s in voice.queue.log if s.began_at is not None]
    golden = (GOLDEN / "g104-2seats-nk.en.txt").read_text().splitlines()
    assert said == golden
    assert all(s.error is None for s in voice.queue.log)
    # ALSA's file device is written anew by each aplay: it holds the last sentence said.
    assert alsa_file.stat().st_size >= len(Player().render(golden[-1], "en")) - 44
    page = voice.view()
    assert page["said"][-1]["text"]["nl"] == "Blauw wint het spel!"
    assert page["next"] == len(golden) + 1
