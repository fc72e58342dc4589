"""``keezbord sim`` (the simulated board in the browser) and ``keezbord run`` (a real
board, its page for spectators). See docs/web.md."""

from __future__ import annotations

import argparse
import os
import secrets
import threading
import webbrowser
from pathlib import Path
from typing import Any

from keezbord.engine.profiles import PROFILES
from keezbord.host.cli import UsageError


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "keezbord"


def _serve_args(p: argparse.ArgumentParser, host: str) -> None:
    p.add_argument("--host", default=host, help=f"address to listen on (default {host})")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")


def add_sim_arguments(p: argparse.ArgumentParser) -> None:
    _serve_args(p, "127.0.0.1")
    p.add_argument("--seats", type=int, default=4, help="2 to 8 (default 4)")
    p.add_argument("--profile", default="standard", choices=sorted(PROFILES))
    p.add_argument("--bots", default=None,
                   help="who plays each seat, e.g. human,greedy,greedy,greedy "
                        "(human, greedy or random; default: one human, greedy bots)")
    p.add_argument("--teams", choices=("pairs", "none"), default=None)
    p.add_argument("--hints", choices=("off", "targets", "full"), default="targets")
    p.add_argument("--seed", type=int, default=None, help="seed of a new game's deck")
    p.add_argument("--db", type=Path, default=None,
                   help=f"game journal (default {data_dir() / 'sim.sqlite'})")
    p.add_argument("--new", action="store_true", help="start a new game, not the last one")
    p.add_argument("--bot-speed", type=float, default=1.0,
                   help="multiplies the bots' delays (0.2: five times as fast)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")


def run_sim(args: argparse.Namespace) -> int:
    from keezbord.host.web.hub import Hub, HubOptions

    if not 2 <= args.seats <= 8:
        raise UsageError(f"--seats must be 2 to 8, not {args.seats}")
    if args.bot_speed <= 0:
        raise UsageError("--bot-speed must be positive")
    kinds = (args.bots.split(",") if args.bots else ["human"])
    from keezbord.host.web.simtable import check_kinds

    check_kinds(kinds, args.seats)  # a typo is a usage error before anything starts
    db: Path = args.db or data_dir() / "sim.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    opts = HubOptions(mode="sim", db=db, bot_speed=args.bot_speed, seed=args.seed,
                      defaults={"seats": args.seats, "profile": args.profile,
                                "players": kinds})

    def make() -> Hub:
        return Hub.open_sim(opts, seats=args.seats, profile=args.profile, kinds=kinds,
                            teams=args.teams, hints=args.hints, resume=not args.new)

    url = f"http://{args.host}:{args.port}/"
    print(f"keezbord sim: {url}  (journal {db}; Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    return _serve(make, args.host, args.port)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    _serve_args(p, "0.0.0.0")
    p.add_argument("--config", default=None, help="board TOML (default ./board.toml)")
    p.add_argument("--token", default=None,
                   help="control token for new game and undo (default: a random one)")
    p.add_argument("--simulate", type=int, default=None, metavar="SEED",
                   help="no hardware: play a simulated bot game (this seed) on the board")
    p.add_argument("--speed", type=float, default=1.0, help="pace of --simulate")


def run_run(args: argparse.Namespace) -> int:
    from keezbord.host.config import find_config
    from keezbord.host.web.hub import Driver, Hub, HubOptions

    cfg = find_config(args.config)
    token = args.token or secrets.token_urlsafe(9)
    setup: dict[str, Any] = {"type": "setup", "seats": cfg.seats, "segment": cfg.segment,
                             "profile": cfg.profile, "hints": cfg.hints}
    driver: Driver | None
    db = cfg.journal
    if args.simulate is not None:
        from keezbord.host.sim.games import simulate
        from keezbord.host.web.drivers import TraceBoard

        game = simulate(cfg.seats, cfg.profile, args.simulate)
        setup = {**game.setup, "hints": cfg.hints}
        driver = TraceBoard(game.events, args.speed)
        db = db.with_name(db.stem + "-simulated" + db.suffix)
        if db.exists():
            db.unlink()
    else:
        driver = _real_board(cfg, setup)
    opts = HubOptions(mode="run", db=db, token=token)
    print(f"keezbord run: http://{args.host}:{args.port}/  (journal {db})", flush=True)
    print(f"control token: {token}   (open /?token={token} to control the game)", flush=True)
    styles = cfg.leds.settings().styles

    def make() -> Hub:
        return Hub.open_run(opts, setup, driver)

    return _serve(make, args.host, args.port, styles)


def _real_board(cfg: Any, setup: dict[str, Any]) -> Any:
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
            print(f"keezbord run: card reader not available ({e}); moves are checked "
                  "against every card", flush=True)
            setup["card_reader"] = False
    wiring = cfg.load_wiring()
    strip = _strip(cfg, wiring) if cfg.led_driver == "neopixel" else None
    if cfg.scanner.kind == "gpio":
        return gpio_board(cfg, wiring, _pin_factory(), strip, reader)
    from keezbord.host.drivers.link_serial import SerialLink
    from keezbord.host.web.drivers import SerialBoard

    sink: Any = "link" if cfg.led_driver == "pico-serial" else \
        (strip.show if strip is not None else None)
    return SerialBoard(SerialLink(cfg.scanner.port, emit_initial=False), wiring,
                       cfg.leds.settings(), reader, led_sink=sink)


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


def _serve(make: Any, host: str, port: int, styles: Any = None) -> int:
    import uvicorn

    from keezbord.host.web.app import create_app

    app = create_app(make) if styles is None else create_app(make, styles=styles)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
