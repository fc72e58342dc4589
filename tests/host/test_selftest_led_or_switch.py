"""A swapped LED and a swapped switch read alike at first (the lit hole's pawn closes
another hole's switch); the selftest then asks for the pawn by the hole's name and says
which of the two is wrong, and what to check. On the simulated board (`--sim --faults`)
and on the fake 74HC165 chain read by the real Pi-direct reader, with a dead switch and
a flaky joint in the same walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.host.cli import main
from keezbord.host.config import load_config
from keezbord.host.selftest import WalkSettings, run_walk, start_walk
from keezbord.host.selftest_piece import piece_holes, pieces_of
from keezbord.host.sim.builder import SimBoard, SimFaults
from keezbord.host.sim.chain import ChainBench


def _report(tmp_path: Path, capsys: pytest.CaptureFixture[str], faults: str, lang: str) -> str:
    cfg = tmp_path / "board.toml"
    cfg.write_text("[board]\nseats = 4\n")
    code = main(
        ["selftest", "--sim", "--config", str(cfg), "--quiet", "--faults", faults, "--lang", lang]
    )
    assert code == 1
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("lang", "switch", "led"),
    [
        ("en", "the switches of T1 and T2 are swapped", "the LEDs of T1 and T2 are swapped"),
        (
            "nl",
            "de schakelaars van T1 en T2 zijn verwisseld",
            "de LED's van T1 en T2 zijn verwisseld",
        ),
    ],
)
def test_a_swapped_led_and_a_swapped_switch_give_different_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, switch: str, led: str
) -> None:
    by_switch = _report(tmp_path, capsys, "swap:T1,T2", lang)
    by_led = _report(tmp_path, capsys, "led-swap:T1,T2", lang)
    assert by_switch != by_led
    assert switch in by_switch and led not in by_switch
    assert led in by_led and switch not in by_led
    # what to check: the two inputs by chip and pin, or the LED chain's order
    assert "chip 2 D6 (pin 5)" in by_switch and "chip 2 D7 (pin 6)" in by_switch
    assert "DIN/DOUT" in by_led and "DIN/DOUT" not in by_switch


def test_on_the_fake_chain_each_fault_is_named(tmp_path: Path) -> None:
    # 2 seats of 8: 32 holes on 4 chips and a signature chip; piece 0's 16 holes walked,
    # scanned every 2 ms (500 Hz) with the real debounce of 3 reads.
    cfg_file = tmp_path / "board.toml"
    cfg_file.write_text("[board]\nseats = 2\nsegment = 8\n[scanner]\nsignature = 0xA5\n")
    cfg = load_config(cfg_file)
    wiring = cfg.load_wiring()
    order = piece_holes(wiring, pieces_of(cfg.topology()), 0)
    a, b, dead, flaky = order[1], order[2], order[5], order[8]
    faults = SimFaults.parse(
        f"swap:{a},{b};led-swap:{order[10]},{order[11]};dead:{dead};flaky:{flaky}"
    )
    bench = ChainBench(SimBoard(wiring, faults), len(wiring.switch_order), 0xA5)
    clock = [0]

    def tick() -> None:
        clock[0] += 2

    walk, effects = start_walk(wiring, bench.closed_at_start(), 0, order, WalkSettings())
    report = run_walk(walk, effects, bench, lambda: clock[0], tick, max_ms=600_000)
    assert report is not None
    by_hole = {r.hole: r for r in report.results}
    assert by_hole[a].cause == "switch" and by_hole[b].cause == "switch"
    assert by_hole[order[10]].cause == "led" and by_hole[order[11]].cause == "led"
    assert by_hole[dead].status == "missing"
    assert by_hole[flaky].status == "chatter"
    assert sum(r.status == "ok" for r in report.results) == len(order) - 6


def test_on_the_fake_chain_the_live_view_shows_a_flaky_joint() -> None:
    # The builder presses on T10's cold joint: the real reader and debounce pass each
    # flip (they last longer than three scans), and the live view counts them.
    from keezbord.engine.topology import Topology
    from keezbord.hardware.wiring import default_wiring
    from keezbord.host.selftest_live import BitsView

    wiring = default_wiring(Topology(2, segment=8))
    board = SimBoard(wiring, SimFaults.parse("flaky:T10;dead:T11"))
    bench = ChainBench(board, len(wiring.switch_order), 0xA5)
    view = BitsView(wiring, len(wiring.switch_order), bench.closed_at_start())
    for now in range(10, 3000, 2):
        for c in board.press_joints(now - now % 20, 1000) if now % 20 == 0 else []:
            bench.chain.close_switch(c.index, c.closed)
        view.update(bench.poll(now))
    assert view.flaky() == ["T10"]
    assert view.changes[wiring.switch_index("T10")] == 6
    assert view.changes[wiring.switch_index("T11")] == 0
