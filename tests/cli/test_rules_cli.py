"""``keezbord moves``, ``check`` and ``selfplay`` (FORMATS.md, "Commands"), as
subprocesses and in-process through keezbord.host.cli.main."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import EXAMPLE

from keezbord.host.cli import main


def _exe() -> list[str]:
    venv = Path(sys.executable).parent / "keezbord"
    return [str(venv)] if venv.exists() else [sys.executable, "-m", "keezbord"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_exe(), *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def pos(pawns: list[list[str]], **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"seats": len(pawns), "pawns": pawns}
    d.update(kw)
    return d


# -- moves --------------------------------------------------------------------------------


def test_moves_subprocess_output_per_formats(tmp_path: Path) -> None:
    r = run("moves", "--card", "7", write(tmp_path, "p.json", EXAMPLE))
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert set(out) == {"card", "seat", "moves"}
    assert out["card"] == "7" and out["seat"] == 0
    assert out["moves"]
    seen = set()
    for m in out["moves"]:
        assert set(m) == {"move", "position"}
        assert m["move"].startswith("7 ")
        p = m["position"]
        assert {"seats", "profile", "turn", "pawns"} <= set(p)
        assert p["turn"] == 1 and p["seats"] == 4 and p["profile"] == "standard"
        key = json.dumps(p["pawns"])
        assert key not in seen  # one entry per resulting position
        seen.add(key)
    assert "7 0:T20-T27" in {m["move"] for m in out["moves"]}


def test_moves_in_process_matches_subprocess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "p.json", EXAMPLE)
    assert main(["moves", "--card", "A", path]) == 0
    inproc = json.loads(capsys.readouterr().out)
    sub = json.loads(run("moves", "--card", "A", path).stdout)
    assert inproc == sub
    assert {m["move"] for m in inproc["moves"]} == {"A 0:S-T1", "A 0:T20-T21"}


def test_moves_resulting_turn_is_next_seat_clockwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path, "p.json", pos([["N"] * 4, ["N"] * 4, ["N"] * 4, ["T50"] + ["N"] * 3], turn=3)
    )
    assert main(["moves", "--card", "2", path]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 3
    assert [m["position"]["turn"] for m in out["moves"]] == [0]
    assert out["moves"][0]["move"] == "2 3:T50-T52"


def test_moves_from_stdin_and_card_aliases() -> None:
    r = run("moves", "--card", "k", "-", stdin=json.dumps(EXAMPLE))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["card"] == "K"


def test_moves_none_gives_empty_list_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "p.json", pos([["N"] * 4] * 4))
    assert main(["moves", "--card", "5", path, "--lang", "en"]) == 0
    en = json.loads(capsys.readouterr().out)
    assert en["moves"] == [] and en["reason"]
    assert main(["moves", "--card", "5", path, "--lang", "nl"]) == 0
    nl = json.loads(capsys.readouterr().out)
    assert nl["moves"] == [] and nl["reason"] and nl["reason"] != en["reason"]


# -- check --------------------------------------------------------------------------------


def test_check_legal_exit_0(tmp_path: Path) -> None:
    before = write(tmp_path, "b.json", EXAMPLE)
    after = write(
        tmp_path,
        "a.json",
        pos(
            [["S", "T25", "N", "N"], ["T33", "N", "N", "N"], ["H4", "H3", "T60", "N"], ["N"] * 4],
            turn=1,
        ),
    )
    r = run("check", "--card", "5", before, after)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"legal": True, "move": "5 0:T20-T25"}


def test_check_illegal_exit_1_with_reason_in_both_languages(tmp_path: Path) -> None:
    before = write(
        tmp_path,
        "b.json",
        pos([["T14", "N", "N", "N"], ["S", "N", "N", "N"], ["N"] * 4, ["N"] * 4]),
    )
    after = write(
        tmp_path,
        "a.json",
        pos([["T19", "N", "N", "N"], ["S", "N", "N", "N"], ["N"] * 4, ["N"] * 4]),
    )
    en = run("check", "--card", "5", "--lang", "en", before, after)
    nl = run("check", "--card", "5", "--lang", "nl", before, after)
    assert en.returncode == nl.returncode == 1
    e, n = json.loads(en.stdout), json.loads(nl.stdout)
    assert set(e) == set(n) == {"legal", "reason"}
    assert e["legal"] is False and n["legal"] is False
    assert "blue" in e["reason"] and "T16" in e["reason"]
    assert "blauwe" in n["reason"] and e["reason"] != n["reason"]


def test_check_compares_the_pawns_on_one_board_and_rules(tmp_path: Path) -> None:
    before = write(tmp_path, "b.json", EXAMPLE)
    moved = [["S", "T25", "N", "N"], ["T33", "N", "N", "N"], ["H4", "H3", "T60", "N"], ["N"] * 4]
    # AFTER's turn is not compared (it is optional, 0 when not written) ...
    unturned = write(tmp_path, "a0.json", pos(moved))
    r = run("check", "--card", "5", before, unturned)
    assert r.returncode == 0 and json.loads(r.stdout)["move"] == "5 0:T20-T25", r.stderr
    # ... its rules are: another profile or other teams is refused, one line, exit 2.
    for i, (key, value) in enumerate([("profile", "nk"), ("teams", "none")]):
        other = write(tmp_path, f"a{i + 1}.json", {**pos(moved, turn=1), key: value})
        r = run("check", "--card", "5", before, other)
        assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout)
        assert r.stderr.strip() == (
            "keezbord check: BEFORE and AFTER are positions of different rules (profile, teams)"
        )


def test_check_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = write(tmp_path, "b.json", pos([["T2", "N", "N", "N"]] + [["N"] * 4] * 3))
    after = write(tmp_path, "a.json", pos([["H2", "N", "N", "N"]] + [["N"] * 4] * 3))
    assert main(["check", "--card", "4", "--lang", "nl", before, after]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False
    assert "de 4 mag niet achteruit het thuishonk in" in out["reason"].lower()


# -- bad input ----------------------------------------------------------------------------


def _bad_cases(tmp_path: Path) -> list[tuple[str, list[str], str]]:
    good = write(tmp_path, "good.json", EXAMPLE)
    return [
        (
            "malformed json",
            ["moves", "--card", "5", write(tmp_path, "m.json", '{"seats": 4,')],
            "JSON",
        ),
        (
            "two pawns one hole",
            [
                "moves",
                "--card",
                "5",
                write(
                    tmp_path,
                    "t.json",
                    pos([["S", "T0", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]),
                ),
            ],
            "T0",
        ),
        (
            "S vs T start",
            [
                "moves",
                "--card",
                "5",
                write(
                    tmp_path,
                    "s.json",
                    pos([["N"] * 4, ["S", "N", "N", "N"], ["T16", "N", "N", "N"], ["N"] * 4]),
                ),
            ],
            "T16",
        ),
        (
            "three pawns",
            [
                "moves",
                "--card",
                "5",
                write(tmp_path, "3.json", pos([["N"] * 3, ["N"] * 4, ["N"] * 4, ["N"] * 4])),
            ],
            "seat 0",
        ),
        (
            "off board",
            [
                "moves",
                "--card",
                "5",
                write(
                    tmp_path,
                    "o.json",
                    pos([["T64", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]),
                ),
            ],
            "T64",
        ),
        (
            "unknown profile",
            [
                "moves",
                "--card",
                "5",
                write(tmp_path, "u.json", pos([["N"] * 4] * 4, profile="dog")),
            ],
            "dog",
        ),
        (
            "bad string",
            [
                "moves",
                "--card",
                "5",
                write(
                    tmp_path,
                    "b.json",
                    pos([["X1", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]),
                ),
            ],
            "X1",
        ),
        ("missing file", ["moves", "--card", "5", str(tmp_path / "nope.json")], "nope.json"),
        (
            "check missing after",
            ["check", "--card", "5", good, str(tmp_path / "gone.json")],
            "gone.json",
        ),
        (
            "check other board",
            ["check", "--card", "5", good, write(tmp_path, "six.json", pos([["N"] * 4] * 6))],
            "board",
        ),
        ("selfplay games 0", ["selfplay", "--games", "0"], "games"),
        ("selfplay bad bot", ["selfplay", "--bot", "smart"], "bot"),
    ]


def test_bad_input_one_line_exit_2_no_traceback(tmp_path: Path) -> None:
    for name, args, needle in _bad_cases(tmp_path):
        r = run(*args)
        assert r.returncode == 2, (name, r.stdout, r.stderr)
        assert r.stdout == "", name
        lines = r.stderr.splitlines()
        assert len(lines) == 1, (name, r.stderr)
        assert "Traceback" not in r.stderr
        assert needle in lines[0], (name, lines[0])


def test_bad_input_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, args, needle in _bad_cases(tmp_path):
        assert main(args) == 2, name
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and needle in err, (name, err)


def test_unknown_card_one_line(tmp_path: Path) -> None:
    r = run("moves", "--card", "X", write(tmp_path, "p.json", EXAMPLE))
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr


def test_unknown_card_exit_2_and_named(tmp_path: Path) -> None:
    r = run("moves", "--card", "X", write(tmp_path, "p.json", EXAMPLE))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "'X'" in r.stderr and r.stdout == ""


# -- selfplay -----------------------------------------------------------------------------


def _no_timing(text: str) -> list[str]:
    return [line for line in text.splitlines() if "games/s" not in line]


def test_selfplay_summary_and_same_seed_same_output() -> None:
    a = run("selfplay", "--games", "3", "--seats", "3", "--seed", "5")
    b = run("selfplay", "--games", "3", "--seats", "3", "--seed", "5")
    assert a.returncode == 0 and a.stderr == ""
    assert "3 game(s), 3 seats, profile standard" in a.stdout
    assert "won" in a.stdout
    assert _no_timing(a.stdout) == _no_timing(b.stdout)


def test_selfplay_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "selfplay",
                "--games",
                "2",
                "--seats",
                "4",
                "--profile",
                "nk",
                "--json",
                "--bot",
                "greedy,random,greedy,random",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["seats"] == 4 and out["profile"] == "nk"
    assert out["bots"] == ["greedy", "random", "greedy", "random"]
    assert sum(out["wins"].values()) + out["unfinished"] == 2
    assert set(out["wins"]) <= {"0+2", "1+3"}


def test_selfplay_show_is_a_readable_reproducible_game() -> None:
    a = run("selfplay", "--show", "--seats", "2", "--seed", "9", "--profile", "keezspel")
    b = run("selfplay", "--show", "--seats", "2", "--seed", "9", "--profile", "keezspel")
    assert a.returncode == 0, a.stderr
    assert _no_timing(a.stdout) == _no_timing(b.stdout)
    lines = a.stdout.splitlines()
    assert lines[0].startswith("== game 1 (seed 9, 2 seats, keezspel")
    assert any(" brings a pawn out" in line for line in lines)
    assert any("== winner: " in line for line in lines)
    nl = run(
        "selfplay", "--show", "--seats", "2", "--seed", "9", "--profile", "keezspel", "--lang", "nl"
    )
    assert any(" zet een pion op" in line for line in nl.stdout.splitlines())
    c = run("selfplay", "--show", "--seats", "2", "--seed", "10", "--profile", "keezspel")
    assert _no_timing(c.stdout) != _no_timing(a.stdout)


def test_unknown_card_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "p.json", EXAMPLE)
    try:
        code = main(["moves", "--card", "X", path])
    except SystemExit as e:  # argparse may exit; the status must still be 2
        code = e.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "'X'" in err


# -- the reasons the audit found wrong, as the commands print them ------------------------


@pytest.mark.parametrize(
    ("args", "en", "nl"),
    [
        (
            ["moves", "--card", "K", "H1H2H3H4/NNNN/NNNS/NNNN 0 standard"],
            "while your partner's yellow pawn stands on their start hole T32",
            "zolang er een gele pion van je partner op zijn startplek T32 staat",
        ),
        (
            ["moves", "--card", "7", "T62H2H3H4/NNNN/NNNN/NNNN 0 standard"],
            "the 7 must be used in full, 7 steps; only 3 can be played here",
            "de 7 moet helemaal gebruikt worden, 7 stappen; hier kunnen er maar 3 gespeeld",
        ),
        (
            [
                "check",
                "--card",
                "A",
                "NNNS/NNNN/NNNN/NNNN 0 standard",
                "NNNH1/NNNN/NNNN/NNNN 1 standard",
            ],
            "must first leave its start hole before it can come home",
            "moet eerst van zijn startplek af voordat hij naar huis mag",
        ),
        (
            [
                "check",
                "--card",
                "5",
                "NNNS/NNNN/NNNN/NNNN 0 standard",
                "NNNH4/NNNN/NNNN/NNNN 1 standard",
            ],
            "must first leave its start hole before it can come home",
            "moet eerst van zijn startplek af voordat hij naar huis mag",
        ),
        (
            [
                "check",
                "--card",
                "3",
                "NNNT1/NNNN/NNNN/NNNN 0 standard",
                "NNNH3/NNNN/NNNN/NNNN 1 standard",
            ],
            "the pawn from T1 has passed it and must first go on round the board",
            "de pion van T1 is daar al voorbij en moet eerst verder het bord rond",
        ),
        (
            ["moves", "--card", "2", "NNH1H3/NNNN/NNNN/NNNN 0 standard"],
            "in the home a pawn may not land on or pass another pawn (H0.3)",
            "in het thuishonk mag een pion niet op of over een andere pion gaan (H0.3)",
        ),
        (
            [
                "check",
                "--card",
                "2",
                "NNNH1/NNNN/NNNN/NNNN 0 standard",
                "NNNT2/NNNN/NNNN/NNNN 1 standard",
            ],
            "A pawn in its home never leaves it",
            "Een pion in het thuishonk gaat er nooit meer uit",
        ),
        (
            ["moves", "--card", "K", "T1T2T3T4/NNNN/NNNN/NNNN 0 standard"],
            "the king only brings a pawn out (under these rules it does not move 13)",
            "met de heer zet je alleen een pion op (in deze regels loopt hij geen 13)",
        ),
    ],
)
def test_reasons_name_the_rule_broken(
    args: list[str], en: str, nl: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for lang, words in (("en", en), ("nl", nl)):
        main([*args, "--lang", lang])
        out = json.loads(capsys.readouterr().out)
        assert words in out["reason"], out["reason"]
        for lap in ("went 6", "ging er 6", "round the board before", "het bord rond voordat"):
            assert lap not in out["reason"]
