# mypy: disable-error-code="import-not-found"
"""The WS2812 PIO program, simulated cycle by cycle from ws2812.py's own source (its
syntax tree: instructions, side-set values, [delays]) at 125, 133 and 200 MHz system
clocks, against the WS2812B datasheet; and the reset gap between frames (>= 300 us)."""

from __future__ import annotations

import ast
import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import pytest
import ws2812_timing as W

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"

# WS2812B datasheet (Worldsemi): T0H 0.40, T1H 0.80, T0L 0.85, T1L 0.45 us, each +-150 ns;
# a bit (TH + TL) 1.25 us +-600 ns. In ns: (lowest, highest).
WINDOWS = {
    "T0H": (250, 550),
    "T1H": (650, 950),
    "T0L": (700, 1000),
    "T1L": (300, 600),
    "bit": (650, 1850),
}


@dataclass(frozen=True)
class Instr:
    op: str
    args: tuple[object, ...]
    side: int
    delay: int


def parse_program(src: str, name: str = "_ws2812") -> tuple[list[Instr], dict[str, int], int, int]:
    """(instructions, labels, wrap_target index, wrap index) of an @rp2.asm_pio body."""
    fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == name)
    prog: list[Instr] = []
    labels: dict[str, int] = {}
    wrap_target, wrap = 0, -1
    for st in fn.body:
        assert isinstance(st, ast.Expr)
        node = st.value
        delay = 0
        if isinstance(node, ast.Subscript):
            delay = ast.literal_eval(node.slice)
            node = node.value
        side = 0
        assert isinstance(node, ast.Call)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "side":
            side = ast.literal_eval(node.args[0])
            node = node.func.value
            assert isinstance(node, ast.Call)
        assert isinstance(node.func, ast.Name)
        op = node.func.id
        args = tuple(a.id if isinstance(a, ast.Name) else ast.literal_eval(a) for a in node.args)
        if op == "label":
            labels[str(args[0])] = len(prog)
        elif op == "wrap_target":
            wrap_target = len(prog)
        elif op == "wrap":
            wrap = len(prog) - 1
        else:
            prog.append(Instr(op, args, side, delay))
    return prog, labels, wrap_target, wrap


def run(
    prog: list[Instr], labels: dict[str, int], wrap_target: int, wrap: int, bits: list[int]
) -> list[int]:
    """Pin level per PIO cycle while shifting out `bits` (the FIFO never runs dry)."""
    pins: list[int] = []
    pc, x, i = 0, 0, 0
    while i <= len(bits):
        ins = prog[pc]
        if ins.op == "out":
            if i == len(bits):
                pins.append(ins.side)  # stalls here with its side-set applied
                break
            x = bits[i]
            i += 1
        pins += [ins.side] * (1 + ins.delay)
        nxt = pc + 1
        if ins.op == "jmp":
            cond, target = ins.args if len(ins.args) == 2 else (None, ins.args[0])
            if cond is None or (cond == "not_x" and x == 0):
                nxt = labels[str(target)]
        elif ins.op not in ("out", "nop"):
            raise AssertionError(f"instruction {ins.op} not modelled")
        pc = wrap_target if pc == wrap else nxt
    return pins


def bit_cycles(pins: list[int], bits: list[int]) -> dict[str, set[int]]:
    """High and low cycles of each bit value, from the pin trace (a bit starts with a
    rising edge and ends at the next one)."""
    rises = [k for k in range(1, len(pins)) if pins[k] and not pins[k - 1]]
    if pins[0]:
        rises.insert(0, 0)
    out: dict[str, set[int]] = {
        "T0H": set(),
        "T1H": set(),
        "T0L": set(),
        "T1L": set(),
        "bit": set(),
    }
    for b, (a, z) in zip(bits, itertools.pairwise(rises), strict=False):
        high = sum(pins[a:z])
        out[f"T{b}H"].add(high)
        out[f"T{b}L"].add(z - a - high)
        out["bit"].add(z - a)
    return out


BITS = [0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1]


def program() -> tuple[list[Instr], dict[str, int], int, int]:
    return parse_program((FIRMWARE / "ws2812.py").read_text())


