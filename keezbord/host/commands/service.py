"""``keezbord service install|uninstall|status|token``: the board as a systemd service
that starts at boot (docs/install-pi.md). With ``--root DIR`` every path is taken under
DIR and the system commands (useradd, systemctl) are printed, not run."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from keezbord.engine.text import Text
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import UsageError

if TYPE_CHECKING:
    from keezbord.host.appliance.paths import Layout
    from keezbord.host.roles import Tokens


def _root_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--root",
        type=Path,
        default=Path("/"),
        metavar="DIR",
        help="take every path under DIR and only print the system commands (tests, images)",
    )
    add_lang_argument(p)


def add_service_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ins = sub.add_parser("install", help="write, enable and start keezbord.service (as root)")
    ins.add_argument("--port", type=int, default=8000, help="the page's port (default 8000)")
    ins.add_argument(
        "--kiosk",
        metavar="USER",
        default=None,
        help="also the kiosk unit: the page full-screen on the attached screen, "
        "in USER's desktop session",
    )
    _root_arg(ins)
    _root_arg(sub.add_parser("uninstall", help="stop and remove the units (games are kept)"))
    _root_arg(sub.add_parser("status", help="is the service installed and running?"))
    tok = sub.add_parser(
        "token", help="the spectators', players', referee's and remote seats' links"
    )
    tok.add_argument("--port", type=int, default=8000, help="the page's port (default 8000)")
    tok.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="the links of a `keezbord run --state-dir DIR` (default: the service's)",
    )
    tok.add_argument(
        "--url",
        default=None,
        help="the page's address in the links (default: [remote] public_url of the "
        "service's board.toml, else http://keezbord.local:PORT/)",
    )
    _root_arg(tok)


def run_service(args: argparse.Namespace) -> int:
    from keezbord.host.appliance import service
    from keezbord.host.appliance.paths import Layout
    from keezbord.host.appliance.system import Runner, system_runner

    layout = Layout(args.root)
    runner: Runner
    if args.root == Path("/"):
        runner = system_runner
    else:
        note = Text("niet uitgevoerd", "not run").get(args.lang)
        runner = service.Recorder(
            default=(3, "inactive") if args.action == "status" else (0, ""),
            echo=lambda line: print(f"({note}) {line}"),
        )

    try:
        if args.action == "install":
            from keezbord.host.appliance.unit import keezbord_command

            if not 1 <= args.port <= 65535:
                raise UsageError(f"--port must be 1 to 65535, not {args.port}")
            said = service.install(
                layout, runner, keezbord_command(), port=args.port, kiosk_user=args.kiosk
            )
        elif args.action == "uninstall":
            said = service.uninstall(layout, runner)
        elif args.action == "status":
            rc, lines = service.status(layout, runner)
            print("\n".join(lines))
            return rc
        else:
            _print_links(_tokens(args, layout), _base_url(args, layout), args.lang)
            return 0
    except service.ServiceError as e:
        raise UsageError(str(e)) from None
    for t in said:
        print(t.get(args.lang))
    return 0


def _tokens(args: argparse.Namespace, layout: Layout) -> Tokens:
    from keezbord.host.appliance import service

    if args.state_dir is None:
        return service.tokens(layout)
    from keezbord.host.appliance.paths import state_tokens_path
    from keezbord.host.roles import TokenStore

    path = state_tokens_path(args.state_dir)
    if not path.exists():
        raise UsageError(f"{path}: no tokens (start `keezbord run --state-dir {args.state_dir}`)")
    return TokenStore(path).read()


def _base_url(args: argparse.Namespace, layout: Layout) -> str:
    if args.url is not None:
        return str(args.url)
    if layout.config.exists():
        from keezbord.host.config import load_config

        url = load_config(layout.config).remote.public_url
        if url is not None:
            return url
    return f"http://keezbord.local:{args.port}/"


def _print_links(tokens: Tokens, url: str, lang: str) -> None:
    from keezbord.host.commands.away import seat_lines
    from keezbord.host.roles import Role, links

    names = {
        Role.SPECTATOR: Text("toeschouwers (alleen kijken)", "spectators (watch only)"),
        Role.PLAYER: Text("spelers", "players"),
        Role.REFEREE: Text(
            "scheidsrechter (ongedaan maken, nieuw spel)", "referee (undo, new game)"
        ),
    }
    for role, link in links(url, tokens).items():
        print(f"{names[role].get(lang)}: {link}")
    for line in seat_lines(url, tokens, lang):
        print(line)
