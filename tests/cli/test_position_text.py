"""The position's one-line text form on the command line (docs/formats.md): accepted
wherever a position is (``moves``, ``check``, the trace's setup for ``replay``), as the
argument itself, in a file or on standard input; the same answers as the JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import assert_one_line_error, run
from engine_helpers import EXAMPLE, TEXT_EXAMPLE

from keezbord.host.cli import main


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_moves_gives_the_same_answer_for_the_text_form_argument_file_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "p.json").write_text(json.dumps(EXAMPLE))
    (tmp_path / "p.txt").write_text(TEXT_EXAMPLE + "\n")
    want = _out(capsys, "moves", "--card", "7", str(tmp_path / "p.json"))
    assert want[0] == 0 and json.loads(want[1])["moves"]
    assert _out(capsys, "moves", "--card", "7", TEXT_EXAMPLE) == want
    assert _out(capsys, "moves", "--card", "7", str(tmp_path / "p.txt")) == want


def test_check_takes_text_forms_and_stdin(tmp_path: Path) -> None:
    after = "NNST25/NNNT33/NT60H3H4/NNNN 1 standard"
    r = run(tmp_path, "check", "--card", "5", TEXT_EXAMPLE, after)
    assert r.returncode == 0 and json.loads(r.stdout) == {"legal": True, "move": "5 0:T20-T25"}
    r = run(
        tmp_path,
        "check",
        "--card",
        "5",
        "-",
        after.replace("T25", "T24"),
        "--lang",
        "en",
        stdin=TEXT_EXAMPLE + "\n",
    )
    assert r.returncode == 1 and "this one went 4" in json.loads(r.stdout)["reason"]


def test_replay_takes_the_text_form_as_the_setup_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def replay(position: object) -> list[dict[str, object]]:
        trace = tmp_path / "t.jsonl"
        trace.write_text(
            "\n".join(
                json.dumps(x)
                for x in [
                    {"type": "setup", "seats": 4, "dealer": 3, "position": position},
                    {"t": 10, "type": "card", "card": "5"},
                    {"t": 20, "type": "lift", "hole": "T20"},
                    {"t": 30, "type": "place", "hole": "T25"},
                ]
            )
            + "\n"
        )
        assert main(["replay", str(trace)]) == 0
        return [json.loads(x) for x in capsys.readouterr().out.splitlines()]

    out = replay(TEXT_EXAMPLE)
    assert [d["move"] for d in out if d["type"] == "move"] == ["5 0:T20-T25"]
    assert out == replay(EXAMPLE)


def test_a_setup_position_without_a_turn_begins_with_seat_0_and_extra_fields_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """FORMATS.md: the setup's position is "a position as above", whose turn is 0 when not
    written (not the seat after the dealer); and fields a reader does not know are
    passed over, in the setup line and in its position."""
    position = {k: v for k, v in EXAMPLE.items() if k != "turn"} | {"note": "from a tool"}
    setup = {"type": "setup", "seats": 4, "dealer": 1, "position": position, "x-tool": 1}
    trace = tmp_path / "t.jsonl"
    events = [{"t": 10, "type": "card", "card": "5"}, {"t": 20, "type": "lift", "hole": "T20"}]
    events.append({"t": 30, "type": "place", "hole": "T25"})
    trace.write_text("\n".join(json.dumps(x) for x in [setup, *events]) + "\n")
    assert main(["replay", str(trace)]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(d["seat"], d["move"]) for d in out if d["type"] == "move"] == [(0, "5 0:T20-T25")]


@pytest.mark.parametrize(
    ("field", "value"), [("seats", 6), ("profile", "nk"), ("segment", 12), ("teams", "none")]
)
def test_a_setup_that_says_other_than_its_position_is_refused(
    field: str, value: object, tmp_path: Path
) -> None:
    setup = {"type": "setup", "seats": 4, "dealer": 3, "position": EXAMPLE, field: value}
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps(setup) + "\n")
    r = run(tmp_path, "replay", str(trace))
    assert_one_line_error(r, f"setup '{field}' differs from the position's")


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["moves", "--card", "7", "NNNN/NNN 0 standard"], ("POSITION", "exactly 4 pawns")),
        (["moves", "--card", "7", "NNNN/NNNN 0 chess"], ("POSITION", "unknown profile")),
        (["check", "--card", "7", TEXT_EXAMPLE, "NNNN/NNNN 5 standard"], ("AFTER", "'turn'")),
        (["moves", "--card", "7", "no such file.json"], ("no such file.json",)),
    ],
)
def test_bad_text_forms_get_one_line(
    tmp_path: Path, args: list[str], needles: tuple[str, ...]
) -> None:
    assert_one_line_error(run(tmp_path, *args), *needles)


def test_a_file_named_like_a_text_form_is_read_as_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "NNNN").mkdir()
    name = "NNNN/NNNN 0 standard"
    (tmp_path / name).write_text(json.dumps(EXAMPLE))
    code, out = _out(capsys, "moves", "--card", "5", name)
    assert code == 0 and json.loads(out)["seat"] == 0 and len(json.loads(out)["moves"]) == 2