def ns_range(cycles: int, sys_hz: int, freq: int) -> tuple[float, float]:
    """Shortest and longest duration of `cycles` state-machine cycles, in ns, with
    MicroPython's divider (sys_hz / freq as 16.8 fixed point, fraction truncated): a
    fractional divider stretches or shortens a run of cycles by up to one system clock."""
    div = sys_hz / freq
    d_int = int(div)
    frac = int((div - d_int) * 256)
    exact = cycles * (d_int + frac / 256)
    return (math.floor(exact) * 1e9 / sys_hz, math.ceil(exact) * 1e9 / sys_hz)


def check(sys_hz: int, freq: int, prog: tuple[list[Instr], dict[str, int], int, int]) -> list[str]:
    cyc = bit_cycles(run(*prog, BITS), BITS)
    bad = []
    for name, (lo, hi) in WINDOWS.items():
        assert len(cyc[name]) == 1, (name, cyc[name])  # every bit of a kind alike
        shortest, longest = ns_range(next(iter(cyc[name])), sys_hz, freq)
        if shortest < lo or longest > hi:
            bad.append(f"{name} {shortest:.0f}-{longest:.0f} ns not in {lo}-{hi}")
    return bad


@pytest.mark.parametrize("sys_mhz", [125, 133, 200])
def test_bit_timing_within_the_datasheet(sys_mhz: int) -> None:
    sys_hz = sys_mhz * 1_000_000
    freq = W.sm_freq(sys_hz)
    assert check(sys_hz, freq, program()) == []
    div = sys_hz / freq
    assert int((div - int(div)) * 256) == 0  # an integer divider: no cycle jitter
    cyc = bit_cycles(run(*program(), BITS), BITS)
    assert cyc["T0H"] == {W.T1} and cyc["T1H"] == {W.T1 + W.T2}
    assert cyc["bit"] == {W.CYCLES_PER_BIT}


def test_the_check_has_teeth_old_program_at_125_mhz() -> None:
    # The program before issue 9: 2/5/3 cycles at freq=8 MHz, a 15.625 divider at
    # 125 MHz. T0H (2 cycles) can last 31 system clocks = 248 ns: under the minimum.
    old = """
def _ws2812():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()
"""
    bad = check(125_000_000, 8_000_000, parse_program(old))
    assert any(b.startswith("T0H 248") for b in bad), bad
    assert check(200_000_000, 8_000_000, parse_program(old)) == []


def test_the_strip_uses_the_integer_divider_and_the_line_rests_low() -> None:
    src = (FIRMWARE / "ws2812.py").read_text()
    assert "freq=sm_freq(sys_hz)" in src and "sys_hz = machine.freq()" in src
    assert "sideset_init=rp2.PIO.OUT_LOW" in src
    pins = run(*program(), [1, 0, 1])
    assert pins[-1] == 0  # after the last bit (stalled on `out`): low, the reset level


def test_frame_time_matches_the_program() -> None:
    for sys_hz in (125_000_000, 133_000_000, 200_000_000):
        bit_ns = W.CYCLES_PER_BIT * W.divider(sys_hz) * 1e9 / sys_hz
        assert W.frame_us(192, sys_hz) == math.ceil(192 * 24 * bit_ns / 1000)


class UsClock:
    def __init__(self) -> None:
        self.t = 0

    def us(self) -> int:
        return self.t

    def diff(self, a: int, b: int) -> int:
        return a - b

    def add(self, a: int, b: int) -> int:
        return a + b


@pytest.mark.parametrize("n_leds", [1, 192, 600])
def test_reset_gap_between_frames(n_leds: int) -> None:
    clock = UsClock()
    sys_hz = 125_000_000
    pacer = W.Pacer(clock, n_leds, sys_hz)
    starts = []
    for t in range(0, 200_000, 10):  # the app asks every 10 us
        clock.t = t
        if pacer.ready():
            pacer.started()
            starts.append(t)
    assert len(starts) > 3
    gaps = {b - a - W.frame_us(n_leds, sys_hz) for a, b in itertools.pairwise(starts)}
    assert min(gaps) >= W.RESET_US >= 300
    assert max(gaps) <= W.RESET_US + 40  # paced, not starved
