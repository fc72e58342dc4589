"""Commands for the board's devices: ``keezbord cards`` (enroll and list the RFID tags of a
deck) and ``keezbord selftest`` (walk a newly built board hole by hole).
"""

from __future__ import annotations

import argparse
import queue
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from keezbord.engine.text import check_lang
from keezbord.host.card_registry import (
    CardRegistry,
    Enrollment,
    load_registry,
    save_registry,
)
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.config import BoardConfig, find_config
from keezbord.host.drivers.rfid import READER_KINDS, CardReader, SimReader, open_reader
from keezbord.host.errors import UsageError


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config", metavar="FILE", help="board configuration (default: ./board.toml if present)"
    )
    add_lang_argument(p)


# --- cards ---------------------------------------------------------------------------------


def add_cards_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    e = sub.add_parser("enroll", help="tap every card of the deck once, in the order shown")
    _common(e)
    e.add_argument(
        "--reader",
        choices=READER_KINDS,
        help="card reader (default: rfid.reader of the configuration)",
    )
    e.add_argument("--port", help="serial port of the reader (default: rfid.port)")
    e.add_argument("--cards", metavar="FILE", help="registry file (default: files.cards)")
    e.add_argument(
        "--fresh", action="store_true", help="start over instead of resuming the saved registry"
    )
    e.add_argument("--seed", type=int, default=1, help="tags of the simulated reader")
    ls = sub.add_parser("list", help="show the registry against the deck")
    _common(ls)
    ls.add_argument("--cards", metavar="FILE", help="registry file (default: files.cards)")
    ls.add_argument("--json", action="store_true", help="print the registry as JSON")


def run_cards(args: argparse.Namespace) -> int:
    cfg = find_config(args.config)
    path = Path(args.cards) if args.cards else cfg.cards
    if args.action == "list":
        return list_cards(cfg, path, args.lang, args.json, sys.stdout)
    kind = args.reader or cfg.rfid.reader
    if kind == "none":
        raise UsageError('no card reader configured (rfid.reader = "none"); use --reader')
    registry = CardRegistry() if args.fresh else load_registry(path)
    enrollment = Enrollment(cfg.seats, registry)
    if kind == "sim":
        reader: CardReader = sim_deck_reader(enrollment, args.seed)
    else:
        reader = open_reader(kind, args.port or cfg.rfid.port, cfg.rfid.tap_gap_ms)
    try:
        done = enroll(enrollment, reader, path, args.lang, sys.stdout)
    finally:
        reader.close()
    return 0 if done.next_card() is None else 1


def sim_deck_reader(enrollment: Enrollment, seed: int) -> SimReader:
    """Tags for every card still to enroll, with a garbled read and a card tapped twice
    thrown in, so a demo shows how those are handled."""
    rng = random.Random(seed)
    tags = [
        "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
        for _ in enrollment.remaining()
    ]
    if len(tags) >= 3:
        tags.insert(2, "04A1??")  # a garbled read
        tags.insert(4, tags[1])  # the same card again
    return SimReader(tags)


def enroll(
    enrollment: Enrollment,
    reader: CardReader,
    path: Path,
    lang: str,
    out: TextIO,
    clock: Callable[[], int] = _monotonic_ms,
    wait: Callable[[], None] = lambda: time.sleep(0.05),
) -> Enrollment:
    """Prompt for each card, read taps, save after each card enrolled (atomically, so an
    interruption loses nothing); ends when the deck is done, or a simulated reader runs
    dry. Returns the final state."""
    lang = check_lang(lang)
    done, total = enrollment.progress()
    print(f"{path}: {done}/{total}", file=out)
    prompt = None
    while enrollment.next_card() is not None:
        text = enrollment.prompt().get(lang)
        if text != prompt:
            print(text, file=out, flush=True)
            prompt = text
        taps = reader.poll(clock())
        if not taps and isinstance(reader, SimReader) and not reader.queue:
            break
        for tap in taps:
            if tap.tag is None:
                continue
            enrollment, result = enrollment.tap(tap.tag)
            print(f"  {result.text.get(lang)}", file=out, flush=True)
            if result.outcome == "enrolled":
                save_registry(enrollment.registry, path)
        if not taps:
            wait()
    print(enrollment.prompt().get(lang), file=out)
    return enrollment


