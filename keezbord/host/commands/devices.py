"""``keezbord cards``: enroll and list the RFID tags of a deck (the selftest: selftest.py)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from keezbord.engine.text import Text, check_lang
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
    silence = _Silence(reader, clock())
    while enrollment.next_card() is not None:
        text = enrollment.prompt().get(lang)
        if text != prompt:
            print(text, file=out, flush=True)
            prompt = text
        taps = reader.poll(clock())
        note = silence.check(clock())
        if note is not None:
            print(note.get(lang), file=out, flush=True)
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


SILENT_MS = 3000  # a reader that has not answered this long is named (and waited for)


class _Silence:
    """Whether the reader answers (its ``health()``: a PN532 that acknowledges nothing,
    unpowered or miswired): said once after SILENT_MS, and again when it answers."""

    def __init__(self, reader: CardReader, now: int) -> None:
        self.health = getattr(reader, "health", None)
        self.since: int | None = None
        self.said = False

    def check(self, now: int) -> Text | None:
        if not callable(self.health):
            return None
        h = self.health()
        if h.get("ok"):
            self.since = None
            if self.said:
                self.said = False
                return Text(nl="de kaartlezer antwoordt", en="the card reader answers")
            return None
        if self.since is None:
            self.since = now
        if self.said or now - self.since < SILENT_MS:
            return None
        self.said = True
        port = h.get("port") or "?"
        return Text(
            nl=f"de kaartlezer op {port} antwoordt niet ({h.get('error')}); controleer "
            "de voeding (5 V en GND), de schakelaartjes van een PN532 op HSU, TX en RX "
            "gekruist (TX van de lezer naar RX van de Pi) en rfid.port; ik blijf wachten",
            en=f"the card reader on {port} does not answer ({h.get('error')}); check its "
            "power (5 V and GND), a PN532's switches on HSU, TX and RX crossed (the "
            "reader's TX to the Pi's RX) and rfid.port; still waiting",
        )


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
