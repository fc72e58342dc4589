"""``keezbord moves``, ``check`` and ``selfplay``: the rules engine on the command line
(FORMATS.md, "Commands"). Imports only the engine, so these start fast."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from typing import Any

from keezbord.engine.cards import RANKS, parse_card
from keezbord.engine.position import InvalidPositionError, Position
from keezbord.engine.profiles import PROFILES
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError
from keezbord.host.jsontext import JsonTextError, loads

POSITION_HELP = (
    "a position: a JSON file, - for standard input, or the one-line text form "
    "in quotes ('NNST20/NNNT33/NT60H3H4/NNNN 0 standard', docs/formats.md)"
)


def read_position(arg: str, label: str = "POSITION") -> Position:
    """A position from a file (JSON or the one-line text form), standard input for ``-``,
    or the text form itself as the argument (docs/formats.md); errors name the source."""
    if arg != "-" and not os.path.exists(arg) and looks_like_position_text(arg):
        return _position_from(arg, label, "(text)")
    name = "standard input" if arg == "-" else arg
    try:
        if arg == "-":
            text = sys.stdin.read()
        else:
            with open(arg, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise UsageError(f"{label} {name}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{label} {name}: not a UTF-8 text file") from None
    return _position_from(text, label, name)


def looks_like_position_text(text: str) -> bool:
    """Is this the one-line text form rather than JSON or a file name? It opens with a
    seat's pawn locations and a ``/`` and has its fields apart (``NNNN/NNNN 0 standard``)."""
    t = text.strip()
    return "\n" not in t and len(t.split()) > 1 and _TEXT_START.match(t) is not None


_TEXT_START = re.compile(r"[NSTH][0-9NSTH]*/")


def _position_from(text: str, label: str, name: str) -> Position:
    try:
        if looks_like_position_text(text):
            return Position.from_text(text.strip())
        data = loads(text)
    except JsonTextError as e:
        raise UsageError(f"{label} {name}: {e}") from None
    except InvalidPositionError as e:
        raise UsageError(f"{label} {name}: {e}") from None
    try:
        return Position.from_dict(data)
    except InvalidPositionError as e:
        raise UsageError(f"{label} {name}: {e}") from None


def _card(text: str) -> str:
    try:
        return parse_card(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _print(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


# -- moves --------------------------------------------------------------------------------


def add_moves_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--card", required=True, type=_card, help=f"one of {' '.join(RANKS)}")
    p.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    add_lang_argument(p, "the reason when there is no legal move")


def run_moves(args: argparse.Namespace) -> int:
    from keezbord.engine.movegen import successor_positions

    pos = read_position(args.position)
    found = successor_positions(pos, args.card)
    out: dict[str, Any] = {
        "card": args.card,
        "seat": pos.turn,
        "moves": [
            {"move": str(move), "position": after.to_dict()} for after, move in found.items()
        ],
    }
    if not found:
        from keezbord.engine.explain import no_move_reason  # only needed here: start fast

        out["reason"] = no_move_reason(pos, args.card).get(args.lang)
    _print(out)
    return 0


# -- check --------------------------------------------------------------------------------


def add_check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--card", required=True, type=_card)
    p.add_argument("before", metavar="BEFORE", help=POSITION_HELP)
    p.add_argument("after", metavar="AFTER", help=POSITION_HELP)
    add_lang_argument(p, "the reason")


def run_check(args: argparse.Namespace) -> int:
    from keezbord.engine.explain import explain
    from keezbord.engine.movegen import successors

    if args.before == "-" and args.after == "-":
        raise UsageError("only one of BEFORE and AFTER can be read from standard input")
    before = read_position(args.before, "BEFORE")
    after = read_position(args.after, "AFTER")
    if before.topology != after.topology:
        raise UsageError("BEFORE and AFTER are positions on different boards")
    if (before.profile, before.teams) != (after.profile, after.teams):
        raise UsageError("BEFORE and AFTER are positions of different rules (profile, teams)")
    # The pawns decide; AFTER's turn is not compared: it is optional (0 if not written),
    # and the turn after a move is the next seat's anyway (docs/formats.md).
    move = next((m for m, p in successors(before, args.card) if p.pawns == after.pawns), None)
    if move is not None:
        _print({"legal": True, "move": str(move)})
        return 0
    reason = explain(before, args.card, after)
    text = reason.get(args.lang) if reason else "?"
    _print({"legal": False, "reason": text})
    return 1


# -- selfplay -----------------------------------------------------------------------------


def add_selfplay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--seats", type=int, default=4, choices=range(2, 9), metavar="2..8")
    p.add_argument("--profile", default="standard", choices=sorted(PROFILES))
    p.add_argument("--seed", type=int, default=0, help="seed of the first game")
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--bot",
        default=None,
        help="random, greedy or search, or one per seat: search,greedy,search,greedy "
        "(default random)",
    )
    who.add_argument(
        "--level",
        default=None,
        help="the bots' level: beginner, casual, club or strong, or one per seat: "
        "beginner,strong,beginner,strong (each level at its own budget; Elo on the "
        # levels.LEVELS' elo, written out (importing the levels would slow every start;
        # tests/cli/test_level_options.py holds them equal)
        "ladder: beginner -226, casual 0, club +154, strong +292; docs/hints.md)",
    )
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="the search bot's playouts a decision (default 300)",
    )
    budget.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="the search bot's time a decision, turned into playouts by "
        "measuring this machine once (the games then depend on it)",
    )
    p.add_argument(
        "--teams",
        choices=("pairs", "none"),
        default=None,
        help="default: pairs for 4, 6 and 8 seats",
    )
    p.add_argument("--show", action="store_true", help="print every turn of every game")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_lang_argument(p, "the moves shown with --show")
    p.add_argument(
        "--engine",
        choices=("fast", "positions"),
        default="fast",
        help="fast: the playout board (default); positions: the Position-based "
        "reference loop, same games, for comparison",
    )


