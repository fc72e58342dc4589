"""What the firmware did during its longest gaps between scans, in simulated time: a copy
of firmware/ with trace marks (docs/emulator.md, "Trace marks") plays a recorded game or
a USB traffic kind on the emulated Pico, and the longest gaps are printed with the marks
inside them (which piece of the loop ran when, and for how long).

    .venv/bin/python bench/bench_gap_trace.py --game g102-6seats-standard --events 150
    .venv/bin/python bench/bench_gap_trace.py --usb flood --leds 96 [--top 5]

The marks cost about 40 us each, so a marked run's gaps are a little longer than the
firmware's own (bench_emulator.py and bench_emulator_usb.py give those).
"""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "emulator"))
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT / "bench"))

from emu import FIRMWARE, MS  # noqa: E402

MARK = "_MEM[0xD00000D0] = "  # SIO INTERP1_BASE2: the harness logs each store
# the marks' names: each piece of the loop, its start and its end
NAMES = {
    0x1: "step",
    0x2: "step end",
    0x10: "scan",
    0x11: "scan end",
    0x200: "handled",
    0x300: "heartbeat",
    0x301: "heartbeat end",
    0x400: "draw",
    0x401: "draw end",
    0x500: "CHANGES",
    0x501: "CHANGES end",
    0x600: "wait",
    0x700: "poll",
    0x701: "a frame read",
    0x800: "debounce",
    0x801: "debounce end",
}


def _wrap(src: str, head: str, code_in: int, code_out: int, args: str) -> str:
    """def NAME(self, ARGS): body  ->  a marked wrapper around the body as NAME_unmarked."""
    name = head.split("(")[0].split()[-1]
    assert head in src, f"firmware/app.py changed: {head!r} not found"
    return src.replace(
        head,
        f"{head}\n        {MARK}{code_in}\n        self.{name}_unmarked({args})\n"
        f"        {MARK}{code_out}\n\n    {head.replace(name, name + '_unmarked')}",
        1,
    )


def marked_copy(src_dir: Path, dst: Path) -> Path:
    shutil.copytree(src_dir, dst)
    app = dst / "app.py"
    s = app.read_text()

    def put(before: str, code: int) -> None:
        nonlocal s
        assert before in s, f"firmware/app.py changed: {before!r} not found"
        indent = before[: len(before) - len(before.lstrip())]
        s = s.replace(before, f"{indent}{MARK}{code}\n{before}", 1)

    s = s.replace("from array import array\n", "from array import array\n\nimport machine\n", 1)
    s = s.replace("class App:", "_MEM = machine.mem32\n\n\nclass App:", 1)
    s = _wrap(s, "def _scan(self, now):", 0x10, 0x11, "now")
    s = _wrap(s, "def _send_heartbeat(self, now):", 0x300, 0x301, "now")
    s = _wrap(s, "def _draw(self):", 0x400, 0x401, "")
    s = _wrap(s, "def _send_changes(self, now, changed, n):", 0x500, 0x501, "now, changed, n")
    s = _wrap(s, "def _handle(self, now):", 0x100, 0x200, "now")
    # the frame's type and length in the mark that starts its handling
    s = s.replace(
        f"        {MARK}256\n",
        f"        {MARK}0x100 | self.link.reader.buf[0] | (self.link.reader.end << 16)\n",
        1,
    )
    put("        clock = self.clock\n        now = clock.ms()\n        scanned =", 0x1)
    put("        if scanned:  # the gate wants", 2)
    put("        while k < FRAMES_PER_STEP and link.poll(now):", 0x700)
    put("            self._handle(now)\n", 0x701)
    put("        n = db.step(sc.sample)\n", 0x800)
    put("        if n:\n            self._send_changes", 0x801)
    put("            if wait <= 0 or stream.wait(wait):", 0x600)
    app.write_text(s)
    return dst


def name_of(v: int) -> str:
    if v & 0xFF00 == 0x100:
        return f"handling frame 0x{v & 0xFF:02x} ({(v >> 16) - 3} payload bytes)"
    return NAMES.get(v, hex(v))


def print_gaps(gaps: dict[str, Any], top: int) -> None:
    long = sorted(gaps["long"], key=lambda g: g[0] - g[1])
    print(f"longest gap {gaps['max'] / MS:.2f} ms; {len(long)} gaps over 3 ms")
    for a, b, marks in long[:top]:
        print(f"gap of {(b - a) / MS:.3f} ms (marks from 1 ms before it):")
        prev = None
        for t, v in marks:
            took = "" if prev is None else f"(+{(t - prev) / MS:.3f})"
            print(f"  {(t - a) / MS:+8.3f} ms {took:>10s}  {name_of(v)}")
            prev = t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--firmware", type=Path, default=FIRMWARE, help="firmware folder to mark")
    ap.add_argument("--game", help="recorded game of ../shared/conformance/games")
    ap.add_argument("--events", type=int, default=150, help="trace events to play")
    ap.add_argument("--usb", help="a traffic kind of bench_emulator_usb.py (flood, paced, ...)")
    ap.add_argument("--leds", type=int, default=192, choices=(96, 192))
    ap.add_argument("--top", type=int, default=3, help="gaps to print")
    args = ap.parse_args()
    if bool(args.game) == bool(args.usb):
        print("bench_gap_trace: give --game or --usb", file=sys.stderr)
        raise SystemExit(2)
    with tempfile.TemporaryDirectory() as d:
        fw = marked_copy(args.firmware, Path(d) / "fw")
        if args.game:
            from game import EmulatedTable

            trace = ROOT.parent / "shared" / "conformance" / "games" / f"{args.game}.trace.jsonl"
            table = EmulatedTable(trace, Path(d) / "game", firmware_dir=fw, sim_clock=True)
            try:
                table.play(args.events)
                gaps = table.pico.call("scan_gaps")
            finally:
                table.close()
        else:
            from bench_emulator_usb import board, boot, gaps_under

            n = args.leds
            pico, host = boot(Path(d), "usb", board(n // 8, n), fw)
            try:
                gaps_under(pico, host, n, args.usb, 2000)
                gaps = pico.call("scan_gaps")
            finally:
                pico.stop()
    print_gaps(gaps, args.top)


if __name__ == "__main__":
    main()
