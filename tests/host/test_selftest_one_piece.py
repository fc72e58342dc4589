"""One piece at a time: `selftest --piece N` walks only that piece's holes (with the chain
of pieces 0..N), `--live` shows each chip's bits and names a flaky joint, `--leds` walks
the LEDs alone, `--test-piece` reports pull-in and crosstalk per placement; Dutch and
English."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.host.cli import main
from keezbord.host.config import load_config
from keezbord.host.drivers.switches import SwitchChange
from keezbord.host.selftest_live import BitsView
from keezbord.host.selftest_piece import connected_through, piece_holes, pieces_of


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    p = tmp_path / "board.toml"
    p.write_text("[board]\nseats = 4\n")
    return p


def _run(cfg: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["selftest", "--sim", "--config", str(cfg), *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out + err


def test_a_piece_walks_only_its_own_holes_with_the_chain_so_far(
    cfg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = load_config(cfg)
    wiring, pieces = c.load_wiring(), pieces_of(c.topology())
    holes = piece_holes(wiring, pieces, 1)
    assert len(holes) == 24 and all(pieces[h] == 1 for h in holes)
    assert connected_through(wiring, pieces, 1) == (6, 48)  # pieces 0 and 1: 6 chips
    code, out = _run(cfg, capsys, "--piece", "1")
    assert code == 0 and "24 holes: 24 ok" in out
    assert "pieces 0 to 1 connected (6 chips, 48 LEDs)" in out
    lit = [ln.split("(")[1].rstrip(")") for ln in out.splitlines() if "put a pawn on" in ln]
    assert lit == list(holes)
    code, out = _run(cfg, capsys, "--piece", "1", "--lang", "nl", "--quiet")
    assert code == 0 and "24 gaten: 24 goed" in out


def test_a_piece_that_does_not_exist_is_one_line(
    cfg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(cfg, capsys, "--piece", "7")
    assert code == 2 and "no piece 7: the pieces are 0 to 3" in out


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "changes often with no pawn: T10"), ("nl", "wisselt vaak zonder pion: T10")],
)
def test_the_live_view_shows_a_flaky_joint_flipping(
    cfg: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    code, out = _run(cfg, capsys, "--live", "--faults", "flaky:T10;dead:T11", "--lang", lang)
    assert code == 1 and words in out and "T11" not in out.split(words[:5])[-1].split(":")[1]
    flips = [ln for ln in out.splitlines() if "s chip" in ln and "T10" in ln]
    assert len(flips) == 6  # each flip under the finger printed as it came
    assert "E T10 ● 1" in flips[0] and "E T10 ○ 6" in flips[-1]
    code, out = _run(cfg, capsys, "--live", "--lang", lang)
    assert code == 0


def test_bits_view_counts_changes_per_input() -> None:
    from keezbord.engine.topology import Topology
    from keezbord.hardware.wiring import default_wiring

    w = default_wiring(Topology(4))
    v = BitsView(w, len(w.switch_order))
    s = w.switch_index("T0")
    assert v.update([SwitchChange(0, s, True), SwitchChange(1, s, True)]) == [s // 8]
    assert v.changes[s] == 1  # a repeat of the known state is no change
    v.update([SwitchChange(t, s, t % 2 == 0) for t in range(2, 9)])
    assert v.flaky() == ["T0"]
    d = v.to_dict()["chips"][s // 8]["bits"][s % 8]
    assert d == {"input": "HGFEDCBA"[s % 8], "hole": "T0", "closed": True, "changes": 7}


@pytest.mark.parametrize(
    ("lang", "dark", "elsewhere"),
    [
        ("en", "T3: LED 18 stays dark", "T1: LED 16 lights T2"),
        ("nl", "T3: LED 18 brandt niet", "T1: LED 16 brandt onder T2"),
    ],
)
def test_the_led_walk_names_a_dark_and_a_misplaced_led(
    cfg: Path, capsys: pytest.CaptureFixture[str], lang: str, dark: str, elsewhere: str
) -> None:
    code, out = _run(
        cfg,
        capsys,
        "--leds",
        "--piece",
        "0",
        "--faults",
        "dark:T3;led-swap:T1,T2",
        "--lang",
        lang,
        "--quiet",
    )
    assert code == 1 and dark in out and elsewhere in out
    assert ("24 LEDs: 21 ok" if lang == "en" else "24 LED's: 21 goed") in out


@pytest.mark.parametrize(
    ("faults", "lines", "code"),
    [
        ("", ["pawn on P1: pulls in, no crosstalk", "pawn on P3: pulls in, no crosstalk"], 0),
        (
            "crosstalk:P2,P3",
            [
                "pawn on P1: pulls in, no crosstalk",
                "pawn on P2: pulls in, CROSSTALK to P3",
                "pawn on P3: pulls in, CROSSTALK to P2",
            ],
            1,
        ),
        ("dead:P2", ["pawn on P2: does NOT pull in, no crosstalk"], 1),
    ],
)
def test_the_test_piece_reports_pull_in_and_crosstalk_per_placement(
    cfg: Path, capsys: pytest.CaptureFixture[str], faults: str, lines: list[str], code: int
) -> None:
    got, out = _run(cfg, capsys, "--test-piece", "--quiet", "--faults", faults)
    assert got == code
    for ln in lines:
        assert ln in out


def test_the_test_piece_in_dutch(cfg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    got, out = _run(
        cfg, capsys, "--test-piece", "--quiet", "--faults", "crosstalk:P1,P2", "--lang", "nl"
    )
    assert got == 1 and "pion op P1: trekt aan, OVERSPRAAK naar P2" in out