def run_selfplay(args: argparse.Namespace) -> int:
    import random
    from collections import Counter

    from keezbord.engine.bot_kinds import BOT_KINDS
    from keezbord.engine.describe import describe_move
    from keezbord.engine.game import play_game, play_game_positions
    from keezbord.engine.levels import LEVEL_NAMES, named_bot
    from keezbord.engine.topology import SEAT_COLOURS

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    kinds = (args.level or args.bot or "random").split(",")
    if len(kinds) == 1:
        kinds *= args.seats
    if args.level is not None:
        if len(kinds) != args.seats or any(k not in LEVEL_NAMES for k in kinds):
            raise UsageError(
                f"--level must be beginner, casual, club or strong, or {args.seats} of them "
                "separated by commas"
            )
        if args.playouts is not None or args.budget_ms is not None:
            raise UsageError("--level sets the bots' budget: leave out --playouts and --budget-ms")
    elif len(kinds) != args.seats or any(k not in BOT_KINDS for k in kinds):
        raise UsageError(
            f"--bot must be random, greedy or search, or {args.seats} of them separated by commas"
        )
    playouts = args.playouts
    if playouts is not None and playouts < 1:
        raise UsageError("--playouts must be at least 1")
    if args.budget_ms is not None:
        if not args.budget_ms > 0:
            raise UsageError("--budget-ms must be more than 0")
        from keezbord.host.search_budget import playouts_for_ms

        playouts = playouts_for_ms(args.budget_ms, args.seats, args.profile)
    wins: Counter[str] = Counter()
    turns = discards = rounds = unfinished = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        rng = random.Random(seed)
        bots = [named_bot(k, random.Random(rng.random()), playouts=playouts) for k in kinds]
        try:
            play = play_game if args.engine == "fast" else play_game_positions
            result = play(args.seats, args.profile, seed, bots, teams=args.teams)
        except InvalidPositionError as e:
            raise UsageError(str(e)) from None
        turns += result.turns
        discards += result.discards
        rounds += result.rounds
        if result.winner is None:
            unfinished += 1
        else:
            wins["+".join(map(str, result.winner))] += 1
        if args.show:
            pos = Position.start(args.seats, args.profile, teams=args.teams)
            print(
                f"== game {g + 1} (seed {seed}, {args.seats} seats, {args.profile}, "
                f"bots {','.join(kinds)})"
            )
            for i, turn in enumerate(result.history, 1):
                colour = SEAT_COLOURS[turn.seat]
                who = f"{turn.seat} {colour.symbol} {colour.en if args.lang == 'en' else colour.nl}"
                if turn.move is None:
                    what = (
                        ("discards" if args.lang == "en" else "gooit weg")
                        + ": "
                        + " ".join(turn.discarded)
                    )
                    print(f"{i:4}  {who:<12} {what}")
                else:
                    words = describe_move(pos, turn.move).get(args.lang)
                    print(f"{i:4}  {who:<12} {turn.move!s:<24} {words}")
                if turn.after is not None:
                    pos = turn.after
            label = "+".join(str(s) for s in result.winner) if result.winner else "nobody"
            print(f"== winner: {label} after {result.turns} turns\n")
    elapsed = time.perf_counter() - t0
    summary = {
        "games": args.games,
        "seats": args.seats,
        "profile": args.profile,
        "seed": args.seed,
        "bots": kinds,
        "engine": args.engine,
        "wins": dict(sorted(wins.items())),
        "unfinished": unfinished,
        "turns_per_game": round(turns / args.games, 1),
        "discards_per_game": round(discards / args.games, 1),
        "rounds_per_game": round(rounds / args.games, 1),
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 1),
    }
    if "search" in kinds:
        from keezbord.engine.search import DEFAULT_PLAYOUTS

        summary["playouts"] = DEFAULT_PLAYOUTS if playouts is None else playouts
    if args.json:
        _print(summary)
    else:
        print(
            f"{args.games} game(s), {args.seats} seats, profile {args.profile}, "
            f"bots {','.join(kinds)}, seeds {args.seed}..{args.seed + args.games - 1}"
        )
        for team, n in sorted(wins.items()):
            print(f"  seat(s) {team:<5} won {n} ({100 * n / args.games:.0f}%)")
        if unfinished:
            print(f"  unfinished: {unfinished}")
        print(
            f"  {summary['turns_per_game']} turns, {summary['discards_per_game']} discarded "
            f"hands, {summary['rounds_per_game']} rounds per game"
        )
        print(f"  {elapsed:.2f} s, {summary['games_per_second']} games/s")
    return 0
