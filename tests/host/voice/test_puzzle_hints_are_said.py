"""A puzzle's hints said when the solver asks for them on the page (its "Hint" button,
``puzzle_help``): the card, then the pawn, then the answer, each as the page shows it,
framed as a hint is ("Tip: ..." / "Hint: ..."), with the holes in words; to the whole
table (a puzzle's hand is on the page for everyone), on the board's speaker in its
language and in every page's ``voice`` (each page says it in its own)."""

from __future__ import annotations

from pathlib import Path

from puzzle_record import PUZZLE, write_puzzle_file

from keezbord.host.roles import Role
from keezbord.host.voice.attach import Voice
from keezbord.host.voice.queue import SpeechQueue
from keezbord.host.web.hub import Hub
from keezbord.host.web.options import HubOptions


def test_each_hint_and_the_answer_are_said_once_as_asked(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    # The club's file beside the journal, with the one puzzle of the tests that serve
    # puzzles from a file (blue to play on T22 with A, 6, A; the 6 captures yellow on T28).
    write_puzzle_file(tmp_path / "puzzles.jsonl")
    hub = Hub.open_sim(HubOptions(db=db), kinds=["human"] * 4)
    said: list[tuple[str, str]] = []
    voice = Voice(hub, SpeechQueue(lambda text, lang: said.append((lang, text)), "all", "nl"))
    hub.observers.append(voice.observe)
    hub.heard.append(voice.heard)
    assert voice.queue is not None
    try:
        hub.request({"type": "puzzle", "puzzle": PUZZLE["id"]}, Role.REFEREE)
        assert voice.queue.idle()
        said.clear()  # the puzzle's task, said as before
        hints = []
        for ask in ("hint", "hint", "answer"):
            hub.request({"type": "puzzle_help", "help": ask}, Role.REFEREE)
            assert voice.queue.idle()
            hints.append([t for lang, t in said])
            said.clear()
        assert hints == [
            ["Tip: speel de 6."],
            ["Tip: speel de 6, met je pion op zes na de start van blauw."],
            [hints[2][0]],
        ]
        assert hints[2][0].startswith("Het antwoord: De 6: blauw zes na de start van blauw")
        # Every page's voice (the table's words) holds them in both languages.
        table = [u for u in voice.view()["said"] if u["kind"] == "puzzle_hint"]
        assert [u["text"]["en"] for u in table][:2] == [
            "Hint: play the 6.",
            "Hint: play the 6, with your pawn on six past blue's start.",
        ]
        assert all(u["seat"] is None and not u["dispute"] for u in table) and len(table) == 3
    finally:
        voice.queue.close()
        hub.session.close()
