"""``keezbord sim`` (the simulated board in the browser) and ``keezbord run`` (a real
board, its page for spectators). See docs/web.md.

Over 400 lines: both commands share every check made before the server starts (port,
host, journal, resume, options), which is what keeps their errors alike."""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.engine.profiles import PROFILES
from keezbord.engine.text import Text
from keezbord.host.commands.lang import add_lang_argument
from keezbord.host.errors import JournalUnusable, UsageError
from keezbord.host.roles import MIN_TOKEN_CHARS, Role, Tokens, links
from keezbord.host.voice.attach import attach as attach_voice

if TYPE_CHECKING:
    from keezbord.engine.position import Position
    from keezbord.host.club.board_link import ClubSettings
    from keezbord.host.config import BoardConfig
    from keezbord.host.drivers.boards import BoardDriver
    from keezbord.host.drivers.leds import RoleStyle
    from keezbord.host.web.hub import Hub


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
    p.add_argument(
        "--port", type=_port, default=8000, help="port, 1 to 65535 (default 8000; 0: any free port)"
    )
    p.add_argument(
        "--config",
        default=None,
        metavar="FILE",
        help="board TOML (default ./board.toml, else /etc/keezbord/board.toml); "
        "its [files] journal is the game journal",
    )
    add_lang_argument(p)


def add_sim_arguments(p: argparse.ArgumentParser) -> None:
    _serve_args(p, "127.0.0.1")
    # New-game options default to None so that we can tell which were given: a given
    # option that differs from the last game starts a new game instead of resuming it.
    p.add_argument("--seats", type=int, default=None, help="2 to 8 (default 4)")
    p.add_argument(
        "--profile", default=None, choices=sorted(PROFILES), help="rules (default standard)"
    )
    p.add_argument(
        "--bots",
        default=None,
        help="who plays each seat, e.g. human,greedy,greedy,greedy "
        "(human, random, greedy or search, or a level: beginner, casual, club or strong; "
        "default: one human, greedy bots: the casual level)",
    )
    p.add_argument("--teams", choices=("pairs", "none"), default=None)
    p.add_argument(
        "--hints", choices=("off", "targets", "full", "coach"), default=None, help="default targets"
    )
    p.add_argument("--seed", type=int, default=None, help="seed of a new game's deck")
    p.add_argument(
        "--db",
        type=Path,
        default=None,
        help="game journal (default: the rule of --config; its folder must exist)",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="start a new game (default: resume the last simulator game, unless "
        "the options above ask for a different one)",
    )
    p.add_argument(
        "--bot-speed",
        type=float,
        default=1.0,
        help="multiplies the bots' delays (0.2: five times as fast)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument(
        "--setup",
        default=None,
        metavar="POSITION",
        help="a new game begun at this position (a position file or the one-line text); "
        "the simulated board shows it at once (docs/setup.md)",
    )
    p.add_argument(
        "--hand",
        default=None,
        metavar="CARDS",
        help="with --setup: the cards the seat on turn holds, e.g. 7,K,A (default: dealt)",
    )
    p.add_argument(
        "--club",
        default=None,
        metavar="FILE",
        help="a TOML file with a [club] section: this simulated table joins a club "
        "evening (docs/club.md; also read from --config)",
    )


