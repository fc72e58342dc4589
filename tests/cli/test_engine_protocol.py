"""``keezbord engine``: a bot as a process speaking the engine protocol over a pipe
(docs/engine-protocol.md). A whole exchange as a client has it (the engine answers
each ``go`` with a legal move of the hand, the same one for the same seed and budget),
and a bad-input sweep: every bad line gets one ``error`` line and the engine reads on."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import IO

import pytest
from clihelp import assert_one_line_error, exe, run, sealed_env

from keezbord.engine import Position, legal_moves
from keezbord.host.commands.engine_protocol import Engine

POS = "NNST20/NNNT33/NT60H3H4/NNNN 0 standard"


class Pipe:
    """The engine as a client drives it: a line written, the answer lines read up to
    the one that ends it (reads block on the pipe: no clock)."""

    def __init__(self, tmp: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [*exe(), "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=sealed_env(tmp),
        )

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, *ends: str) -> list[str]:
        out: IO[str] | None = self.proc.stdout
        assert out is not None
        lines: list[str] = []
        while True:
            line = out.readline()
            assert line, f"the engine stopped: {lines}"
            lines.append(line.rstrip("\n"))
            if line.split()[0] in ends:
                return lines

    def close(self) -> tuple[int, str]:
        self.send("quit")
        _, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, err


def _move(lines: list[str]) -> str:
    assert lines[-1].startswith("bestmove "), lines
    return lines[-1].removeprefix("bestmove ")


def test_an_exchange_over_a_pipe(tmp_path: Path) -> None:
    e = Pipe(tmp_path)
    e.send("keezbord")
    hello = e.until("keezbordok")
    assert hello[0].startswith("id name keezbord") and hello[-1] == "keezbordok"
    e.send("isready")
    assert e.until("readyok") == ["readyok"]
    pos = Position.from_text(POS)
    moves = []
    for _ in range(2):
        e.send(f"position {POS}")
        e.send("hand 5 7 K")
        e.send("seen 2 3 9")
        e.send("sizes 3 4 4 4")
        e.send("go playouts 40 seed 5")
        moves.append(_move(e.until("bestmove")))
    legal = {str(m) for c in ("5", "7", "K") for m in legal_moves(pos, c)}
    assert moves[0] in legal and moves[0] == moves[1]  # deterministic for seed and budget
    # No card of the hand can move: the hand is discarded.
    e.send("position NNNN/NNNN/NNNN/NNNN 1 standard")
    e.send("hand 5 7 9")
    e.send("go playouts 10")
    assert _move(e.until("bestmove")) == "none"
    # The greedy bot, and the card passed under a partner exchange.
    e.send("setoption name bot value greedy")
    e.send(f"position {POS}")
    e.send("hand 5 7 K")
    e.send("go")
    assert _move(e.until("bestmove")) in legal
    e.send("give")
    assert e.until("givecard")[-1] in ("givecard 5", "givecard 7", "givecard K")
    rc, err = e.close()
    assert rc == 0 and err == ""


DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md"


def test_the_documented_transcript_is_what_the_engine_says(tmp_path: Path) -> None:
    # docs/engine-protocol.md "A transcript": the client's lines sent, every answer
    # compared (it is deterministic: seeds, and no move to search at movetime).
    text = DOC.read_text().split("## A transcript", 1)[1].split("```")[1]
    lines = text.strip().splitlines()
    sent = [x.removeprefix("> ") for x in lines if x.startswith("> ")]
    said = [x.removeprefix("< ") for x in lines if x.startswith("< ")]
    assert len(sent) > 10 and len(said) > 10 and len(sent) + len(said) == len(lines)
    run = subprocess.run(
        [*exe(), "engine"],
        input="".join(x + "\n" for x in sent),
        capture_output=True,
        text=True,
        timeout=300,
        env=sealed_env(tmp_path),
    )
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.splitlines() == said


def test_the_ceiling_sees_every_hand(tmp_path: Path) -> None:
    e = Pipe(tmp_path, "--bot", "ceiling")
    e.send(f"position {POS}")
    e.send("hand 5 7")
    e.send("go playouts 10")
    assert e.until("error")[-1].startswith("error the ceiling sees every hand")
    e.send("hands 5 7 / K K 2 / A / 3 4")
    e.send("go playouts 30 seed 1")
    pos = Position.from_text(POS)
    assert _move(e.until("bestmove")) in {str(m) for c in "57" for m in legal_moves(pos, c)}
    assert e.close()[0] == 0


BAD = [
    "nonsense",
    "position",
    "position junk",
    "position NNST20/NNNT33 9 standard",
    "position NNST20/NNNT33/NT60H3H4/NNNN 0 chess",
    "hand",
    "hand Z 5",
    "hand A A A A A A A",
    "seen 15",
    "sizes 4 4",
    "sizes 4 4 4 x",
    "sizes 4 4 4 99",
    "passed 5 7",
    "hands 5 / 7",
    "go playouts",
    "go playouts -3",
    "go playouts many",
    "go movetime 0",
    "go depth 3",
    "setoption name bot value deep-blue",
    "setoption name hash value 3",
    "setoption bot",
    "setoption name infer value maybe",
    "played",
    "played 2",
    "played 2 junk",
    "played Z NNNN/NNNN/NNNN/NNNN 1 standard",
    "played 2 NNNN/NNNN 1 standard",
    "\x00\x01 \udcff".encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
    "x" * 5000,
]


def test_a_bad_input_sweep_gets_one_line_each_and_no_crash(tmp_path: Path) -> None:
    e = Pipe(tmp_path)
    e.send("go")  # nothing set yet
    assert e.until("error")[-1].startswith("error no position")
    for line in BAD:
        e.send(f"position {POS}")
        e.send("hand 5")
        e.send(line)
        e.send("isready")
        answer = e.until("readyok")
        errors = [a for a in answer if a.startswith("error ")]
        assert len(errors) == 1 and answer[-1] == "readyok", (line, answer)
        assert len(errors[0]) < 300
    # It still plays after all that.
    e.send(f"position {POS}")
    e.send("hand 5")
    e.send("go playouts 5")
    assert _move(e.until("bestmove")).startswith("5 ")
    rc, err = e.close()
    assert rc == 0 and err == "" and "Traceback" not in err


def test_random_garbage_never_raises() -> None:
    rng = random.Random(8)
    words = ["position", "hand", "seen", "sizes", "passed", "hands", "go", "give", "setoption"]
    words += ["name", "value", "playouts", "movetime", "seed", "bot", "/", "-1", "0", "5"]
    words += ["A", "K", "10", "NNNN/NNNN/NNNN/NNNN", "0", "standard", "T99", "ceiling"]
    eng = Engine("search", 5)
    for _ in range(600):
        line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 7)))
        for answer in eng.handle(line):  # an exception fails the test
            assert "\n" not in answer
            assert answer.split()[0] in ("error", "bestmove", "info", "givecard"), (line, answer)


def test_an_inferring_engine_is_told_the_others_choices(tmp_path: Path) -> None:
    e = Pipe(tmp_path, "--infer")
    e.send("keezbord")
    assert "option name infer type check default true" in e.until("keezbordok")
    now = "NNNN/NNNT22/NNNN/NNNN 2 standard"
    moves = []
    for _ in range(2):
        e.send(f"position {now}")
        e.send("hand A 7 K 4")
        e.send("seen 2")
        e.send("sizes 4 3 4 4")
        e.send("played 2 NNNN/NNNT20/NNNN/NNNN 1 standard")
        e.send("go playouts 40 seed 2")
        moves.append(_move(e.until("bestmove")))
    pos = Position.from_text(now)
    assert moves[0] == moves[1]
    assert moves[0] in {str(m) for c in "A7K4" for m in legal_moves(pos, c)}
    assert e.close()[0] == 0


def test_the_search_plays_with_the_fitted_leaf_unless_asked_for_the_judges(
    tmp_path: Path,
) -> None:
    """By default the playouts are judged by the fitted leaf (search.PLAY_POLICY): the
    info line's ``win`` is its own chance, with no ``rawwin`` (the calibration is the
    judge leaf's); ``setoption name leaf value judge`` gives the judge's leaf, whose chance
    for the same seed and budget differs; a leaf of another name is one error line."""
    e = Pipe(tmp_path)
    e.send("keezbord")
    assert "option name leaf type combo default fitted var fitted var judge" in e.until(
        "keezbordok"
    )
    wins = []
    for leaf in ("fitted", "judge"):
        e.send(f"setoption name leaf value {leaf}")
        e.send(f"position {POS}")
        e.send("hand 5 7 K")
        e.send("go playouts 60 seed 3")
        info = _info(e.until("bestmove"))
        assert ("rawwin" in info) == (leaf == "judge")
        wins.append(float(info["win"]))
    assert 0 < wins[0] < 1 and wins[0] != wins[1]
    e.send("setoption name leaf value deep")
    assert e.until("error")[-1].startswith("error unknown leaf 'deep'")
    assert e.close() == (0, "")


@pytest.mark.parametrize("args", [["--bot", "deep-blue"], ["--playouts", "0"], ["--leaf", "deep"]])
def test_bad_arguments_one_line(tmp_path: Path, args: list[str]) -> None:
    assert_one_line_error(run(tmp_path, "engine", *args, stdin=""))


def test_bytes_that_are_not_utf8_get_an_error_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*exe(), "engine"],
        input=b"isready\n\xff\xfe go\nisready\n",
        capture_output=True,
        env=sealed_env(tmp_path, PYTHONIOENCODING="utf-8:strict"),
        timeout=60,
    )
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert lines[0] == "readyok" and lines[1].startswith("error ") and lines[2] == "readyok"


def _info(lines: list[str]) -> dict[str, str]:
    [info] = [ln for ln in lines if ln.startswith("info ")]
    words = info.split()[1:]
    return dict(zip(words[::2], words[1::2], strict=True))


def test_info_reports_the_calibrated_chance_beside_the_raw(tmp_path: Path) -> None:
    """With the judge's leaf, ``win`` is the chance a person is shown (calibration.py),
    ``rawwin`` the playouts' own: with two teams the shown chance is the raw one's log-odds
    times the 4-seat temperature, checked from the line alone; a forced move tells no
    chance."""
    from keezbord.engine.calibration import SCALES

    e = Pipe(tmp_path, "--leaf", "judge")
    e.send(f"position {POS}")
    e.send("hand 5 7 K")
    e.send("go playouts 60 seed 3")
    info = _info(e.until("bestmove"))
    raw, win = float(info["rawwin"]), float(info["win"])
    t = SCALES[4]
    assert isinstance(t, float)  # 4 seats: one temperature
    assert 0.5 < raw < 1.0  # a lead: the calibration sharpens it
    assert win == pytest.approx(raw**t / (raw**t + (1 - raw) ** t), abs=2e-4)
    assert win > raw
    e.send("position NNNN/NNNN/NNNN/NNNN/NNNN/NNNN/NNNN/NNNN 0 standard")
    e.send("hand A 2 2 7 7")  # only the ace can be played: one candidate
    e.send("go playouts 60 seed 3")
    lines = e.until("bestmove")
    assert lines[-1].startswith("bestmove A ")
    assert "win" not in _info(lines) and "rawwin" not in _info(lines)
    assert e.close() == (0, "")
