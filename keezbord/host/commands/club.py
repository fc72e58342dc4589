"""``keezbord club``: a club evening's tournament (docs/club.md).

    keezbord club team add NAME [--players A,B]     a team
    keezbord club board add NAME                    a table's board (its MQTT login)
    keezbord club broker-config --out DIR           Mosquitto's conf, passwd, ACL; [club] per board
    keezbord club serve                             the service: scoreboard, control page, MQTT
    keezbord club pair [--minutes 50] / start       the next round / its clock (via the broker)
    keezbord club standings [--json]                the standings as they stand
    keezbord club sim --boards-dir DIR              simulated tables for every registered board

Every subcommand takes ``--store FILE`` (default ./club.sqlite).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.host.commands.web import _port
from keezbord.host.errors import UsageError

if TYPE_CHECKING:
    from keezbord.host.club.service import BrokerSettings, Tournament
    from keezbord.host.club.store import Store


def add_club_arguments(p: argparse.ArgumentParser) -> None:
    store_help = "the tournament's store (default ./club.sqlite)"
    p.add_argument("--store", type=Path, default=Path("club.sqlite"), help=store_help)
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    team = sub.add_parser("team", help="add a team")
    team.add_argument("verb", choices=("add",))
    team.add_argument("name")
    team.add_argument("--players", default="", help="the players' names, comma-separated")
    board = sub.add_parser("board", help="add a table's board (prints its MQTT password)")
    board.add_argument("verb", choices=("add",))
    board.add_argument("name", help="a-z, 0-9 and '-' (its MQTT login and topic)")
    bc = sub.add_parser("broker-config", help="write Mosquitto's configuration for the boards")
    bc.add_argument("--out", type=Path, required=True, help="folder for the files")
    bc.add_argument("--port", type=_port, default=None, help="default 8883 (1883 with --plain)")
    _listener_arguments(bc)
    bc.add_argument(
        "--plain",
        action="store_true",
        help="no TLS (the boards' passwords then cross the Wi-Fi readable: docs/club.md)",
    )
    _tls_arguments(bc)
    serve = sub.add_parser("serve", help="scoreboard, control page and the MQTT service")
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=_port, default=8080)
    for sp in (serve, *_broker_users(sub)):
        sp.add_argument("--broker", default="127.0.0.1", help="the MQTT broker's address")
        sp.add_argument(
            "--broker-port", type=_port, default=None, help="default 1883, 8883 with TLS"
        )
        sp.add_argument("--broker-tls", action="store_true", help="TLS to the broker")
        sp.add_argument(
            "--broker-ca",
            default=None,
            metavar="FILE",
            help="the broker's authority's certificate (broker-config --tls: boards/ca.crt; "
            "default: the system's authorities)",
        )
    st = sub.add_parser("standings", help="print the standings")
    st.add_argument("--json", action="store_true")
    for action in sub.choices.values():  # also after the action: `club standings --store F`
        action.add_argument("--store", type=Path, default=argparse.SUPPRESS, help=store_help)


def _listener_arguments(bc: argparse.ArgumentParser) -> None:
    bc.add_argument(
        "--bind",
        default="0.0.0.0",
        help="address the broker listens on (default every interface: the boards are "
        "other machines)",
    )
    bc.add_argument("--host", default=None, help="the broker's name the boards use")
    bc.add_argument(
        "--user",
        default=None,
        help="the user mosquitto runs as, never root (default: mosquitto when run as "
        "root, else you)",
    )


def _tls_arguments(bc: argparse.ArgumentParser) -> None:
    bc.add_argument(
        "--tls",
        action="store_true",
        help="a TLS listener, with an authority and certificate made here with openssl "
        "(the default; boards get boards/ca.crt to trust it)",
    )
    bc.add_argument(
        "--tls-cert", default=None, metavar="FILE", help="a TLS listener with this certificate "
        "(a public authority's, e.g. Let's Encrypt: boards need no ca)",
    )  # fmt: skip
    bc.add_argument("--tls-key", default=None, metavar="FILE", help="its private key")


def tls_choice(args: argparse.Namespace) -> Any:
    """broker-config's TLS: None (plain), True (made here) or the given files."""
    from keezbord.host.club.tls_files import TlsFiles

    if (args.tls_cert is None) != (args.tls_key is None):
        raise UsageError("--tls-cert and --tls-key go together")
    if args.tls_cert is not None:
        if args.tls:
            raise UsageError("--tls makes a certificate; --tls-cert gives one: not both")
        for f in (args.tls_cert, args.tls_key):
            if not Path(f).is_file():
                raise UsageError(f"{f}: no such file")
        return TlsFiles(Path(args.tls_cert).resolve(), Path(args.tls_key).resolve())
    return True if args.tls else None


