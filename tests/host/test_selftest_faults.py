"""Issue 25 item 3: ``selftest --sim`` finishes within its timeouts for every mix of
faults and reports exactly the faults planted (a property over random fault sets), and
the commands the issue found hanging at 100% CPU finish (subprocesses)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.selftest import (
    CHATTER_MAX_MS,
    SelftestReport,
    WalkSettings,
    run_walk,
    start_walk,
)
from keezbord.host.sim.builder import SimBoard, SimFaults

WIRING = default_wiring(Topology(2, 8))
HOLES = [h for h in WIRING.switch_order if h is not None]
GIVE_UP_MS = 5400  # SimBoard: it reacts in 400 ms, then gives up after 5 s (types s)
REACT_MS = 400


@dataclass(frozen=True)
class Planted:
    swaps: tuple[tuple[str, str], ...]
    led_swaps: tuple[tuple[str, str], ...]
    missing: tuple[str, ...]
    chatter: tuple[str, ...]
    stuck: tuple[str, ...]

    def spec(self) -> str:
        parts = [f"swap:{a},{b}" for a, b in self.swaps]
        parts += [f"led-swap:{a},{b}" for a, b in self.led_swaps]
        parts += [
            f"{kind}:{h}" for kind in ("missing", "chatter", "stuck") for h in getattr(self, kind)
        ]
        return ";".join(parts)


@st.composite
def fault_sets(draw: st.DrawFn) -> Planted:
    """Faults on distinct holes (a hole with two faults has no one right answer)."""
    holes = draw(st.permutations(HOLES))
    counts = [draw(st.integers(0, n)) for n in (2, 2, 3, 3, 2)]
    it = iter(holes)

    def take(n: int) -> tuple[str, ...]:
        return tuple(next(it) for _ in range(n))

    swaps = tuple(take(2) for _ in range(counts[0]))
    led = tuple(take(2) for _ in range(counts[1]))
    return Planted(swaps, led, take(counts[2]), take(counts[3]), take(counts[4]))  # type: ignore[arg-type]


def walk(planted: Planted, timeout_ms: int | None) -> tuple[SelftestReport | None, int]:
    board = SimBoard(WIRING, SimFaults.parse(planted.spec()))
    clock = [0]

    def tick() -> None:
        clock[0] += 20

    w, eff = start_walk(
        WIRING, board.closed_at_start(), 0, settings=WalkSettings(timeout_ms=timeout_ms)
    )
    bound = len(HOLES) * per_hole_ms(timeout_ms)
    return run_walk(w, eff, board, lambda: clock[0], tick, max_ms=bound), clock[0]


def per_hole_ms(timeout_ms: int | None) -> int:
    """The longest a hole may take: waiting for its pawn (the timeout, or the builder
    giving up), the pawn settling (at most CHATTER_MAX_MS), waiting for the lift."""
    wait = GIVE_UP_MS if timeout_ms is None else min(timeout_ms, GIVE_UP_MS)
    lift = REACT_MS + 400 if timeout_ms is None else timeout_ms
    return wait + REACT_MS + CHATTER_MAX_MS + lift + 100


@settings(max_examples=80, deadline=None)
@given(fault_sets(), st.sampled_from([None, 1000, 2000, 3000, 5000, 8000]))
def test_the_walk_ends_in_time_and_reports_exactly_the_planted_faults(
    planted: Planted, timeout_ms: int | None
) -> None:
    report, _ = walk(planted, timeout_ms)
    assert report is not None, f"no report within the bound ({planted.spec()}, {timeout_ms})"
    status = {r.hole: r.status for r in report.results}
    assert set(status) == set(HOLES)
    swapped = {h for pair in (*planted.swaps, *planted.led_swaps) for h in pair}
    want = {
        **dict.fromkeys(swapped, "swapped"),
        **dict.fromkeys(planted.missing, "missing"),
        **dict.fromkeys(planted.chatter, "chatter"),
        **dict.fromkeys(planted.stuck, "stuck"),
    }
    assert {h: s for h, s in status.items() if s != "ok"} == want, planted.spec()
    pairs = sorted(tuple(sorted(p)) for p in (*planted.swaps, *planted.led_swaps))
    assert report.swapped_pairs() == pairs
    assert sorted(report.stuck_holes) == sorted(planted.stuck)
    assert report.ok == (not want)


CLI_TIMEOUT_S = 60  # the walk is simulated (no sleeping): it takes seconds of CPU


@pytest.mark.parametrize(
    ("faults", "timeout", "bad"),
    [
        ("missing:T7", "2", {"T7": "missing"}),
        ("stuck:N0.1", "2", {"N0.1": "stuck"}),
        ("stuck:N0.1", None, {"N0.1": "stuck"}),
        ("missing:T7", "1", {"T7": "missing"}),
        (
            "swap:T3,T4;missing:T7;chatter:T9",
            "2",
            {"T3": "swapped", "T4": "swapped", "T7": "missing", "T9": "chatter"},
        ),
    ],
)
def test_the_issues_commands_finish_and_say_only_the_faults(
    faults: str, timeout: str | None, bad: dict[str, str]
) -> None:
    # `keezbord selftest --sim` on the default 4-seat board, as the issue ran it.
    args = [sys.executable, "-m", "keezbord", "selftest", "--sim", "--quiet", "--faults", faults]
    if timeout is not None:
        args += ["--timeout", timeout]
    out = subprocess.run(args, capture_output=True, text=True, timeout=CLI_TIMEOUT_S)
    assert out.returncode == 1, out.stderr
    # a hole's line (a swapped hole's advice follows it, indented further)
    lines = [x.strip() for x in out.stdout.splitlines() if x[:2] == "  " and x[2] != " "]
    assert sorted(x.split(":")[0] for x in lines) == sorted(bad)
    c = {s: 0 for s in ("swapped", "missing", "chatter", "stuck")}
    for s in bad.values():
        c[s] += 1
    assert (
        f"{96 - len(bad)} ok, {c['swapped']} swapped, 0 unmapped switch, {c['missing']} missing, "
        f"{c['chatter']} chattering, {c['stuck']} stuck"
    ) in out.stdout
