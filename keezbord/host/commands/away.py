"""``keezbord run``'s seats away from the board (issue 28, docs/remote.md):
``--remote-seats 1,3`` (or ``[remote] seats``) gives seats to remote players, who play
them from a phone through their own links, with a virtual deal for every seat; ``--link
URL`` (or ``[link]``) joins a game played on two boards (host/club/linked_board.py).

What is decided before the server starts lives here: which game is resumed or started,
its setup and virtual deal, the remote seats' tokens, and what the banner says of them.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.engine.describe import colour
from keezbord.engine.text import Text
from keezbord.host.errors import UsageError
from keezbord.host.roles import Tokens, seat_links

if TYPE_CHECKING:
    from keezbord.host.club_settings import LinkSettings
    from keezbord.host.config import BoardConfig
    from keezbord.host.sim.table import SimInfo


def seat_list(text: str) -> tuple[int, ...]:
    """``--remote-seats 1,3``: seat numbers (checked against the board's seats later)."""
    try:
        seats = tuple(sorted({int(x) for x in text.split(",") if x.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seat numbers like 1,3, not {text!r}") from None
    if not seats:
        raise argparse.ArgumentTypeError("name at least one seat, e.g. 1,3")
    return seats


def add_away_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--remote-seats",
        type=seat_list,
        default=None,
        metavar="SEATS",
        help="seats played from far away (e.g. 1,3; seat 0 is red): each gets its own "
        "link; every hand is dealt on the page (a virtual deal), hints off "
        "(default [remote] seats)",
    )
    p.add_argument(
        "--link",
        default=None,
        metavar="URL",
        help="play one game with another board: mqtts://BOARD@BROKER[:PORT]/OTHER"
        "[?host=1&seats=0,2] (password: [link] password or $KEEZBORD_LINK_PASSWORD; "
        "default [link]; docs/remote.md)",
    )
    p.add_argument(
        "--mistakes",
        type=int,
        default=0,
        metavar="N",
        help="with --simulate: the simulated people carry out the first N lit moves "
        "wrong once (a pawn one hole off), to show the flag and its repair",
    )


@dataclass
class AwayPlan:
    """What ``run`` starts: ``deal`` (a new game's virtual deal, None: physical cards
    or the game resumed), whether to resume, and the words for the banner."""

    deal: SimInfo | None = None
    resume: bool = True
    said: list[Text] = field(default_factory=list)
    remote: tuple[int, ...] = ()


def plan(args: argparse.Namespace, cfg: BoardConfig, setup: dict[str, Any], db: Path) -> AwayPlan:
    """Which game ``run`` opens. Asked for remote seats (``--remote-seats``, else
    ``[remote] seats``): the latest real game if it has exactly those, else a new one
    with a virtual deal. Not asked: the latest real game, whatever it has."""
    from keezbord.host.sim.table import HUMAN, REMOTE, TABLE, SimInfo, deal_dealer

    asked = args.remote_seats if args.remote_seats is not None else cfg.remote.seats
    seats = cfg.seats
    if any(not 0 <= s < seats for s in asked):
        raise UsageError(f"--remote-seats: seats are 0 to {seats - 1}, not {asked}")
    if len(asked) >= seats:
        raise UsageError("--remote-seats: at least one seat plays at the table")
    if args.mistakes < 0:
        raise UsageError("--mistakes must be 0 or more")
    simulate = args.simulate is not None  # always a new game, dealt from its seed
    found = None if simulate else latest_deal(db, str(setup.get("mode", "run")))
    now = tuple(s for s, w in enumerate(found.where) if w == REMOTE) if found else ()
    if not asked:
        return AwayPlan(remote=now)
    if found is not None and now == asked:
        return AwayPlan(remote=now)
    where = [REMOTE if s in asked else TABLE for s in range(seats)]
    seed = args.simulate if simulate else random.randrange(2**31)
    deal = SimInfo(seed, [HUMAN] * seats, None, {}, where)
    virtual(setup, cfg)
    setup["dealer"] = deal_dealer(seats, str(setup.get("profile", "standard")), deal)
    names = ", ".join(f"{s} ({colour(s).en})" for s in asked)
    namen = ", ".join(f"{s} ({colour(s).nl})" for s in asked)
    return AwayPlan(
        deal,
        resume=False,
        said=[
            Text(
                f"nieuw spel met stoelen op afstand: {namen}",
                f"new game with remote seats: {names}",
            )
        ],
        remote=asked,
    )


def link_of(args: argparse.Namespace, cfg: BoardConfig) -> LinkSettings | None:
    """The linked game to join: ``--link URL`` (its password from the address, ``[link]
    password`` or ``$KEEZBORD_LINK_PASSWORD``), else ``[link]``; checked before anything
    starts (seats, the CA file)."""
    import dataclasses
    import os

    from keezbord.host.club_settings import parse_link_url

    settings = cfg.link
    if args.link is not None:
        kept = cfg.link.password if cfg.link is not None and cfg.link.password else None
        settings = parse_link_url(args.link, kept or os.environ.get("KEEZBORD_LINK_PASSWORD"))
        if settings.ca is None and cfg.link is not None and cfg.link.ca is not None:
            settings = dataclasses.replace(settings, ca=cfg.link.ca)
    if settings is None:
        return None
    if not settings.password:
        raise UsageError("[link]: no password (password = ... or $KEEZBORD_LINK_PASSWORD)")
    seats = cfg.seats
    if settings.host and any(not 0 <= s < seats for s in settings.seats):
        raise UsageError(f"[link] seats: seats are 0 to {seats - 1}, not {settings.seats}")
    if settings.host and len(settings.seats) >= seats:
        raise UsageError("[link] seats: the other board needs a seat too")
    if args.remote_seats:
        raise UsageError("--remote-seats with --link: not in the same game (yet)")
    if settings.tls:
        from keezbord.host.club.mqtt_client import tls_context

        tls_context(settings.ca)  # a CA file that cannot be read: said now, in one line
    return settings


def virtual(setup: dict[str, Any], cfg: BoardConfig) -> None:
    """A setup for a virtual deal: cards are played on the page by name (no tags, the
    reader unused), and hints off unless the configuration asks for them (a player far
    away could otherwise be helped unseen)."""
    setup.pop("tags", None)
    setup["card_reader"] = True
    setup["hints"] = cfg.hints if cfg.hints_given else "off"


def latest_deal(db: Path, mode: str) -> SimInfo | None:
    """The virtual deal of the journal's latest game of ``mode`` (None: none, or a game
    with physical cards)."""
    if not db.exists():
        return None
    from keezbord.host.journal import Journal
    from keezbord.host.sim.table import SimStore

    with Journal(db, readonly=True) as journal:
        gid = journal.latest_game(mode)
    if gid is None:
        return None
    store = SimStore(db)
    try:
        info = store.load(gid)
    finally:
        store.close()
    return info if info is not None and info.where else None


def seat_lines(url: str, tokens: Tokens, lang: str) -> list[str]:
    """One line per remote seat's own link (printed on a terminal only, as the others)."""
    out = []
    for seat, link in seat_links(url, tokens).items():
        who = colour(seat)
        out.append(
            Text(
                f"stoel {seat} ({who.nl}) op afstand: {link}",
                f"seat {seat} ({who.en}), remote: {link}",
            ).get(lang)
        )
    return out
