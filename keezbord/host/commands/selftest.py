"""``keezbord selftest``: walk a newly built board hole by hole (keezbord/host/selftest.py),
after a preflight that stops at once, with the fix, when the reader or the chain is at
fault (keezbord/host/bringup.py).
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from keezbord.engine.text import check_lang
from keezbord.host.bringup import BringupStop
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.config import BoardConfig, find_config
from keezbord.host.errors import UsageError


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config", metavar="FILE", help="board configuration (default: ./board.toml if present)"
    )
    add_lang_argument(p)


def add_selftest_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument(
        "--sim", action="store_true", help="run against a simulated board (no hardware needed)"
    )
    parser.add_argument(
        "--faults",
        default="",
        help="faults for --sim, e.g. 'swap:T3,T4;led-swap:T1,T2;dead:T7;chatter:T9;"
        "flaky:T10;stuck:N0.1' or one of the link and chain faults 'no-pico', 'open', "
        "'signature:0x5A', 'cut:2' (docs/hardware.md)",
    )
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
    try:
        report = _walk(args, cfg, lang)
    except BringupStop as stop:  # the reader or the chain: nothing to walk
        raise UsageError(stop.fault.text.get(lang)) from None
    if report is None:
        raise UsageError("selftest stopped before the end")
    text = report.to_text(lang)
    print(text, end="")
    if args.report is not None:  # files only where asked: never into the cwd unasked
        json_path = Path(args.report)
        json_path.write_text(report.to_json() + "\n", encoding="utf-8")
        json_path.with_suffix(".txt").write_text(text, encoding="utf-8")
        print(f"{json_path}, {json_path.with_suffix('.txt')}")
    return 0 if report.ok else 1


def _walk(args: argparse.Namespace, cfg: BoardConfig, lang: str) -> Any:
    from keezbord.host.selftest import WalkSettings, run_walk, start_walk
    from keezbord.host.sim.builder import SimBoard, SimFaults
    from keezbord.host.sim.chain import sim_preflight

    wiring = cfg.load_wiring()
    timeout_ms = None if args.timeout is None else int(args.timeout * 1000)
    settings = WalkSettings(timeout_ms=timeout_ms)
    say: Callable[[str], None] = (
        (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    )
    if not args.sim:
        if args.faults:
            raise UsageError("--faults only applies with --sim")
        return _selftest_hardware(cfg, wiring, settings, say, lang)
    faults = SimFaults.parse(args.faults)
    bits, signature = len(wiring.switch_order), cfg.scanner.signature
    say(_expects(signature, lang))
    found = sim_preflight(faults.chain, bits, signature, cfg.scanner.port)
    if found is not None:
        raise BringupStop(found)
    board = SimBoard(wiring, faults)
    io: Any = _SayingIO(board, say, lang)
    clock_ms = [0]

    def tick() -> None:
        clock_ms[0] += 20

    walk, effects = start_walk(wiring, board.closed_at_start(), 0, settings=settings)
    return run_walk(walk, effects, io, lambda: clock_ms[0], tick)


def _expects(signature: int | None, lang: str) -> str:
    from keezbord.engine.text import Text

    sig = "none" if signature is None else f"0x{signature:02X}"
    return Text(
        nl=f"verwachte signatuur van de keten: {sig} (scanner.signature)",
        en=f"the chain's expected signature: {sig} (scanner.signature)",
    ).get(lang)


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
    """Switch changes from a scanner or the Pico link, LED frames rendered at the current
    time (so patterns blink), skips typed on standard input."""

    def __init__(
        self,
        source: Callable[[int], list[Any]],
        show: Callable[[dict[str, str], int], object],
        keys: queue.Queue[str],
    ) -> None:
        self.source, self.show, self.keys = source, show, keys
        self.frame: dict[str, str] = {}

    def apply(self, effect: Any) -> None:
        from keezbord.host.selftest import ShowLeds

        if isinstance(effect, ShowLeds):
            self.frame = dict(effect.frame)

    def poll(self, now: int) -> list[Any]:
        from keezbord.host.selftest import Skip

        self.show(self.frame, now)
        out = list(self.source(now))
        while not self.keys.empty():
            key = self.keys.get_nowait().strip().lower()
            if key.startswith("q"):
                raise KeyboardInterrupt
            if key.startswith("s"):
                out.append(Skip(now))
        return out


def _stdin_keys() -> queue.Queue[str]:
    q: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            q.put(line)

    threading.Thread(target=read, daemon=True).start()
    return q


def _selftest_hardware(
    cfg: BoardConfig, wiring: Any, settings: Any, say: Callable[[str], None], lang: str
) -> Any:
    from keezbord.host.bringup import chain_error_fault, pico_link_fault, pico_preflight
    from keezbord.host.drivers.leds import LedRenderer
    from keezbord.host.drivers.scanner_gpio import BrokenChainError
    from keezbord.host.selftest import run_walk, start_walk

    signature = cfg.scanner.signature
    say(_expects(signature, lang))

    renderer = LedRenderer(wiring.led_order, cfg.leds.settings())
    closers: list[Callable[[], object]] = []
    try:
        if cfg.scanner.kind == "gpio":
            from keezbord.host.drivers.pins import RPiGPIOFactory
            from keezbord.host.drivers.scanner_gpio import scanner_from_config

            try:
                factory = RPiGPIOFactory()
                closers.append(factory.close)
                scanner = scanner_from_config(cfg.scanner, wiring, factory)
            except ImportError as e:
                from keezbord.host.extras import pi_install

                raise UsageError(
                    f'scanner.kind = "gpio" needs the Pi\'s GPIO ({pi_install("pi4")}, or '
                    f"pi5 on a Pi 5): {e}"
                ) from None
            except (RuntimeError, ValueError) as e:
                raise UsageError(f"scanner: {e}") from None
            s = cfg.scanner
            broken = [0]

            def source(now: int) -> list[Any]:
                try:
                    changes = scanner.scan(now)
                except BrokenChainError as e:
                    broken[0] += 1  # one bad read is noise; three in a row a fault
                    if broken[0] >= 3:
                        raise BringupStop(chain_error_fault(e, signature)) from None
                    return []
                broken[0] = 0
                return changes

            for k in range(s.debounce + 3):
                source(k)
            closed = scanner.closed_switches()
            period = 1.0 / s.scan_hz
        else:
            from keezbord.host.drivers.link_serial import SerialLink

            link = SerialLink(cfg.scanner.port or None)
            closers.append(getattr(link, "close", lambda: None))
            found = pico_preflight(link, len(wiring.switch_order), signature, _monotonic_ms)
            if found is not None:  # never a silent walk: no Pico, no firmware, a bad chain
                raise BringupStop(found)
            closed = frozenset(i for i in range(len(wiring.switch_order)) if link.session.closed(i))

            def source(now: int) -> list[Any]:
                changes = list(link.poll(0.0))
                bad = pico_link_fault(link, signature)
                if bad is not None:
                    raise BringupStop(bad)
                return changes

            period = 0.005
        show: Callable[[dict[str, str], int], object]
        if cfg.led_driver in ("neopixel", "neopixel-spi"):
            from keezbord.host.drivers.strip_neopixel import (
                NeoPixelStrip,
                StripLeds,
                open_pixels,
            )

            try:
                strip = NeoPixelStrip(
                    open_pixels(cfg.led_driver, len(wiring.led_order), cfg.led_pin)
                )
            except (ImportError, RuntimeError, OSError, ValueError) as e:
                # e.g. rpi_ws281x on a Pi 4 without root: "ws2811_init failed ..."
                from keezbord.host.extras import pi_install

                hint = f" ({pi_install('pi4')}, or pi5)" if isinstance(e, ImportError) else ""
                raise UsageError(
                    f"LED strip (leds.driver = {cfg.led_driver}, GPIO{cfg.led_pin}): {e}{hint}"
                ) from None
            closers.append(strip.close)
            leds = StripLeds(strip, renderer)
            show = leds.show_frame
        elif cfg.led_driver == "pico-serial":
            from keezbord.host.selftest import link_led_show

            show = link_led_show(link, renderer)
        else:
            show = lambda frame, now: None  # noqa: E731
        say("s + Enter: gat overslaan / skip a hole; q + Enter: stoppen / stop")
        io = _SayingIO(_HardwareIO(source, show, _stdin_keys()), say, lang)
        walk, effects = start_walk(wiring, closed, _monotonic_ms(), settings=settings)
        return run_walk(walk, effects, io, _monotonic_ms, lambda: time.sleep(period))
    finally:
        for close in reversed(closers):
            close()