def run_sim(args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("web", "the web page")
    from keezbord.host.config import find_config, journal_of
    from keezbord.host.sim.table import check_kinds, sim_setup
    from keezbord.host.web.hub import Hub, HubOptions

    seats = 4 if args.seats is None else args.seats
    if not 2 <= seats <= 8:
        raise UsageError(f"--seats must be 2 to 8, not {seats}")
    if args.bot_speed <= 0:
        raise UsageError("--bot-speed must be positive")
    kinds = check_kinds(args.bots.split(",") if args.bots else ["human"], seats)
    profile = args.profile or "standard"
    hints = args.hints or "targets"
    sim_setup(seats, profile, 0, kinds, teams=args.teams, hints=hints)  # refuses bad combos
    start = _sim_start(args)
    if start is not None:
        seats, profile = start[0].seats, start[0].profile.name
        kinds = check_kinds(args.bots.split(",") if args.bots else ["human"], seats)
    cfg = find_config(args.config)
    db = journal_of(cfg, args.db)
    _check_journal(db)
    with _damaged_game("sim", db):
        game, what = (
            _sim_plan(db, args, kinds)
            if start is None
            else (
                None,
                Text(
                    "nieuw spel in de stelling van --setup", "new game at the --setup position"
                ).get(args.lang),
            )
        )
    tokens = Tokens.new()  # new links at every start: an old page falls back to watching
    opts = HubOptions(
        mode="sim",
        db=db,
        bot_speed=args.bot_speed,
        seed=args.seed,
        tokens=tokens,
        defaults={"seats": seats, "profile": profile, "players": kinds},
    )
    opts.hint_ms, opts.coach_ms = cfg.hint_ms, cfg.coach_ms  # [board] search budgets

    club = _club_settings(args.club, cfg)

    def make() -> Hub:
        with _damaged_game("sim", db):
            hub = Hub.open_sim(
                opts,
                seats=seats,
                profile=profile,
                kinds=kinds,
                teams=args.teams,
                hints=hints,
                resume=game is not None,
                game=game,
                start=start,
            )
        attach_voice(hub, cfg.voice)  # the page's and [voice]'s (docs/voice.md)
        return _join_club(hub, club, db)

    def banner(url: str) -> None:
        say(
            args.lang,
            f"keezbord sim: {url}  ({what}; journal {db}; Ctrl-C stopt)",
            f"keezbord sim: {url}  ({what}; journal {db}; Ctrl-C stops)",
        )
        # The links of this start only (new tokens every time), yet never into a log.
        how = Text("start `keezbord sim` op een terminal", "start `keezbord sim` on a terminal")
        for line in shown_links(url, tokens, args.lang, sys.stdout.isatty(), how):
            print(line, flush=True)
        if not args.no_browser:  # the one at the computer is the referee
            import webbrowser  # only to open one: 1 MB of `sim`'s memory otherwise

            threading.Timer(1.0, webbrowser.open, (links(url, tokens)[Role.REFEREE],)).start()

    return _serve(make, args.host, args.port, banner)


def _sim_start(args: argparse.Namespace) -> tuple[Position, tuple[str, ...] | None] | None:
    """``sim --setup POSITION [--hand CARDS]``: the position (a file or the text, as
    ``run --setup`` reads it) and the hand of its seat on turn; the new-game options
    given must agree with the position."""
    if args.setup is None:
        if args.hand is not None:
            raise UsageError("--hand: only with --setup")
        return None
    from keezbord.engine.cards import RANKS
    from keezbord.host.commands.rules import read_position
    from keezbord.host.sim.table import sim_setup_at

    pos = read_position(args.setup, "--setup")
    for name, given, own in (
        ("seats", args.seats, pos.seats),
        ("profile", args.profile, pos.profile.name),
        ("teams", args.teams, pos.teams),
    ):
        if given is not None and given != own:
            raise UsageError(f"--{name} {given}: the --setup position has {own}")
    hand = None
    if args.hand is not None:
        hand = tuple(c.strip().upper() for c in args.hand.split(",") if c.strip())
        bad = [c for c in hand if c not in RANKS]
        if bad or not hand:
            raise UsageError(f"--hand: cards are {' '.join(RANKS)}, not {args.hand!r}")
        try:
            sim_setup_at(pos, 0, ["human"], hand=hand)
        except ValueError as e:
            raise UsageError(f"--hand: {e}") from None
    return pos, hand


def _club_settings(path: str | None, cfg: BoardConfig) -> ClubSettings | None:
    """The [club] section of ``--club FILE``, else of the board's configuration."""
    if path is None:
        return cfg.club
    from keezbord.host.config import load_config

    club = load_config(path).club
    if club is None:
        raise UsageError(f"--club {path}: no [club] section")
    return club


def _join_club(hub: Hub, club: ClubSettings | None, db: Path) -> Hub:
    """Connect the board to the club's tournament (host/club/board_club.py)."""
    if club is not None:
        from keezbord.host.extras import require

        require("club", "the club's MQTT link ([club])")
        from keezbord.host.club.board_club import BoardClub

        try:
            BoardClub(hub, club, db).start()
        except ValueError as e:  # e.g. six seats: three teams, not a club match
            hub.session.close()
            raise UsageError(f"[club]: {e}") from None
    return hub


def _sim_plan(db: Path, args: argparse.Namespace, kinds: list[str]) -> tuple[int | None, str]:
    """The simulator game to resume (None: a new one) and how to say so."""
    from keezbord.host.journal import Journal
    from keezbord.host.sim.table import SimStore

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
    last = {
        "seats": setup.get("seats"),
        "profile": setup.get("profile", "standard"),
        "teams": info.teams,
        "hints": setup.get("hints", "targets"),
        "bots": info.kinds,
        "seed": info.seed,
    }
    asked = {
        "seats": args.seats,
        "profile": args.profile,
        "teams": args.teams,
        "hints": args.hints,
        "bots": kinds if args.bots else None,
        "seed": args.seed,
    }
    differs = [k for k, v in asked.items() if v is not None and v != last[k]]
    if differs:
        opts = ", ".join(f"--{k}" for k in differs)
        return None, Text(
            f"nieuw spel: {opts} anders dan in spel {gid}",
            f"new game: {opts} {'differs' if len(differs) == 1 else 'differ'} from game {gid}",
        ).get(args.lang)
    desc = Text(
        f"{last['seats']} stoelen, {last['profile']}, spelers {','.join(info.kinds)}",
        f"{last['seats']} seats, {last['profile']}, players {','.join(info.kinds)}",
    ).get(args.lang)
    return gid, Text(
        f"spel {gid} hervat ({desc}; --new voor een nieuw spel)",
        f"resumed game {gid} ({desc}; --new for a new game)",
    ).get(args.lang)


def _check_journal(db: Path) -> None:
    """Open the journal once before anything starts: a file that is not a journal, or
    cannot be created or written, is a one-line error now, not a traceback from the
    server; exit status 3 (errors.py) when starting again cannot mend it."""
    from keezbord.host.journal import Journal, JournalError

    try:
        Journal(db).close()
    except JournalError as e:
        if "locked" in str(e) or "does not exist" in str(e) or not db.parent.is_dir():
            raise  # another process holds it for a moment; a folder to make: status 2
        raise JournalUnusable(str(e)) from None


@contextlib.contextmanager
def _damaged_game(cmd: str, db: Path) -> Iterator[None]:
    """A game that cannot be resumed at all (its setup row does not read): one line
    with the fix, never a new game over it without the referee's word."""
    from keezbord.host.journal import UnreadableSetup
    from keezbord.host.journal_damage import DamagedGame

    try:
        yield
    except (DamagedGame, UnreadableSetup) as e:
        game = e.game
        fix = (
            f"`keezbord sim --new` starts a new game (game {game} stays in the journal)"
            if cmd == "sim"
            else f"to set it aside (it stays in the journal) and start a new game: keezbord "
            f"journal set-aside --game {game} --db {db}, then start again"
        )
        raise JournalUnusable(f"{e}; {fix}") from None


def say(lang: str, nl: str, en: str) -> None:
    print(en if lang == "en" else nl, flush=True)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    _serve_args(p, "0.0.0.0", ": every interface, so spectators can watch")
    from keezbord.host.commands.away import add_away_arguments

    add_away_arguments(p)
    p.add_argument(
        "--token",
        default=None,
        help="the referee's token (undo, new game, overrule; default: a random one); "
        "the players' token is new at every start unless --state-dir keeps both",
    )
    p.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the tokens here (tokens.json, mode 0600, made once) and, unless the "
        "configuration names one, the journal (the service: /var/lib/keezbord)",
    )
    p.add_argument(
        "--simulate",
        type=int,
        default=None,
        metavar="SEED",
        help="no hardware: play a simulated bot game (this seed) on the board",
    )
    p.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="pace of --simulate: multiplies the delays, so smaller is faster "
        "(0.5: twice as fast; default 1)",
    )
    p.add_argument(
        "--setup",
        default=None,
        metavar="POSITION",
        help="begin by setting the board up as POSITION (a position file or the one-line "
        "text, docs/setup.md): the lights show what to change, the game begins from it; "
        "with --simulate a simulated person does what the lights say",
    )


