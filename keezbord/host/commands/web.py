"""``keezbord sim`` (the simulated board in the browser) and ``keezbord run`` (a real
board, its page for spectators). See docs/web.md."""

from __future__ import annotations

import argparse
import secrets
import threading
import webbrowser
from pathlib import Path
from typing import Any

from keezbord.engine.profiles import PROFILES
from keezbord.engine.text import Text
from keezbord.host.cli import UsageError, add_lang_argument


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535 (0: any free port), not {port}")
    return port


def _serve_args(p: argparse.ArgumentParser, host: str, note: str = "") -> None:
    p.add_argument("--host", default=host, help=f"address to listen on (default {host}{note})")
    p.add_argument("--port", type=_port, default=8000,
                   help="port, 1 to 65535 (default 8000; 0: any free port)")
    p.add_argument("--config", default=None, metavar="FILE",
                   help="board TOML (default ./board.toml, else /etc/keezbord/board.toml); "
                        "its [files] journal is the game journal")
    add_lang_argument(p)


def add_sim_arguments(p: argparse.ArgumentParser) -> None:
    _serve_args(p, "127.0.0.1")
    # New-game options default to None so that we can tell which were given: a given
    # option that differs from the last game starts a new game instead of resuming it.
    p.add_argument("--seats", type=int, default=None, help="2 to 8 (default 4)")
    p.add_argument("--profile", default=None, choices=sorted(PROFILES),
                   help="rules (default standard)")
    p.add_argument("--bots", default=None,
                   help="who plays each seat, e.g. human,greedy,greedy,greedy "
                        "(human, greedy or random; default: one human, greedy bots)")
    p.add_argument("--teams", choices=("pairs", "none"), default=None)
    p.add_argument("--hints", choices=("off", "targets", "full", "coach"), default=None,
                   help="default targets")
    p.add_argument("--seed", type=int, default=None, help="seed of a new game's deck")
    p.add_argument("--db", type=Path, default=None,
                   help="game journal (default: the rule of --config; its folder must exist)")
    p.add_argument("--new", action="store_true",
                   help="start a new game (default: resume the last simulator game, unless "
                        "the options above ask for a different one)")
    p.add_argument("--bot-speed", type=float, default=1.0,
                   help="multiplies the bots' delays (0.2: five times as fast)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")