def list_cards(cfg: BoardConfig, path: Path, lang: str, as_json: bool, out: TextIO) -> int:
    import json

    from keezbord.engine.cards import RANKS, deck

    reg = load_registry(path)
    if as_json:
        print(json.dumps(reg.to_json(), indent=1), file=out)
        return 0
    want = {r: deck(cfg.seats).count(r) for r in RANKS}
    have = reg.counts()
    nl = lang == "nl"
    print(f"{path}: {len(reg.tags)} tags" + (" (kaarten)" if nl else " (cards)"), file=out)
    for r in RANKS:
        tags = " ".join(t for t, c in reg.tags.items() if c == r)
        print(f"  {r:>2}  {have[r]}/{want[r]}  {tags}", file=out)
    missing = sum(max(0, want[r] - have[r]) for r in RANKS)
    if missing:
        print(
            f"nog {missing} kaarten in te lezen" if nl else f"{missing} cards to enroll", file=out
        )
    return 0


# --- selftest ------------------------------------------------------------------------------


def add_selftest_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument(
        "--sim", action="store_true", help="run against a simulated board (no hardware needed)"
    )
    parser.add_argument(
        "--faults",
        default="",
        help="faults for --sim, e.g. 'swap:T3,T4;missing:T7;chatter:T9;stuck:N0.1;led-swap:T1,T2'",
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
    from keezbord.host.selftest import WalkSettings, run_walk, start_walk
    from keezbord.host.sim.builder import SimBoard, SimFaults

    cfg = find_config(args.config)
    lang = check_lang(args.lang)
    wiring = cfg.load_wiring()
    timeout_ms = None if args.timeout is None else int(args.timeout * 1000)
    settings = WalkSettings(timeout_ms=timeout_ms)
    say: Callable[[str], None] = (
        (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    )
    if args.sim:
        board = SimBoard(wiring, SimFaults.parse(args.faults))
        io: Any = _SayingIO(board, say, lang)
        clock_ms = [0]

        def tick() -> None:
            clock_ms[0] += 20

        walk, effects = start_walk(wiring, board.closed_at_start(), 0, settings=settings)
        report = run_walk(walk, effects, io, lambda: clock_ms[0], tick)
    else:
        if args.faults:
            raise UsageError("--faults only applies with --sim")
        report = _selftest_hardware(cfg, wiring, settings, say, lang)
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
    from keezbord.host.drivers.leds import LedRenderer
    from keezbord.host.drivers.scanner_gpio import BrokenChainError
    from keezbord.host.selftest import run_walk, start_walk

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
            warned = [False]

            def source(now: int) -> list[Any]:
                try:
                    return scanner.scan(now)
                except BrokenChainError as e:
                    if not warned[0]:
                        say(e.text.get(lang))
                        warned[0] = True
                    return []

            for k in range(s.debounce + 1):
                source(k)
            closed = scanner.closed_switches()
            period = 1.0 / s.scan_hz
        else:
            from keezbord.host.drivers.link_serial import SerialLink

            link = SerialLink(cfg.scanner.port or None)
            closers.append(getattr(link, "close", lambda: None))
            if not link.connect() and link.busy:  # the service's, say: never a silent walk
                raise UsageError(link.last_error or "the Pico's port is held")
            state: set[int] = set()
            end = _monotonic_ms() + 1500  # the link reports the closed switches on connect
            while _monotonic_ms() < end:
                for c in link.poll(0.05):
                    (state.add if c.closed else state.discard)(c.index)
            closed = frozenset(state)

            def source(now: int) -> list[Any]:
                return list(link.poll(0.0))

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
