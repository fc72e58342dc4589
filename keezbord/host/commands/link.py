"""``keezbord link broker-config``: a Mosquitto broker for two linked boards
(docs/remote.md): TLS (an authority and certificate made with openssl, or a public
authority's certificate given), a login per board, the ACL that lets each board write
only its own topics, and each board's ``[link]`` section (the first board named is the
game's host of record)."""

from __future__ import annotations

import argparse
from pathlib import Path

from keezbord.host.commands.away import seat_list
from keezbord.host.commands.club import _listener_arguments, _tls_arguments, plain_or_tls
from keezbord.host.commands.web import _port
from keezbord.host.errors import UsageError


def add_link_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    bc = sub.add_parser("broker-config", help="write Mosquitto's configuration for two boards")
    bc.add_argument(
        "--boards", required=True, help="the two boards' names, the host first: oma,thuis"
    )
    bc.add_argument("--out", type=Path, required=True, help="folder for the files")
    bc.add_argument("--port", type=_port, default=None, help="default 8883 (1883 with --plain)")
    _listener_arguments(bc)
    bc.add_argument(
        "--host-seats",
        type=seat_list,
        default=(0, 2),
        metavar="SEATS",
        help="the seats at the first board (default 0,2; the other board has the rest)",
    )
    bc.add_argument(
        "--plain",
        action="store_true",
        help="no TLS (only on a network of your own: passwords then travel readable)",
    )
    _tls_arguments(bc)


def run_link(args: argparse.Namespace) -> int:
    from keezbord.host.club.broker_config import write_link_config
    from keezbord.host.club.store import StoreError

    names = [b.strip() for b in args.boards.split(",")]
    if len(names) != 2:
        raise UsageError("--boards: two names, the host of record first (e.g. oma,thuis)")
    tls = plain_or_tls(args)
    port = args.port or (1883 if tls is None else 8883)
    try:
        files = write_link_config(
            (names[0], names[1]),
            args.out,
            port=port,
            bind=args.bind,
            host=args.host,
            tls=tls,
            host_seats=args.host_seats,
            user=args.user,
        )
    except (StoreError, ValueError) as e:
        raise UsageError(str(e)) from None
    print(f"mosquitto -c {files.conf}")
    for name, f in files.boards.items():
        print(f"board {name}: copy {f} into its board.toml")
    if (files.boards[names[0]].parent / "ca.crt").exists():
        print(f"and {files.boards[names[0]].parent / 'ca.crt'} beside each board.toml")
    return 0
