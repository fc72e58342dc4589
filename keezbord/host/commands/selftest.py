"""``keezbord selftest``: walk a newly built board hole by hole (keezbord/host/selftest.py),
after a preflight that stops at once, with the fix, when the reader or the chain is at
fault (keezbord/host/bringup.py); one piece at a time (``--piece N``), the chips' bits
live (``--live``), the LEDs alone (``--leds``), the three-hole test piece
(``--test-piece``). The hardware: selftest_rig.py; the simulated board: host/sim.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from keezbord.engine.text import Text, check_lang
from keezbord.host.bringup import BringupStop
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.commands.selftest_rig import Rig, monotonic_ms, open_rig
from keezbord.host.config import BoardConfig, find_config
from keezbord.host.errors import UsageError

SIM_TICK_MS = 20


def add_selftest_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", metavar="FILE", help="board configuration (default: ./board.toml if present)"
    )
    add_lang_argument(parser)
    parser.add_argument(
        "--sim", action="store_true", help="run against a simulated board (no hardware needed)"
    )
    parser.add_argument(
        "--faults",
        default="",
        help="faults for --sim, e.g. 'swap:T3,T4;led-swap:T1,T2;dead:T7;chatter:T9;"
        "flaky:T10;stuck:N0.1;dark:T11;crosstalk:P1,P2' or one of the link and chain faults "
        "'no-pico', 'open', 'signature:0x5A', 'cut:2' (docs/hardware.md, Bring-up)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--live", action="store_true", help="show every chip's bits as they change (q: stop)"
    )
    mode.add_argument(
        "--leds", action="store_true", help="walk the LEDs alone (before the switches are in)"
    )
    mode.add_argument(
        "--test-piece",
        action="store_true",
        help="the three-hole test piece on chip 0's first three inputs: pull-in, crosstalk",
    )
    parser.add_argument(
        "--piece",
        type=int,
        default=None,
        metavar="N",
        help="only piece N (a seat's piece; pieces 0..N connected from the reader)",
    )
    parser.add_argument("--seconds", type=float, default=None, help="--live: stop after this long")
    parser.add_argument(
        "--report",
        default=None,
        metavar="FILE",
        help="also write the report as JSON to FILE, and a readable .txt "
        "beside it (default: only print it)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="give up on a hole after this long (default: wait; type s "
        "and Enter to skip a hole, q to stop)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the report")


def run_selftest(args: argparse.Namespace) -> int:
    cfg = find_config(args.config)
    lang = check_lang(args.lang)
    if args.faults and not args.sim:
        raise UsageError("--faults only applies with --sim")
    try:
        return _run(args, cfg, lang)
    except BringupStop as stop:  # the reader or the chain: nothing to walk
        raise UsageError(stop.fault.text.get(lang)) from None


def _expects(signature: int | None, lang: str) -> str:
    sig = "none" if signature is None else f"0x{signature:02X}"
    return Text(
        nl=f"verwachte signatuur van de keten: {sig} (scanner.signature)",
        en=f"the chain's expected signature: {sig} (scanner.signature)",
    ).get(lang)


def _run(args: argparse.Namespace, cfg: BoardConfig, lang: str) -> int:
    from keezbord.host.selftest_piece import (
        OffcutWiring,
        connected_through,
        piece_holes,
        pieces_of,
    )

    say: Callable[[str], None] = (
        (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    )
    wiring: Any = cfg.load_wiring()
    bits, hint, order = len(wiring.switch_order), "", None
    if args.test_piece:
        wiring, bits = OffcutWiring(), 8
        hint = "keezbord firmware install --chips 1 --leds 3"
    elif args.piece is not None:
        pieces = pieces_of(cfg.topology())
        order = piece_holes(wiring, pieces, args.piece)
        chips, leds = connected_through(wiring, pieces, args.piece)
        bits = chips * 8
        hint = f"keezbord firmware install --chips {chips} --leds {leds}"
        say(
            Text(
                nl=f"stuk {args.piece}: {len(order)} gaten; de stukken 0 t/m {args.piece} "
                f"aangesloten ({chips} chips, {leds} LED's), de keten erna afgesloten",
                en=f"piece {args.piece}: {len(order)} holes; pieces 0 to {args.piece} "
                f"connected ({chips} chips, {leds} LEDs), the chain closed after them",
            ).get(lang)
        )
    say(_expects(cfg.scanner.signature, lang))
    bench = _sim_bench(args, cfg, wiring, bits) if args.sim else None
    if args.live:
        return _live(args, cfg, wiring, bits, hint, bench, lang)
    if args.leds:
        holes = order or tuple(h for h in wiring.led_order if h is not None)
        return _leds_walk(args, cfg, wiring, holes, bits, hint, bench, lang, say)
    report = _walk(args, cfg, wiring, order, bits, hint, bench, lang, say)
    if report is None:
        raise UsageError("selftest stopped before the end")
    if args.test_piece:
        from keezbord.host.selftest_leds import offcut_report

        good, text = offcut_report(report.results, lang)
    else:
        good, text = report.ok, report.to_text(lang)
    print(text, end="")
    if args.report is not None:  # files only where asked: never into the cwd unasked
        json_path = Path(args.report)
        json_path.write_text(report.to_json() + "\n", encoding="utf-8")
        json_path.with_suffix(".txt").write_text(text, encoding="utf-8")
        print(f"{json_path}, {json_path.with_suffix('.txt')}")
    return 0 if good else 1


def _sim_bench(args: argparse.Namespace, cfg: BoardConfig, wiring: Any, bits: int) -> Any:
    """The simulated board, after its preflight (a planted link or chain fault stops)."""
    from keezbord.host.sim.builder import SimBoard, SimFaults
    from keezbord.host.sim.chain import sim_preflight

    faults = SimFaults.parse(args.faults)
    found = sim_preflight(faults.chain, bits, cfg.scanner.signature, cfg.scanner.port)
    if found is not None:
        raise BringupStop(found)
    return SimBoard(wiring, faults)


def _walk(
    args: argparse.Namespace,
    cfg: BoardConfig,
    wiring: Any,
    order: Any,
    bits: int,
    hint: str,
    bench: Any,
    lang: str,
    say: Callable[[str], None],
) -> Any:
    from keezbord.host.selftest import WalkSettings, run_walk, start_walk

    timeout_ms = None if args.timeout is None else int(args.timeout * 1000)
    settings = WalkSettings(timeout_ms=timeout_ms, confirm_swaps=not args.test_piece)
    if bench is not None:
        clock = [0]

        def tick() -> None:
            clock[0] += SIM_TICK_MS

        walk, effects = start_walk(wiring, bench.closed_at_start(), 0, order, settings)
        return run_walk(walk, effects, _SayingIO(bench, say, lang), lambda: clock[0], tick)
    rig = open_rig(cfg, wiring.led_order, bits, hint)
    try:
        say("s + Enter: gat overslaan / skip a hole; q + Enter: stoppen / stop")
        io = _SayingIO(_HardwareIO(rig, _stdin_keys()), say, lang)
        walk, effects = start_walk(wiring, rig.closed, monotonic_ms(), order, settings)
        return run_walk(walk, effects, io, monotonic_ms, lambda: time.sleep(rig.period))
    finally:
        rig.close()


def _live(
    args: argparse.Namespace,
    cfg: BoardConfig,
    wiring: Any,
    bits: int,
    hint: str,
    bench: Any,
    lang: str,
) -> int:
    """Every chip's bits, printed again whenever one changes; then the flaky ones."""
    from keezbord.host.selftest_live import BitsView

    seconds = args.seconds if args.seconds is not None else (10.0 if bench is not None else None)
    if bench is not None:
        view = BitsView(wiring, bits, bench.closed_at_start())
        end = int((seconds or 0) * 1000)
        for now in range(0, end + 1, SIM_TICK_MS):
            for k in view.update(bench.press_joints(now, 1000)):
                print(f"{now / 1000:6.2f}s {view.chip_line(k)}")
    else:
        rig = open_rig(cfg, wiring.led_order, bits, hint)
        try:
            view = BitsView(wiring, bits, rig.closed)
            print("\n".join(view.lines()), flush=True)
            keys, start = _stdin_keys(), monotonic_ms()
            while seconds is None or monotonic_ms() - start < seconds * 1000:
                now = monotonic_ms()
                for k in view.update(rig.source(now)):
                    print(f"{(now - start) / 1000:6.2f}s {view.chip_line(k)}", flush=True)
                if any(key.strip().lower().startswith("q") for key in _drain(keys)):
                    break
                time.sleep(rig.period)
        finally:
            rig.close()
    print("\n".join(view.lines()))
    flaky = view.flaky_text()
    print(
        flaky.get(lang)
        if flaky
        else Text(nl="geen wisselende bits", en="no flipping bits").get(lang)
    )
    return 1 if flaky else 0


