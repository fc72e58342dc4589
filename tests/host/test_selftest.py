"""The selftest walk as a pure state machine, and against the simulated board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.cli import main
from keezbord.host.drivers.switches import SwitchChange
from keezbord.host.selftest import (
    Finished,
    Prompt,
    SelftestReport,
    ShowLeds,
    Skip,
    Walk,
    WalkSettings,
    WalkTick,
    run_walk,
    start_walk,
    step,
)
from keezbord.host.sim.builder import SimBoard, SimFaults

WIRING = default_wiring(Topology(2, 8))
ORDER = ("T0", "T1", "T2")


def feed(w: Walk, *inputs: tuple[int, object]) -> tuple[Walk, list[object]]:
    effects: list[object] = []
    for now, inp in inputs:
        w, e = step(w, inp, now)  # type: ignore[arg-type]
        effects += e
    return w, effects


def sw(hole: str) -> int:
    return WIRING.switch_index(hole)


def test_start_lights_the_first_hole_and_asks_for_a_pawn() -> None:
    _, effects = start_walk(WIRING, [], 0, ORDER)
    assert effects[0] == ShowLeds({"T0": "target"})
    assert isinstance(effects[1], Prompt) and effects[1].ask == "place"
    assert "T0" in effects[1].text.nl and "T0" in effects[1].text.en


def test_a_good_hole_then_the_next() -> None:
    w, _ = start_walk(WIRING, [], 0, ORDER, WalkSettings(settle_ms=300))
    w, eff = feed(w, (100, SwitchChange(100, sw("T0"), True)), (200, WalkTick(200)))
    assert eff == [] and w.phase == "settle"  # not judged before it settles
    w, eff = feed(w, (400, WalkTick(400)))
    assert w.phase == "lift" and w.results[-1].status == "ok"
    assert isinstance(eff[0], Prompt) and eff[0].ask == "lift"
    w, eff = feed(w, (500, SwitchChange(500, sw("T0"), False)), (850, WalkTick(850)))
    assert w.hole == "T1" and eff[0] == ShowLeds({"T1": "target"})


def test_wrong_switch_is_swapped_and_unmapped_input_is_flagged() -> None:
    w, _ = start_walk(WIRING, [], 0, ORDER)
    w, eff = feed(w, (0, SwitchChange(0, sw("T2"), True)), (400, WalkTick(400)))
    # read as another hole: the pawn is asked for again, by the hole's name
    assert w.phase == "confirm" and isinstance(eff[0], Prompt) and eff[0].ask == "confirm"
    assert "named T0" in eff[0].text.en and "heet" in eff[0].text.nl
    # lifted and put on T0 by its name: the same wrong switch closes: the switch's wire
    w, _ = feed(
        w,
        (500, SwitchChange(500, sw("T2"), False)),
        (700, SwitchChange(700, sw("T2"), True)),
        (1100, WalkTick(1100)),
    )
    r = w.results[-1]
    assert (r.status, r.reads_as, r.switch, r.expected_switch, r.cause) == (
        "swapped",
        "T2",
        sw("T2"),
        sw("T0"),
        "switch",
    )
    w, _ = feed(w, (1200, SwitchChange(1200, sw("T2"), False)), (1600, WalkTick(1600)))
    spare = WIRING.switch_order.index(None) if None in WIRING.switch_order else None
    if spare is not None:
        w, _ = feed(w, (1700, SwitchChange(1700, spare, True)), (2100, WalkTick(2100)))
        assert w.results[-1].status == "unmapped"


def test_a_pawn_put_by_name_on_its_own_switch_says_the_led_is_wrong() -> None:
    w, _ = start_walk(WIRING, [], 0, ORDER)
    w, _ = feed(w, (0, SwitchChange(0, sw("T2"), True)), (400, WalkTick(400)))
    w, _ = feed(
        w,
        (500, SwitchChange(500, sw("T2"), False)),
        (700, SwitchChange(700, sw("T0"), True)),
        (1100, WalkTick(1100)),
    )
    r = w.results[-1]
    assert (r.status, r.cause, r.confirm_switch) == ("swapped", "led", sw("T0"))
    assert w.phase == "lift"


def test_bouncing_switch_is_chatter_and_a_pawn_that_falls_off_is_waited_for() -> None:
    w, _ = start_walk(WIRING, [], 0, ORDER)
    s = sw("T0")
    w, _ = feed(
        w, *[(t, SwitchChange(t, s, t % 40 == 0)) for t in range(0, 180, 20)], (600, WalkTick(600))
    )
    assert w.results[-1].status == "chatter" and w.results[-1].transitions == 9
    w2, _ = start_walk(WIRING, [], 0, ORDER)
    w2, _ = feed(
        w2, (0, SwitchChange(0, s, True)), (50, SwitchChange(50, s, False)), (500, WalkTick(500))
    )
    assert w2.phase == "place" and w2.results == ()


def test_skip_timeout_and_stuck_switches() -> None:
    w, eff = start_walk(WIRING, [sw("T1")], 0, ORDER, WalkSettings(timeout_ms=1000))
    assert isinstance(eff[0], Prompt) and eff[0].ask == "info" and "T1" in eff[0].text.en
    w, _ = feed(w, (10, Skip(10)))
    # T0 skipped; T1's switch is stuck closed: it cannot tell a pawn, so it is not asked for one.
    assert [r.status for r in w.results] == ["missing", "stuck"] and w.hole == "T2"
    w, _ = feed(w, (500, SwitchChange(500, sw("T1"), False)))  # a stuck switch is ignored
    w, _ = feed(w, (1020, WalkTick(1020)))
    assert w.results[-1].status == "missing" and w.phase == "done"


def test_a_pawn_never_lifted_is_given_up_on_after_the_timeout() -> None:
    w, _ = start_walk(WIRING, [], 0, ORDER, WalkSettings(timeout_ms=1000))
    w, _ = feed(w, (0, SwitchChange(0, sw("T0"), True)), (400, WalkTick(400)))
    assert w.phase == "lift"
    w, _ = feed(w, (1300, WalkTick(1300)))
    assert w.phase == "lift"  # waited for
    w, _ = feed(w, (1500, WalkTick(1500)))
    assert w.hole == "T1" and sw("T0") in w.stuck  # stuck from now on, not T1's pawn
    w, _ = feed(w, (1600, SwitchChange(1600, sw("T1"), True)), (2000, WalkTick(2000)))
    assert w.results[-1].hole == "T1" and w.results[-1].status == "ok"


def test_walk_finishes_with_a_report() -> None:
    w, _ = start_walk(WIRING, [], 0, ("T0",))
    w, eff = feed(
        w,
        (0, SwitchChange(0, sw("T0"), True)),
        (400, WalkTick(400)),
        (410, SwitchChange(410, sw("T0"), False)),
        (800, WalkTick(800)),
    )
    fin = [e for e in eff if isinstance(e, Finished)]
    assert len(fin) == 1 and fin[0].report.ok and w.phase == "done"
    assert feed(w, (900, WalkTick(900)))[1] == []


def sim(faults: str) -> SelftestReport:
    board = SimBoard(WIRING, SimFaults.parse(faults))
    clock = [0]

    def tick() -> None:
        clock[0] += 20

    w, eff = start_walk(WIRING, board.closed_at_start(), 0)
    report = run_walk(w, eff, board, lambda: clock[0], tick, max_ms=10**7)
    assert report is not None
    return report


def test_clean_simulated_board_passes_every_hole() -> None:
    r = sim("")
    assert r.ok and len(r.results) == len(WIRING.led_order)
    assert [x.hole for x in r.results] == list(WIRING.led_order)  # along the LED chain


def test_simulated_faults_are_each_found() -> None:
    r = sim("swap:T3,T4;missing:T7;chatter:T9;stuck:N0.1;led-swap:T1,T2")
    status = {x.hole: x.status for x in r.results}
    assert {h for h, s in status.items() if s != "ok"} == {
        "T1",
        "T2",
        "T3",
        "T4",
        "T7",
        "T9",
        "N0.1",
    }
    assert status["T9"] == "chatter" and status["T7"] == "missing" and status["N0.1"] == "stuck"
    assert r.swapped_pairs() == [("T1", "T2"), ("T3", "T4")]
    assert r.stuck_holes == ("N0.1",) and not r.ok
    d = r.to_dict()
    assert d["counts"]["swapped"] == 4 and d["swapped_pairs"] == [["T1", "T2"], ["T3", "T4"]]
    assert d["counts"]["stuck"] == 1 and d["counts"]["missing"] == 1
    assert "T3 en T4 zijn verwisseld" in r.to_text("nl")
    assert "T3 and T4 are swapped" in r.to_text("en")


def test_bad_fault_spec() -> None:
    with pytest.raises(ValueError, match="bad fault"):
        SimFaults.parse("swap:T3")
    with pytest.raises(ValueError, match="not a hole"):
        SimBoard(WIRING, SimFaults.parse("missing:T99"))


def test_cli_selftest_sim_writes_json_and_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "board.toml"
    cfg.write_text("[board]\nseats = 2\nsegment = 8\n")
    rep = tmp_path / "out.json"
    args = [
        "selftest",
        "--config",
        str(cfg),
        "--sim",
        "--quiet",
        "--report",
        str(rep),
        "--lang",
        "nl",
    ]
    assert main(args) == 0
    assert json.loads(rep.read_text())["ok"] is True
    assert "in orde" in rep.with_suffix(".txt").read_text()
    assert main([*args, "--faults", "missing:T1", "--lang", "en"]) == 1
    assert json.loads(rep.read_text())["counts"]["missing"] == 1
    capsys.readouterr()
    assert main([*args, "--faults", "melt:T1"]) == 2
    assert "bad fault" in capsys.readouterr().err


def test_selftest_on_a_pico_whose_port_is_held_says_who_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 24 item 3: with the service running (it holds the Pico's port), the walk used
    # to start and wait for pawns that no switch could report. Now: one line, exit 2.
    import os

    serial = pytest.importorskip("serial")
    master, slave = os.openpty()
    path = os.ttyname(slave)
    held = serial.Serial(path, 115200, exclusive=True)  # what the service holds
    cfg = tmp_path / "board.toml"
    cfg.write_text(
        f'[board]\nseats = 4\n[scanner]\nkind = "pico-serial"\nport = "{path}"\n'
        '[leds]\ndriver = "pico-serial"\n'
    )
    try:
        assert main(["selftest", "--config", str(cfg)]) == 2
    finally:
        held.close()
        os.close(master)
        os.close(slave)
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and f"{path} is held by pid {os.getpid()} (" in err, err
    assert "put a pawn" not in out
