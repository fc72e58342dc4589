"""Bad input on the command line (issue 11 item 9 and the closing test): every command and
subcommand answers ``--help``, and every malformed input gets exit status 2 with one line
on standard error and never a traceback. Subprocesses: what a user at a shell sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import assert_one_line_error, run

from keezbord.engine.notation import InvalidMoveError, parse_move
from keezbord.engine.position import InvalidPositionError, Position, parse_loc
from keezbord.engine.topology import Topology, TopologyError
from keezbord.host.card_registry import normalise_tag
from keezbord.host.config import ConfigError, parse_config
from keezbord.host.drivers.leds import parse_colour
from keezbord.host.jsontext import MAX_DEPTH, JsonTextError, depth, loads
from keezbord.host.referee.trace import TraceError, parse_trace

SETUP = {"type": "setup", "seats": 4, "dealer": 3}
POS = {"seats": 4, "pawns": [["S", "T20", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]}
DEEP = "[" * 100_000 + "]" * 100_000  # a RecursionError in json.loads without the guard

COMMANDS = [
    ["moves"],
    ["check"],
    ["selfplay"],
    ["replay"],
    ["analyse"],
    ["engine"],
    ["puzzles"],
    ["puzzles", "list"],
    ["puzzles", "mine"],
    ["puzzles", "try"],
    ["journal"],
    ["journal", "export"],
    ["firmware"],
    ["firmware", "install"],
    ["firmware", "status"],
    ["cards"],
    ["cards", "enroll"],
    ["cards", "list"],
    ["selftest"],
    ["board"],
    ["board", "template"],
    ["board", "wiring"],
    ["board", "bom"],
    ["board", "geometry"],
    ["board", "section"],
    ["sim"],
    ["run"],
    [],
]


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: " ".join(c) or "keezbord")
def test_every_command_answers_help(cmd: list[str], tmp_path: Path) -> None:
    r = run(tmp_path, *cmd, "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: keezbord"), r.stdout
    assert r.stderr == "" and "Traceback" not in r.stdout


@pytest.fixture
def files(tmp_path: Path) -> Path:
    def put(name: str, text: str) -> None:
        (tmp_path / name).write_text(text, encoding="utf-8")

    put("deep.json", DEEP)
    put("bad.json", "{nope")
    put("pos.json", json.dumps(POS))
    off = json.loads(json.dumps(POS))
    off["pawns"][0][1] = "T999"
    put("offboard.json", json.dumps(off))
    nl = json.loads(json.dumps(POS))
    nl["pawns"][0][1] = "T20\n"
    put("newline.json", json.dumps(nl))
    put("notutf8.json", "")
    (tmp_path / "notutf8.json").write_bytes(b"\xff\xfe{")
    setup = json.dumps(SETUP)
    put("deep.jsonl", setup + "\n" + DEEP + "\n")
    put("deepsetup.jsonl", DEEP + "\n")
    put(
        "hole-newline.jsonl",
        setup + "\n" + json.dumps({"t": 1, "type": "lift", "hole": "T0\n"}) + "\n",
    )
    put(
        "hole-digits.jsonl",
        setup + "\n" + json.dumps({"t": 1, "type": "place", "hole": "T\u0663"}) + "\n",
    )
    # A card event whose card is no text is no event; an odd card name or tag is one
    # (the referee's card_rejected, tests/host/referee/test_card_discipline.py).
    put("card-number.jsonl", setup + "\n" + json.dumps({"t": 1, "type": "card", "card": 5}) + "\n")
    put("card-none.jsonl", setup + "\n" + json.dumps({"t": 1, "type": "card"}) + "\n")
    put(
        "discard-number.jsonl",
        setup + "\n" + json.dumps({"t": 1, "type": "discard", "cards": [5]}) + "\n",
    )
    put(
        "time-back.jsonl",
        setup
        + "\n"
        + json.dumps({"t": 9, "type": "lift", "hole": "T0"})
        + "\n"
        + json.dumps({"t": 1, "type": "place", "hole": "T0"})
        + "\n",
    )
    put("empty.jsonl", "")
    put("bad.toml", "[board\nseats=")
    put("typo.toml", "[board]\nseeats = 4\n")
    put("colour.toml", '[leds.palette]\ntarget = "#00ff00\\n"\n')
    put("wiring.toml", '[board]\nwiring = "deep.json"\n')
    (tmp_path / "notdb.sqlite").write_bytes(b"not a database " * 100)
    return tmp_path


MALFORMED: list[tuple[list[str], str]] = [
    (["moves", "--card", "7", "missing.json"], "missing.json"),
    (["moves", "--card", "7", "bad.json"], "not valid JSON"),
    (["moves", "--card", "7", "deep.json"], "nested too deeply"),
    (["moves", "--card", "7", "offboard.json"], "T999"),
    (["moves", "--card", "7", "newline.json"], "not a pawn location"),
    (["moves", "--card", "7", "notutf8.json"], "UTF-8"),
    (["moves", "--card", "Z", "pos.json"], "unknown card"),
    (["moves", "--card", "K\n", "pos.json"], "unknown card"),
    (["moves", "pos.json"], "--card"),
    (["check", "--card", "7", "pos.json", "missing.json"], "AFTER"),
    (["check", "--card", "7", "deep.json", "pos.json"], "nested too deeply"),
    (["check", "--card", "7", "-", "-"], "standard input"),
    (["selfplay", "--games", "0"], "--games"),
    (["selfplay", "--bot", "nope"], "--bot"),
    (["selfplay", "--seats", "9"], "--seats"),
    (["replay", "missing.jsonl"], "missing.jsonl"),
    (["replay", "bad.json"], "not valid JSON"),
    (["replay", "deep.jsonl"], "line 2: JSON nested too deeply"),
    (["replay", "deepsetup.jsonl"], "line 1: JSON nested too deeply"),
    (["replay", "hole-newline.jsonl"], "not a hole name"),
    (["replay", "hole-digits.jsonl"], "not a hole name"),
    (["replay", "card-number.jsonl"], "'card' must be text, not 5"),
    (["replay", "card-none.jsonl"], "needs exactly one of 'card' or 'tag'"),
    (["replay", "discard-number.jsonl"], "needs a list of 'cards'"),
    (["replay", "time-back.jsonl"], "before the previous"),
    (["replay", "empty.jsonl"], "empty trace"),
    (["replay", "notutf8.json"], "UTF-8"),
    (["replay", "pos.json", "--lang", "de"], "--lang"),
    (["journal", "export", "--db", "missing.sqlite"], "no such journal"),
    (["journal", "export", "--db", "notdb.sqlite"], "not a keezbord journal"),
    (["journal", "set-aside", "--db", "missing.sqlite", "--game", "1"], "no such journal"),
    (["journal", "set-aside", "--db", "notdb.sqlite", "--game", "1"], "not a keezbord journal"),
    (["journal", "set-aside", "--db", "notdb.sqlite"], "--game"),
    (["journal", "export", "--config", "missing.toml"], "missing.toml"),
    (["journal", "export", "--config", "bad.toml"], "not valid TOML"),
    (["journal", "export", "--config", "typo.toml"], "unknown key"),
    (["journal", "export"], "no such journal"),
    (["firmware", "install", "--config", "missing.toml", "--dry-run"], "missing.toml"),
    (["cards", "list", "--config", "bad.toml"], "not valid TOML"),
    (["cards", "list", "--cards", "deep.json"], "nested too deeply"),
    (["cards", "list", "--cards", "bad.json"], "not valid JSON"),
    (["cards", "enroll", "--reader", "nope"], "--reader"),
    (["selftest", "--sim", "--config", "missing.toml"], "missing.toml"),
    (["selftest", "--sim", "--config", "colour.toml"], "not a colour"),
    (["selftest", "--sim", "--config", "wiring.toml"], "nested too deeply"),
    (["selftest", "--sim", "--faults", "bogus:T1"], "bad fault"),
    (["selftest", "--sim", "--faults", "swap:T999,T1"], "T999"),
    (["board", "template", "--seats", "9", "--out", "x.svg"], "seats"),
    (["board", "wiring", "--seats", "1"], "seats"),
    (["board", "bom", "--seats", "9"], "seats"),
    (["sim", "--seats", "9"], "--seats"),
    (["sim", "--bots", "nope"], "nope"),
    (["sim", "--port", "70000"], "70000"),
    (["sim", "--port", "abc"], "abc"),
    (["sim", "--config", "bad.toml"], "not valid TOML"),
    (["sim", "--db", "notdb.sqlite", "--no-browser"], "not a keezbord journal"),
    (["run", "--config", "missing.toml"], "missing.toml"),
    (["run", "--port", "-1"], "-1"),
    (["run", "--speed", "0", "--simulate", "1"], "--speed"),
    (["nope"], "nope"),
]


@pytest.mark.parametrize(
    "cmd,words", MALFORMED, ids=lambda x: " ".join(x) if isinstance(x, list) else None
)
def test_malformed_input_is_one_line_and_exit_2(cmd: list[str], words: str, files: Path) -> None:
    r = run(files, *cmd)
    # A journal `sim` or `run` cannot use: exit 3 (the service does not start again on it).
    unusable = cmd[0] in ("sim", "run") and "journal" in words
    assert_one_line_error(r, words, code=3 if unusable else 2)


def test_bad_keezbord_lang_is_one_line(files: Path) -> None:
    r = run(files, "moves", "--card", "7", "pos.json", KEEZBORD_LANG="fr")
    assert_one_line_error(r, "KEEZBORD_LANG")


# -- the parsers themselves: full matches only ----------------------------------------------


@pytest.mark.parametrize(
    "name", ["T0\n", "T0 ", " T0", "N0.1\n", "H1.4\n", "T\u0663", "N\u0660.1", "T00", "t0"]
)
def test_hole_names_are_matched_whole(name: str) -> None:
    topo = Topology(4, 16)
    with pytest.raises(TopologyError):
        topo.parse_hole(name)


@pytest.mark.parametrize("loc", ["T20\n", "S\n", "N\n", "H1\n", "T\u0662", "H\u0661"])
def test_pawn_locations_are_matched_whole(loc: str) -> None:
    with pytest.raises(InvalidPositionError):
        parse_loc(Topology(4, 16), 0, loc)
    bad = json.loads(json.dumps(POS))
    bad["pawns"][1][0] = loc
    with pytest.raises(InvalidPositionError):
        Position.from_dict(bad)


@pytest.mark.parametrize("part", ["0:N-S\u200b", "0:T\u0665-T8", "0:T5<>1:T3\u0660"])
def test_move_parts_are_matched_whole(part: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(f"7 {part}", Topology(4, 16))


def test_well_formed_names_still_parse() -> None:
    topo = Topology(4, 16)
    assert topo.parse_hole("T63").name == "T63"
    assert topo.parse_hole("N3.4").name == "N3.4"
    assert parse_loc(topo, 0, "H4") > parse_loc(topo, 0, "T5")
    assert parse_move("J 0:T5<>1:T30", topo).text(topo) == "J 0:T5<>1:T30"


def test_colours_and_tags_are_matched_whole() -> None:
    assert parse_colour("#00ff00") == (0, 255, 0)
    for text in ("#00ff00\n", "00ff00\n", "#00ff00 ", "#\u0660\u0660ff00"):
        with pytest.raises(ValueError):
            parse_colour(text)
    with pytest.raises(ConfigError, match="not a colour"):
        parse_config({"leds": {"palette": {"target": "#00ff00\n"}}})
    assert normalise_tag("04a1b2c3") == "04A1B2C3"
    assert normalise_tag("04A1B2C3\n") == "04A1B2C3"  # canonical form: the newline is gone
    assert normalise_tag("04A1B2C\u0663") is None


def test_trace_parser_refuses_a_phantom_hole_and_keeps_good_lines() -> None:
    setup = json.dumps(SETUP)
    with pytest.raises(TraceError, match="line 2: not a hole name"):
        parse_trace([setup, json.dumps({"t": 1, "type": "lift", "hole": "N0.1\n"})])
    _, events = parse_trace(
        [
            setup,
            json.dumps({"t": 1, "type": "lift", "hole": "N0.1"}),
            json.dumps({"t": 2, "type": "card", "tag": "04a1b2c3"}),
        ]
    )
    assert len(events) == 2
    with pytest.raises(TraceError, match="'tags'"):
        parse_trace([json.dumps({**SETUP, "tags": {"04A1B2C3": "K\n"}})])


def test_odd_card_events_are_rejected_by_the_referee_not_refused(tmp_path: Path) -> None:
    # FORMATS.md: an unknown card name or tag in a card event is card_rejected and the
    # game goes on (issue 22, misreading 2); the trace stays readable.
    events = [
        {"t": 1, "type": "card", "card": "Z"},
        {"t": 2, "type": "card", "card": "K\n"},
        {"t": 3, "type": "card", "tag": "04A1B2C3\n"},
        {"t": 4, "type": "card", "card": "K"},
        {"t": 5, "type": "lift", "hole": "N0.1"},
        {"t": 200, "type": "place", "hole": "T0"},
    ]
    trace = tmp_path / "odd-cards.jsonl"
    trace.write_text("\n".join(json.dumps(x) for x in [SETUP, *events]) + "\n", encoding="utf-8")
    r = run(tmp_path, "replay", str(trace))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    out = [json.loads(line) for line in r.stdout.splitlines()]
    rejected = [d for d in out if d["type"] == "card_rejected"]
    assert [d.get("card") or d.get("tag") for d in rejected] == ["Z", "K\n", "04A1B2C3\n"]
    assert [d["move"] for d in out if d["type"] == "move"] == ["K 0:N-S"]


def test_json_depth_guard() -> None:
    assert depth({"a": [1, [2, {"b": []}]]}) == 5
    assert depth(7) == 0
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(JsonTextError, match="nested too deeply"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(JsonTextError, match="nested too deeply"):
        loads(DEEP)
    with pytest.raises(JsonTextError, match="line 1 column 2"):
        loads("{x")


def test_page_message_nested_too_deeply_is_an_error_reply() -> None:
    from keezbord.host.roles import Access, Role
    from keezbord.host.web.inbox import BugLog
    from keezbord.host.web.page_socket import handle as _handle

    deep = "[" * 5000 + "]" * 5000  # (under the referee's size: DEEP is refused for its size)
    reply = _handle(None, deep, Access(Role.REFEREE), BugLog())  # type: ignore[arg-type]
    assert reply is not None and reply["type"] == "error"  # refused before the hub