def run_sim(args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("web", "the web page")
    from keezbord.host.config import find_config, journal_of
    from keezbord.host.web.hub import Hub, HubOptions
    from keezbord.host.web.simtable import check_kinds, sim_setup

    seats = 4 if args.seats is None else args.seats
    if not 2 <= seats <= 8:
        raise UsageError(f"--seats must be 2 to 8, not {seats}")
    if args.bot_speed <= 0:
        raise UsageError("--bot-speed must be positive")
    kinds = check_kinds(args.bots.split(",") if args.bots else ["human"], seats)
    profile = args.profile or "standard"
    hints = args.hints or "targets"
    sim_setup(seats, profile, 0, kinds, teams=args.teams, hints=hints)  # refuses bad combos
    cfg = find_config(args.config)
    db = journal_of(cfg, args.db)
    _check_journal(db)
    game, what = _sim_plan(db, args, kinds)
    opts = HubOptions(mode="sim", db=db, bot_speed=args.bot_speed, seed=args.seed,
                      defaults={"seats": seats, "profile": profile, "players": kinds})

    def make() -> Hub:
        return Hub.open_sim(opts, seats=seats, profile=profile, kinds=kinds,
                            teams=args.teams, hints=hints, resume=game is not None, game=game)

    def banner(url: str) -> None:
        say(args.lang, f"keezbord sim: {url}  ({what}; journal {db}; Ctrl-C stopt)",
            f"keezbord sim: {url}  ({what}; journal {db}; Ctrl-C stops)")
        if not args.no_browser:
            threading.Timer(1.0, webbrowser.open, (url,)).start()

    return _serve(make, args.host, args.port, banner)


def _sim_plan(db: Path, args: argparse.Namespace, kinds: list[str]) -> tuple[int | None, Any]:
    """The simulator game to resume (None: a new one) and how to say so."""
    from keezbord.host.journal import Journal
    from keezbord.host.web.simtable import SimStore

    new = Text("nieuw spel", "new game")
    if args.new or not db.exists():
        return None, new.get(args.lang)
    with Journal(db, readonly=True) as journal:
        gid = journal.latest_game("sim")
        setup = journal.setup(gid) if gid is not None else None
    store = SimStore(db)
    try:
        info = store.load(gid) if gid is not None else None
    finally:
        store.close()
    if gid is None or setup is None or info is None:
        return None, new.get(args.lang)
    last = {"seats": setup.get("seats"), "profile": setup.get("profile", "standard"),
            "teams": info.teams, "hints": setup.get("hints", "targets"), "bots": info.kinds,
            "seed": info.seed}
    asked = {"seats": args.seats, "profile": args.profile, "teams": args.teams,
             "hints": args.hints, "bots": kinds if args.bots else None, "seed": args.seed}
    differs = [k for k, v in asked.items() if v is not None and v != last[k]]
    if differs:
        opts = ", ".join(f"--{k}" for k in differs)
        return None, Text(f"nieuw spel: {opts} anders dan in spel {gid}",
                          f"new game: {opts} {'differs' if len(differs) == 1 else 'differ'} "
                          f"from game {gid}").get(args.lang)
    desc = Text(f"{last['seats']} stoelen, {last['profile']}, spelers {','.join(info.kinds)}",
                f"{last['seats']} seats, {last['profile']}, players {','.join(info.kinds)}"
                ).get(args.lang)
    return gid, Text(f"spel {gid} hervat ({desc}; --new voor een nieuw spel)",
                     f"resumed game {gid} ({desc}; --new for a new game)").get(args.lang)


def _check_journal(db: Path) -> None:
    """Open the journal once before anything starts: a file that is not a journal, or
    cannot be created, is a one-line error now, not a traceback from the server."""
    from keezbord.host.journal import Journal

    Journal(db).close()


def say(lang: str, nl: str, en: str) -> None:
    print(en if lang == "en" else nl, flush=True)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    _serve_args(p, "0.0.0.0", ": every interface, so spectators can watch")
    p.add_argument("--token", default=None,
                   help="control token for new game and undo (default: a random one)")
    p.add_argument("--simulate", type=int, default=None, metavar="SEED",
                   help="no hardware: play a simulated bot game (this seed) on the board")
    p.add_argument("--speed", type=float, default=1.0,
                   help="pace of --simulate: multiplies the delays, so smaller is faster "
                        "(0.5: twice as fast; default 1)")


def run_run(args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("web", "the web page")
    from keezbord.host.config import find_config, journal_of
    from keezbord.host.web.hub import Driver, Hub, HubOptions

    if args.speed <= 0:
        raise UsageError("--speed must be positive")
    cfg = find_config(args.config)
    db = journal_of(cfg)
    _check_journal(db)
    token = args.token or secrets.token_urlsafe(9)
    setup: dict[str, Any] = {"type": "setup", "seats": cfg.seats, "segment": cfg.segment,
                             "profile": cfg.profile, "hints": cfg.hints, "mode": "run"}
    opts = HubOptions(mode="run", db=db, token=token)
    styles = cfg.leds.settings().styles

    def make() -> Hub:
        # Called once the port is ours: hardware is opened only for a server that starts.
        nonlocal setup
        driver: Driver | None
        if args.simulate is not None:
            from keezbord.host.sim.games import simulate
            from keezbord.host.web.drivers import TraceBoard

            game = simulate(cfg.seats, cfg.profile, args.simulate)
            setup = {**game.setup, "hints": cfg.hints, "mode": "simulated"}
            driver = TraceBoard(game.events, args.speed)
        else:
            driver = _real_board(cfg, setup, args.lang)
        # A simulated game is always a new one (in the same journal, never resumed).
        return Hub.open_run(opts, setup, driver, resume=args.simulate is None)

    def banner(url: str) -> None:
        for line in run_banner(url, args.host, db, token, args.lang):
            print(line, flush=True)

    return _serve(make, args.host, args.port, banner, styles)


def run_banner(url: str, host: str, db: Path, token: str, lang: str) -> list[str]:
    """What ``run`` says at start: the address, whether every interface listens (and
    the address spectators should open), the control token."""
    lines = [Text(f"keezbord run: {url}  (journal {db})",
                  f"keezbord run: {url}  (journal {db})")]
    if host in ("0.0.0.0", "::"):
        spectators = f"http://{_lan_address()}:{url.rstrip('/').rsplit(':', 1)[1]}/"
        lines.append(Text(
            f"luistert op alle netwerkaansluitingen; toeschouwers openen {spectators} "
            "(--host 127.0.0.1: alleen deze computer)",
            f"listening on every interface; spectators open {spectators} "
            "(--host 127.0.0.1: this computer only)"))
    lines.append(Text(f"beheercode: {token}   (open /?token={token} om het spel te beheren)",
                      f"control token: {token}   (open /?token={token} to control the game)"))
    return [t.get(lang) for t in lines]


def _lan_address() -> str:
    """This machine's address on the local network (the one a route out would use;
    nothing is sent), for the spectators' link; the host name if there is none."""
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
        addr: str = s.getsockname()[0]
        return addr
    except OSError:
        return socket.gethostname()
    finally:
        s.close()


def _real_board(cfg: Any, setup: dict[str, Any], lang: str = "en") -> Any:
    """The configured drivers; without a working link the page still serves the game."""
    from keezbord.host.cards import load_registry
    from keezbord.host.drivers.rfid import open_reader

    reg = load_registry(cfg.cards)
    if reg.tags:
        setup["tags"] = dict(reg.tags)
    if cfg.rfid.reader == "none":
        setup["card_reader"] = False
    reader = None
    if cfg.rfid.reader != "none":
        try:
            reader = open_reader(cfg.rfid.reader, cfg.rfid.port, cfg.rfid.tap_gap_ms)
        except (OSError, ValueError) as e:
            say(lang, f"keezbord run: geen kaartlezer ({e}); zetten worden met elke kaart "
                      "gecontroleerd", f"keezbord run: card reader not available ({e}); moves "
                      "are checked against every card")
            setup["card_reader"] = False
    wiring = cfg.load_wiring()
    strip = _strip(cfg, wiring) if cfg.led_driver == "neopixel" else None
    if cfg.scanner.kind == "gpio":
        return gpio_board(cfg, wiring, _pin_factory(), strip, reader)
    from keezbord.host.drivers.link_serial import SerialLink
    from keezbord.host.extras import require

    require("pico", "the Pico link (scanner.kind = pico-serial)")

    sink: Any = "link" if cfg.led_driver == "pico-serial" else \
        (strip.show if strip is not None else None)
    return _announcing_serial_board()(
        SerialLink(cfg.scanner.port, emit_initial=False), wiring, cfg.leds.settings(),
        reader, led_sink=sink, lang=lang)


def _announcing_serial_board() -> Any:
    """SerialBoard that says on the terminal when the Pico is missing, and again when it
    connects or is lost (the page's health panel shows it too, but the person starting
    ``run`` looks at the terminal)."""
    from keezbord.host.web.drivers import SerialBoard

    class AnnouncingSerialBoard(SerialBoard):
        def __init__(self, *a: Any, lang: str = "en", **kw: Any) -> None:
            super().__init__(*a, **kw)
            self.lang = lang
            self._told: bool | None = None  # the link state last announced

        def poll_switches(self, now: int) -> list[Any]:
            out: list[Any] = super().poll_switches(now)
            connected = bool(self.link.connected)
            if connected != self._told:
                self._told = connected
                h = self.link.health()
                port = h.port or "?"
                if connected:
                    say(self.lang, f"keezbord run: Pico verbonden op {port}",
                        f"keezbord run: Pico connected on {port}")
                else:
                    why = h.error or "?"
                    say(self.lang, f"keezbord run: geen Pico ({why}); wacht erop, de pagina "
                                   "toont het spel intussen",
                        f"keezbord run: no Pico ({why}); waiting for it, the page serves "
                        "the game meanwhile")
            return out

    return AnnouncingSerialBoard


def gpio_board(cfg: Any, wiring: Any, factory: Any, strip: Any, reader: Any = None) -> Any:
    """The Pi-direct board: the chain behind ``factory``'s pins, LEDs on ``strip``."""
    from keezbord.host.drivers.scanner_gpio import scanner_from_config
    from keezbord.host.web.drivers import GpioBoard

    sc = cfg.scanner
    try:
        scanner = scanner_from_config(sc, wiring, factory)
    except (RuntimeError, ValueError) as e:
        raise UsageError(f"scanner: {e}") from None
    return GpioBoard(scanner, wiring, cfg.leds.settings(), strip, reader,
                     scan_hz=sc.scan_hz)


def _pin_factory() -> Any:
    from keezbord.host.drivers.pins import RPiGPIOFactory

    try:
        return RPiGPIOFactory()
    except (ImportError, RuntimeError) as e:
        raise UsageError(f"scanner.kind = \"gpio\" needs the Pi's GPIO (pip install "
                         f"'keezbord[pi4]' or [pi5]): {e}") from None


def _strip(cfg: Any, wiring: Any) -> Any:
    from keezbord.host.drivers.strip_neopixel import NeoPixelStrip, open_neopixel

    try:
        return NeoPixelStrip(open_neopixel(len(wiring.led_order), cfg.leds.pin))
    except (ImportError, RuntimeError, OSError, ValueError) as e:
        print(f"keezbord run: LED strip not available ({e}); the page still shows the "
              "LEDs", flush=True)
        return None


def _serve(make: Any, host: str, port: int, banner: Any, styles: Any = None) -> int:
    """Bind the port, make the hub (so every error so far is one line and no server has
    started), announce the address, then serve until Ctrl-C."""
    import uvicorn

    from keezbord.host.web.app import create_app

    sock = _listen(host, port)
    try:
        hub = make()
    except BaseException:
        sock.close()
        raise

    def made() -> Any:
        return hub

    app = create_app(made) if styles is None else create_app(made, styles=styles)
    bound = sock.getsockname()[1]
    banner(f"http://{f'[{host}]' if ':' in host else host}:{bound}/")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0 if server.started else 1


def _listen(host: str, port: int) -> Any:
    """A listening socket on ``host``:``port``, or a one-line UsageError saying why not."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        why = e.strerror if isinstance(e, socket.gaierror) else str(e)
        raise UsageError(f"--host {host}: cannot be resolved ({why})") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is already in use (another keezbord? "
                             "choose one with --port)") from None
        if e.errno == errno.EACCES:
            raise UsageError(f"not allowed to listen on port {port} (ports below 1024 need "
                             "root)") from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise UsageError(f"--host {host}: not an address of this machine") from None
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock
