"""Card registry and enrollment: lookups, unknown tags in both languages, duplicates,
garbled reads, resuming, atomic saves, and the CLI with a simulated reader."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from keezbord.engine.cards import deck
from keezbord.host.card_registry import (
    CardRegistry,
    Enrollment,
    RegistryError,
    UnknownTagError,
    load_registry,
    normalise_tag,
    save_registry,
)
from keezbord.host.cli import main
from keezbord.host.commands.devices import enroll
from keezbord.host.drivers.rfid import SimReader


def tag(i: int) -> str:
    return f"04{i:012X}"


def test_lookup_and_unknown_tag_message() -> None:
    reg = CardRegistry({"04A1B2C3": "K"})
    assert reg.lookup("04a1b2c3") == "K"
    with pytest.raises(UnknownTagError) as e:
        reg.lookup("DEADBEEF")
    assert "DEADBEEF" in e.value.text.nl and "onbekende kaart" in e.value.text.nl
    assert "unknown card" in e.value.text.en and "DEADBEEF" in str(e.value)


def test_normalise_tag() -> None:
    assert normalise_tag(" 04a1b2c3 ") == "04A1B2C3"
    assert normalise_tag("0F00A1B2C3") == "0F00A1B2C3"  # RDM6300, ten characters
    for bad in ("04A1??", "04A1B2C", "", "G4A1B2C3"):
        assert normalise_tag(bad) is None


def test_registry_round_trip_atomic_save(tmp_path: Path) -> None:
    p = tmp_path / "cards.json"
    reg = CardRegistry({tag(2): "K", tag(1): "A"})
    save_registry(reg, p)
    data = json.loads(p.read_text())
    assert data == {"version": 1, "tags": {tag(1): "A", tag(2): "K"}}  # in rank order
    assert load_registry(p) == reg
    assert [x.name for x in tmp_path.iterdir()] == ["cards.json"]  # no temp file left


def test_registry_file_errors(tmp_path: Path) -> None:
    assert load_registry(tmp_path / "none.json") == CardRegistry()
    p = tmp_path / "cards.json"
    for text, msg in (
        ("{", "not valid JSON"),
        ('{"tags": []}', "'tags' object"),
        ('{"tags": {"XYZ": "K"}}', "not a tag"),
        ('{"tags": {"04A1B2C3": "Z"}}', "not a card"),
    ):
        p.write_text(text)
        with pytest.raises(RegistryError, match=msg):
            load_registry(p)


def test_enrollment_walks_the_deck_in_order() -> None:
    e = Enrollment(2, CardRegistry())
    assert e.deck == tuple(deck(2)) and len(e.deck) == 26
    assert e.next_card() == "A"
    assert "1 of 2" in e.prompt().en and "1 van 2" in e.prompt().nl
    e, r = e.tap(tag(1))
    assert r.outcome == "enrolled" and r.card == "A"
    assert "2 of 2" in e.prompt().en
    e, r = e.tap(tag(2))
    assert e.next_card() == "2" and e.progress() == (2, 26)


def test_duplicate_and_garbled_taps_change_nothing() -> None:
    e, _ = Enrollment(2, CardRegistry()).tap(tag(1))
    same, r = e.tap(tag(1).lower())
    assert r.outcome == "duplicate" and r.card == "A" and same == e
    assert "already enrolled as the ace" in r.text.en and "al ingelezen" in r.text.nl
    same, r = e.tap("04A1??")
    assert r.outcome == "garbled" and same == e
    assert "onleesbare" in r.text.nl


def test_enrollment_resumes_from_the_registry() -> None:
    reg = CardRegistry({tag(1): "A", tag(2): "A", tag(3): "2"})
    e = Enrollment(2, reg)
    assert e.progress() == (3, 26)
    assert e.remaining()[:2] == ["2", "3"]


def test_complete_deck() -> None:
    e = Enrollment(2, CardRegistry())
    for i in range(26):
        e, r = e.tap(tag(i))
        assert r.outcome == "enrolled"
    assert e.next_card() is None and "klaar" in e.prompt().nl
    assert sorted(e.registry.counts().elements()) == sorted(deck(2))
    _, r = e.tap(tag(99))
    assert r.outcome == "duplicate" and r.card is None


def test_enroll_loop_saves_after_each_card_and_can_be_resumed(tmp_path: Path) -> None:
    p = tmp_path / "cards.json"
    out = io.StringIO()
    reader = SimReader([tag(1), "junk", tag(1), tag(2), tag(3)])
    e = enroll(Enrollment(2, CardRegistry()), reader, p, "en", out, clock=lambda: 0)
    assert e.progress() == (3, 26)
    assert load_registry(p).tags == {tag(1): "A", tag(2): "A", tag(3): "2"}
    text = out.getvalue()
    assert "unreadable" in text and "already enrolled" in text
    # a second session picks up where the first stopped
    e2 = enroll(
        Enrollment(2, load_registry(p)),
        SimReader([tag(4)]),
        p,
        "nl",
        io.StringIO(),
        clock=lambda: 0,
    )
    assert e2.progress() == (4, 26) and load_registry(p).tags[tag(4)] == "2"


def test_cli_enroll_with_sim_reader_and_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text('[board]\nseats = 2\n[files]\ncards = "deck.json"\n')
    assert main(["cards", "enroll", "--config", str(cfg), "--reader", "sim"]) == 0
    reg = load_registry(tmp_path / "deck.json")
    assert sorted(reg.counts().elements()) == sorted(deck(2))
    capsys.readouterr()
    assert main(["cards", "list", "--config", str(cfg), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert " K  2/2" in out and "to enroll" not in out
    assert main(["cards", "list", "--config", str(cfg), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tags"] == reg.to_json()["tags"]


def test_cli_enroll_without_a_port_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text('[rfid]\nreader = "none"\n')
    assert main(["cards", "enroll", "--config", str(cfg)]) == 2
    assert "no card reader" in capsys.readouterr().err