def run_run(args: argparse.Namespace) -> int:
    from keezbord.host.extras import require

    require("web", "the web page")
    from keezbord.host.commands import away
    from keezbord.host.config import find_config, journal_of
    from keezbord.host.roles import TokenStore, long_enough
    from keezbord.host.web.hub import Hub, HubOptions

    if args.speed <= 0:
        raise UsageError("--speed must be positive")
    if args.token is not None and not long_enough(args.token):
        raise UsageError(
            f"--token: at least {MIN_TOKEN_CHARS} characters (128 bits): e.g. "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(18))'"
        )
    cfg = find_config(args.config)
    store = None
    if args.state_dir is not None:  # the service (keezbord/host/appliance/)
        from keezbord.host.appliance.paths import state_tokens_path
        from keezbord.host.paths import JOURNAL_NAME

        if not args.state_dir.is_dir():
            raise UsageError(f"--state-dir {args.state_dir}: no such folder")
        store = TokenStore(state_tokens_path(args.state_dir))
        tokens = store.load()  # kept between starts (the service)
        db = journal_of(cfg, None if cfg.journal else args.state_dir / JOURNAL_NAME)
    else:
        tokens = Tokens.new()
        db = journal_of(cfg)
    _check_journal(db)
    if args.token is not None:
        tokens = Tokens(args.token, tokens.player, tokens.seats)
    setup: dict[str, Any] = {
        "type": "setup",
        "seats": cfg.seats,
        "segment": cfg.segment,
        "profile": cfg.profile,
        "hints": cfg.hints,
        "mode": "run",
    }
    board_setup = dict(setup)
    plan = away.plan(args, cfg, setup, db)
    if args.setup is not None:
        from keezbord.host.referee import arranged_setup

        setup = arranged_setup(setup, _setup_position(args.setup, cfg))
    tokens = tokens.for_seats(plan.remote)
    if store is not None and tokens != store.load():
        store.save(tokens)
    opts = HubOptions(mode="run", db=db, tokens=tokens, token_store=store)
    opts.defaults["board_setup"] = dict(board_setup)  # a new game without seats far away
    opts.public_url = cfg.remote.public_url
    opts.hint_ms, opts.coach_ms = cfg.hint_ms, cfg.coach_ms  # [board] search budgets
    styles = cfg.leds.settings().styles

    link = away.link_of(args, cfg)
    if args.setup is not None and (link is not None or plan.remote):
        # The set-up's position would be this board's alone (a linked game's is the
        # host of record's) and its deal not a remote seat's virtual one.
        raise UsageError("--setup: not with remote seats or a linked game")
    live = args.simulate is not None and (plan.deal is not None or link is not None)

    def make() -> Hub:
        # Called once the port is ours: hardware is opened only for a server that starts.
        nonlocal setup
        driver: BoardDriver | None
        if live:  # simulated people at the table (host/sim/people.py), seats far away
            from keezbord.host.drivers.boards import FakeBoard

            # The board's own settle time at any --speed: the people's touches keep a
            # person's gaps in the game's time and they let go when done (web/clock.py).
            setup = {**setup, "mode": "simulated"}
            driver = FakeBoard()
        elif args.simulate is not None and args.setup is not None:
            from keezbord.host.drivers.boards import TraceBoard
            from keezbord.host.sim.setting_up import simulated_set_up

            setup = {**setup, "mode": "simulated"}
            driver = TraceBoard(simulated_set_up(setup, args.simulate), args.speed)
        elif args.simulate is not None:
            from keezbord.host.drivers.boards import TraceBoard
            from keezbord.host.sim.games import simulate

            game = simulate(cfg.seats, cfg.profile, args.simulate)
            setup = {**game.setup, "hints": cfg.hints, "mode": "simulated"}
            driver = TraceBoard(game.events, args.speed)
        else:
            driver = _real_board(cfg, setup, args.lang)
        if link is not None:
            from keezbord.host.extras import require

            require("club", "the link's MQTT client (--link, [link])")
            from keezbord.host.commands.linked import open_linked

            away.virtual(setup, cfg)
            with _damaged_game("run", db):
                hub = open_linked(opts, link, setup, driver, db)
        else:
            # A simulated game is always a new one (in the same journal, never resumed),
            # and so is a set-up.
            resume = plan.resume and args.simulate is None and args.setup is None
            with _damaged_game("run", db):
                hub = Hub.open_run(opts, setup, driver, resume=resume, deal=plan.deal)
        if live:
            from keezbord.host.drivers.boards import FakeBoard
            from keezbord.host.sim.people import People

            assert isinstance(driver, FakeBoard)
            people = People(
                hub, driver, seed=args.simulate, speed=args.speed, mistakes=args.mistakes
            )
            hub.away.on_start.append(people.start)
            hub.away.on_stop.append(people.stop)
        attach_voice(hub, cfg.voice)  # the page's and [voice]'s (docs/voice.md)
        return _join_club(hub, cfg.club, db)

    appliance: dict[str, Any] = {}

    def banner(url: str) -> None:
        for said in plan.said:
            print(said.get(args.lang), flush=True)
        cmd = "keezbord service token" + (
            f" --state-dir {args.state_dir}" if args.state_dir is not None else ""
        )
        how = Text(f"`{cmd}` toont ze", f"`{cmd}` prints them")
        if store is None:
            how = Text(
                "start op een terminal, of bewaar ze met --state-dir DIR en toon ze met "
                "`keezbord service token --state-dir DIR`",
                "start it on a terminal, or keep them with --state-dir DIR and print them "
                "with `keezbord service token --state-dir DIR`",
            )
        lines = run_banner(url, args.host, db, tokens, args.lang, sys.stdout.isatty(), how)
        for line in lines:
            print(line, flush=True)
        appliance.update(_announce(url, args.host, args.lang))

    try:
        return _serve(
            make, args.host, args.port, banner, styles, appliance, cfg.remote.trusted_proxies
        )
    finally:
        if appliance.get("announcer") is not None:
            appliance["announcer"].close()


def _announce(url: str, host: str, lang: str) -> dict[str, Any]:
    """The board's name on the network (mDNS, the ``appliance`` extra) when the page
    listens beyond this machine; what the QR code then names the board by."""
    if host not in ("0.0.0.0", "::"):
        return {}
    from keezbord.host.appliance.mdns import announce

    announcer = announce(int(url.rstrip("/").rsplit(":", 1)[1]), _lan_address())
    if announcer is None:
        return {"public_host": _lan_address()}
    say(lang, f"ook op {announcer.url} (mDNS)", f"also at {announcer.url} (mDNS)")
    return {"announcer": announcer, "public_host": announcer.host}


def _setup_position(arg: str, cfg: BoardConfig) -> Position:
    """``--setup POSITION``: a position for this board (its seats and segment)."""
    from keezbord.host.commands.rules import read_position

    pos = read_position(arg, "--setup")
    if pos.seats != cfg.seats or pos.topology.segment != cfg.segment:
        raise UsageError(
            f"--setup: the position is for {pos.seats} seats (segment "
            f"{pos.topology.segment}); the board has {cfg.seats} (segment {cfg.segment})"
        )
    return pos


def run_banner(
    url: str,
    host: str,
    db: Path,
    tokens: Tokens,
    lang: str,
    terminal: bool = True,
    how: Text | None = None,
) -> list[str]:
    """What ``run`` says at start: the address, whether every interface listens (and
    the address spectators should open), the links (roles.py), which hold the tokens and
    so are printed only on a ``terminal`` (not into a log: ``how`` says how to see them)."""
    lines = [Text(f"keezbord run: {url}  (journal {db})", f"keezbord run: {url}  (journal {db})")]
    base = url
    if host in ("0.0.0.0", "::"):
        base = f"http://{_lan_address()}:{url.rstrip('/').rsplit(':', 1)[1]}/"
        lines.append(
            Text(
                f"luistert op alle netwerkaansluitingen; toeschouwers openen {base} "
                "(--host 127.0.0.1: alleen deze computer)",
                f"listening on every interface; spectators open {base} "
                "(--host 127.0.0.1: this computer only)",
            )
        )
    return [t.get(lang) for t in lines] + shown_links(base, tokens, lang, terminal, how)


