"""``keezbord hint``: the search's suggestion for a card or a hand, with its reason
(engine/advice.py), as JSON like ``moves``."""

from __future__ import annotations

import argparse
from typing import Any

from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError

from .rules import POSITION_HELP, _card, _print, read_position


def _cards(text: str) -> list[str]:
    return [_card(c) for c in text.replace(",", " ").split()]


def add_hint_arguments(p: argparse.ArgumentParser) -> None:
    cards = p.add_mutually_exclusive_group(required=True)
    cards.add_argument("--card", type=_card, help="the card to play (one of A 2 .. 10 J Q K)")
    cards.add_argument(
        "--hand", type=_cards, help="the whole hand: A,5,7 (the search also chooses the card)"
    )
    p.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    p.add_argument(
        "--seen",
        type=_cards,
        default=[],
        help="cards played or shown since the last shuffle: 5,K,2 (sharpens the "
        "guess of the other hands)",
    )
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--playouts", type=int, default=None, help="playouts for the search (default 300)"
    )
    budget.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="search time, turned into playouts by measuring this machine",
    )
    budget.add_argument(
        "--level",
        default=None,
        help="the advice of a level that searches: club (30 playouts) or strong (300, the "
        "default); beginner and casual do not search",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    add_lang_argument(p, "the suggestion and its reason")


def run_hint(args: argparse.Namespace) -> int:
    from keezbord.engine.advice import advise
    from keezbord.engine.search import DEFAULT_PLAYOUTS, Known

    pos = read_position(args.position)
    hand: list[str] = [args.card] if args.card is not None else args.hand
    if not hand:
        raise UsageError("--hand needs at least one card")
    playouts = DEFAULT_PLAYOUTS if args.playouts is None else args.playouts
    if args.level is not None:
        from keezbord.engine.levels import LEVEL_NAMES, level

        lv = level(args.level) if args.level in LEVEL_NAMES else None
        if lv is None or lv.playouts is None:
            raise UsageError(
                f"--level {args.level!r}: club or strong (the levels that search; "
                "beginner and casual play without searching)"
            )
        playouts = lv.playouts
    if playouts < 1:
        raise UsageError("--playouts must be at least 1")
    if args.budget_ms is not None:
        if not args.budget_ms > 0:
            raise UsageError("--budget-ms must be more than 0")
        from keezbord.host.search_budget import playouts_for_ms

        playouts = playouts_for_ms(args.budget_ms, pos.seats, pos.profile.name)
    advice = advise(pos, hand, Known(tuple(args.seen)), playouts=playouts, seed=args.seed)
    out: dict[str, Any]
    if advice is None:
        from keezbord.engine.explain import no_move_reason

        out = {
            "seat": pos.turn,
            "hand": hand,
            "move": None,
            "reason": "; ".join(no_move_reason(pos, c).get(args.lang) for c in dict.fromkeys(hand)),
        }
    else:
        out = {"hand": hand, **advice.to_dict(args.lang)}
    _print(out)
    return 0