def _broker_users(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> list[argparse.ArgumentParser]:
    pair = sub.add_parser("pair", help="pair the next round and send each board its pairing")
    pair.add_argument("--minutes", type=float, default=50.0, help="the round's time limit")
    start = sub.add_parser("start", help="start the current round's clock at every table")
    sim = sub.add_parser("sim", help="simulated tables for every registered board")
    sim.add_argument("--boards-dir", type=Path, required=True, help="folder of the journals")
    sim.add_argument("--seats", type=int, default=4, choices=(2, 4))
    sim.add_argument("--move-ms", type=float, default=300.0, help="pause after each move")
    return [pair, start, sim]


def run_club(args: argparse.Namespace) -> int:
    from keezbord.host.club.store import Store

    if args.action == "broker-config":
        return _broker_config(args)
    if args.action not in ("team", "board") and not args.store.exists():
        raise UsageError(f"{args.store}: no such tournament store (keezbord club team add ...)")
    if args.action == "pair" and not 0 < args.minutes <= 600:
        raise UsageError(f"--minutes must be more than 0 and at most 600, not {args.minutes:g}")
    store = Store(args.store)
    try:
        if args.action == "team":
            players = [x.strip() for x in args.players.split(",") if x.strip()]
            tid = store.add_team(args.name, players)
            print(f"team {tid}: {args.name}")
        elif args.action == "board":
            pw = store.add_board(args.name)
            print(
                f"board {args.name}: password {pw} (keezbord club broker-config writes its [club])"
            )
        elif args.action == "standings":
            _standings(store, args.json)
        elif args.action == "serve":
            return _serve(store, args)
        elif args.action in ("pair", "start"):
            return _pair_or_start(store, args)
        elif args.action == "sim":
            return _sim(store, args)
        return 0
    finally:
        store.close()


def _settings(store: Store, args: argparse.Namespace) -> BrokerSettings:
    from keezbord.host.club.broker_config import tournament_password
    from keezbord.host.club.service import BrokerSettings

    port = args.broker_port or (8883 if args.broker_tls else 1883)
    args.broker_port = port
    return BrokerSettings(
        args.broker, port, tournament_password(store), args.broker_tls, args.broker_ca
    )


def _connected(t: Tournament, args: argparse.Namespace) -> None:
    t.start(listen=False)
    if not t.connected.wait(10):
        t.stop()
        raise UsageError(
            f"no MQTT broker at {args.broker}:{args.broker_port} (or it refused the login)"
        )


def _broker_config(args: argparse.Namespace) -> int:
    from keezbord.host.club.broker_config import write_broker_config
    from keezbord.host.club.store import Store, StoreError

    if not args.store.exists():
        raise UsageError(f"{args.store}: no such tournament store (add boards first)")
    tls = plain_or_tls(args)
    port = args.port or (1883 if tls is None else 8883)
    with contextlib.closing(Store(args.store)) as store:
        try:
            files = write_broker_config(
                store, args.out, port=port, bind=args.bind, host=args.host, tls=tls,
                user=args.user,
            )  # fmt: skip
        except StoreError as e:
            raise UsageError(str(e)) from None
    print(f"mosquitto -c {files.conf}")
    for name, f in files.boards.items():
        print(f"board {name}: copy {f} into its board.toml")
    ca = files.conf.parent / "boards" / "ca.crt"
    if tls is None:
        print("plain MQTT: the boards' passwords cross the network readable (docs/club.md)")
    elif ca.exists():
        print(f"and {ca} beside each board.toml; the service: keezbord club serve "
              f"--broker-tls --broker-port {port} --broker-ca {ca}")  # fmt: skip
    return 0


def plain_or_tls(args: argparse.Namespace) -> Any:
    """broker-config's TLS, the default: made here unless given, None with --plain."""
    tls = tls_choice(args)
    if args.plain and tls is not None:
        raise UsageError("--plain: no TLS, so no --tls, --tls-cert or --tls-key")
    return None if args.plain else (tls or True)


def _standings(store: Store, as_json: bool) -> None:
    from keezbord.host.club.service import Tournament

    rows = Tournament(store).standings()
    if as_json:
        print(json.dumps([r.__dict__ for r in rows], ensure_ascii=False))
        return
    print(f"{'#':>2}  {'team':<24} {'played':>6} {'won':>4} {'pawns':>5} {'points':>6}")
    for i, r in enumerate(rows, 1):
        print(f"{i:>2}  {r.name:<24} {r.played:>6} {r.won:>4} {r.pawns:>5} {r.points:>6}")


def _serve(store: Store, args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("web", "the scoreboard")
    require("club", "the club's MQTT link")

    from keezbord.host.club.scoreboard import create_app
    from keezbord.host.club.service import Tournament
    from keezbord.host.roles import TokenStore

    tokens = TokenStore(args.store.with_name(args.store.name + ".tokens.json")).load()
    from keezbord.host.commands.web import _lan_address, _listen

    sock = _listen(args.host, args.port)  # a port in use is one line, before anything runs
    t = Tournament(store, _settings(store, args))
    app = create_app(t, tokens)
    host = _lan_address() if args.host in ("0.0.0.0", "::") else args.host
    base = f"http://{host}:{sock.getsockname()[1]}"
    from keezbord.host.web.serving import make_server, server_config

    def banner() -> None:
        line = f"keezbord club: scoreboard {base}/  control {base}/control?token={tokens.referee}"
        print(line, flush=True)

    # The scoreboard's socket only sends: a frame of 1 KiB from a guest is plenty.
    server = make_server(server_config(app, ws_max=1024), banner)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0 if server.started else 1


def _pair_or_start(store: Store, args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("club", "the club's MQTT link")
    from keezbord.host.club.service import Tournament

    t = Tournament(store, _settings(store, args))
    _connected(t, args)
    try:
        if args.action == "pair":
            no = t.pair_next(args.minutes)
            for m in t.pairings(no):
                if m["match"] is not None:
                    print(f"round {no}: {m['board']}: {m['home']['name']} - {m['away']['name']}")
                else:
                    print(f"round {no}: {m['board']}: no game this round")
        else:
            t.start_clock()
            print("clock started at every table")
        time.sleep(0.5)  # let paho hand the retained pairings to the broker
    finally:
        t.stop()
    return 0


def _sim(store: Store, args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("club", "the club's MQTT link")
    from keezbord.host.club.board_link import ClubSettings
    from keezbord.host.club.sim_board import SimBoard

    boards = store.boards()
    if not boards:
        raise UsageError("no boards registered (keezbord club board add NAME)")
    args.boards_dir.mkdir(parents=True, exist_ok=True)
    port = args.broker_port or (8883 if args.broker_tls else 1883)
    sims = [
        SimBoard(
            ClubSettings(name, pw, args.broker, port, tls=args.broker_tls, ca=args.broker_ca),
            args.boards_dir / f"{name}.sqlite",
            seats=args.seats,
            move_ms=args.move_ms,
        )
        for name, pw in boards.items()
    ]
    started: list[SimBoard] = []
    stopping = signal.signal(signal.SIGTERM, _terminated)  # `kill`: stopped as by Ctrl-C
    try:
        for s in sims:
            s.start()
            started.append(s)
        print(f"keezbord club sim: {len(sims)} simulated tables; Ctrl-C stops", flush=True)
        while True:
            time.sleep(1)
    finally:
        for s in started:  # each table's journal closed, its link said goodbye
            s.stop()
        signal.signal(signal.SIGTERM, stopping)


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