SERVICE_TOKEN = Text("`keezbord service token` toont ze", "`keezbord service token` prints them")


def shown_links(
    url: str, tokens: Tokens, lang: str, terminal: bool, how: Text | None = None
) -> list[str]:
    """The links on a terminal; elsewhere (the service's journal, a log file) one line
    saying how to see them: a token in a log is a key left lying about."""
    if terminal:
        return link_lines(url, tokens, lang)
    how = how or SERVICE_TOKEN
    return [
        Text(
            f"links niet getoond (de uitvoer is geen terminal): {how.nl}",
            f"links not shown (the output is not a terminal): {how.en}",
        ).get(lang)
    ]


def link_lines(url: str, tokens: Tokens, lang: str) -> list[str]:
    """The links of the page's roles, one line each (Dutch or English), then each
    remote seat's own (commands/away.py)."""
    from keezbord.host.commands.away import seat_lines

    ls = links(url, tokens)
    said = [
        Text(
            f"toeschouwers (alleen kijken): {ls[Role.SPECTATOR]}",
            f"spectators (watch only): {ls[Role.SPECTATOR]}",
        ),
        Text(f"spelers: {ls[Role.PLAYER]}", f"players: {ls[Role.PLAYER]}"),
        Text(
            f"scheidsrechter (beheer): {ls[Role.REFEREE]}", f"referee (control): {ls[Role.REFEREE]}"
        ),
    ]
    return [t.get(lang) for t in said] + seat_lines(url, tokens, lang)


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