def _leds_walk(
    args: argparse.Namespace,
    cfg: BoardConfig,
    wiring: Any,
    holes: Any,
    bits: int,
    hint: str,
    bench: Any,
    lang: str,
    say: Callable[[str], None],
) -> int:
    from keezbord.host.selftest_leds import led_report, led_walk

    if bench is not None:
        results = led_walk(holes, wiring, lambda f: None, lambda h, led, p: bench.lit_answer(h))
    else:
        rig = open_rig(cfg, wiring.led_order, bits, hint, note=lambda t: say(t.get(lang)))
        keys = _stdin_keys()
        frame: list[Mapping[str, str]] = [{}]

        def ask(hole: str, led: int, prompt: Text) -> str:
            say(prompt.get(lang))
            while True:  # keep the link (and the frame) alive while the builder looks
                rig.show(frame[0], monotonic_ms())
                rig.source(monotonic_ms())
                answer = None if keys.empty() else keys.get_nowait()  # one a question
                if answer is not None:
                    if answer.strip().lower() == "q":
                        raise KeyboardInterrupt
                    return answer
                time.sleep(rig.period)

        try:
            results = led_walk(holes, wiring, lambda f: frame.__setitem__(0, dict(f)), ask)
        finally:
            rig.close()
    good, text = led_report(results, lang)
    print(text, end="")
    return 0 if good else 1


class _SayingIO:
    """Wraps a WalkIO: prompts are printed as well as applied."""

    def __init__(self, inner: Any, say: Callable[[str], None], lang: str) -> None:
        self.inner, self.say, self.lang = inner, say, lang

    def apply(self, effect: Any) -> None:
        from keezbord.host.selftest import Prompt

        if isinstance(effect, Prompt):
            self.say(effect.text.get(self.lang))
        self.inner.apply(effect)

    def poll(self, now: int) -> Any:
        return self.inner.poll(now)


class _HardwareIO:
    """Switch changes from the rig, LED frames rendered at the current time (so patterns
    blink), skips typed on standard input."""

    def __init__(self, rig: Rig, keys: queue.Queue[str]) -> None:
        self.rig, self.keys = rig, keys
        self.frame: dict[str, str] = {}

    def apply(self, effect: Any) -> None:
        from keezbord.host.selftest import ShowLeds

        if isinstance(effect, ShowLeds):
            self.frame = dict(effect.frame)

    def poll(self, now: int) -> list[Any]:
        from keezbord.host.selftest import Skip

        self.rig.show(self.frame, now)
        out = list(self.rig.source(now))
        for key in _drain(self.keys):
            key = key.strip().lower()
            if key.startswith("q"):
                raise KeyboardInterrupt
            if key.startswith("s"):
                out.append(Skip(now))
        return out


def _drain(keys: queue.Queue[str]) -> list[str]:
    out = []
    while not keys.empty():
        out.append(keys.get_nowait())
    return out


def _stdin_keys() -> queue.Queue[str]:
    q: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            q.put(line)

    threading.Thread(target=read, daemon=True).start()
    return q
