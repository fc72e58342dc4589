"""``keezbord engine``: a bot as a process speaking the engine protocol on stdin and
stdout (keezbord/host/commands/engine_protocol.py, docs/engine-protocol.md)."""

from __future__ import annotations

import argparse
import io
import sys

from keezbord.host.errors import UsageError


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    from keezbord.host.commands.engine_protocol import BOTS, DEFAULT_PLAYOUTS, ENGINE_LEAVES

    p.add_argument(
        "--bot",
        choices=BOTS,
        default="search",
        help="the bot: random, greedy, beginner (the level, engine/levels.py), search "
        "(default) or ceiling (the search seeing "
        "every hand: a measuring stick, told the hands with 'hands')",
    )
    p.add_argument(
        "--infer",
        action="store_true",
        help="the search weighs the hands it samples by the other seats' choices this round "
        "(told with 'played'; engine/inference.py, a first step)",
    )
    p.add_argument(
        "--leaf",
        choices=ENGINE_LEAVES,
        default="fitted",
        help="what judges the search's unfinished playouts: the fitted leaf it plays with "
        "(default) or the judge's, whose info 'win' is the calibrated chance the hints show",
    )
    p.add_argument(
        "--playouts",
        type=int,
        default=DEFAULT_PLAYOUTS,
        help=f"playouts a decision when 'go' names no budget (default {DEFAULT_PLAYOUTS})",
    )


def run_engine(args: argparse.Namespace) -> int:
    from keezbord.host.commands.engine_protocol import MAX_PLAYOUTS, Engine, serve

    if not 1 <= args.playouts <= MAX_PLAYOUTS:
        raise UsageError(f"--playouts must be from 1 to {MAX_PLAYOUTS}")
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper):  # bytes that are not UTF-8: an error line
        stdin.reconfigure(encoding="utf-8", errors="replace")
    return serve(Engine(args.bot, args.playouts, infer=args.infer, leaf=args.leaf), stdin)