def _real_board(cfg: BoardConfig, setup: dict[str, Any], lang: str = "en") -> BoardDriver:
    """The configured board and card reader; without a working link the page still
    serves the game. Fills in what the game's setup needs to know of them."""
    from keezbord.host.card_registry import load_registry
    from keezbord.host.drivers.build import build_board
    from keezbord.host.drivers.rfid import CardReader, open_reader
    from keezbord.host.extras import require

    reg = load_registry(cfg.cards)
    if reg.tags:
        setup["tags"] = dict(reg.tags)
    if cfg.rfid.reader == "none":
        setup["card_reader"] = False
    reader: CardReader | None = None
    if cfg.rfid.reader != "none":
        try:
            reader = open_reader(cfg.rfid.reader, cfg.rfid.port, cfg.rfid.tap_gap_ms)
        except (OSError, ValueError) as e:
            say(
                lang,
                f"keezbord run: geen kaartlezer ({e}); zetten worden met elke kaart gecontroleerd",
                f"keezbord run: card reader not available ({e}); moves "
                "are checked against every card",
            )
            setup["card_reader"] = False
    health = getattr(reader, "health", None)
    if callable(health) and not health()["ok"]:
        # Opened, but the chip does not answer (switched on after the Pi?): the reader
        # tries again in the background; the page's health view says it is missing.
        say(
            lang,
            f"keezbord run: de kaartlezer antwoordt (nog) niet ({health()['error']}); "
            "opnieuw geprobeerd om de 2 s",
            f"keezbord run: the card reader does not answer yet ({health()['error']}); "
            "tried again every 2 s",
        )
    if cfg.scanner.kind != "gpio":
        require("pico", "the Pico link (scanner.kind = pico-serial)")
    return build_board(cfg, reader, say=lambda text: print(text.get(lang), flush=True))


def _serve(
    make: Callable[[], Hub],
    host: str,
    port: int,
    banner: Callable[[str], None],
    styles: Mapping[str, RoleStyle] | None = None,
    appliance: dict[str, Any] | None = None,
    trusted: tuple[str, ...] = (),
) -> int:
    """Bind the port, make the hub (so every error so far is one line and no server has
    started), announce the address once Ctrl-C stops it cleanly (serving.make_server),
    then serve until Ctrl-C."""

    from keezbord.host.web.app import create_app
    from keezbord.host.web.serving import make_server, server_config

    sock = _listen(host, port)
    try:
        hub = make()
    except BaseException:
        sock.close()
        raise

    def made() -> Hub:
        return hub

    app = create_app(made) if styles is None else create_app(made, styles=styles)
    app.state.appliance = {} if appliance is None else appliance  # mDNS name, for the QR code
    url = f"http://{f'[{host}]' if ':' in host else host}:{sock.getsockname()[1]}/"
    server = make_server(server_config(app, trusted_proxies=trusted), lambda: banner(url))
    from keezbord.host.referee import freeze_heap

    freeze_heap()  # the web stack too: never walked again by a full collection
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0 if server.started else 1


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a one-line UsageError saying why not."""
    import errno

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
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
            raise UsageError(
                f"port {port} on {host} is already in use (another keezbord? "
                "choose one with --port)"
            ) from None
        if e.errno == errno.EACCES:
            raise UsageError(
                f"not allowed to listen on port {port} (ports below 1024 need root)"
            ) from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise UsageError(f"--host {host}: not an address of this machine") from None
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock
