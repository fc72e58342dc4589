"""The ``keezbord`` command line: a thin dispatcher.

Each command lives in a module of ``keezbord.host.commands`` that is imported only when
that command runs (``keezbord moves`` is called often by players and scripts, so it must
start fast). A command module defines ``add_<name>_arguments(parser)`` and
``run_<name>(args) -> int``.

Errors: a command raises ``UsageError`` (keezbord/host/errors.py) or one of the engine's
ValueError subclasses for bad input; the dispatcher prints one line on stderr and exits 2,
never a traceback.

Language: every command that prints player-facing text takes ``--lang nl|en``
(``add_lang_argument``); the dispatcher resolves it once for all of them (``resolve_lang``):
``--lang``, else ``$KEEZBORD_LANG``, else English (keezbord/host/commands/lang.py).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from keezbord.host.commands.lang import resolve_lang
from keezbord.host.errors import UsageError

# name -> (module in keezbord.host.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "moves": ("rules", "list the legal moves of a card in a position"),
    "check": ("rules", "say whether one position follows from another by a card"),
    "selfplay": ("rules", "let bots play complete games and print a summary"),
    "hint": ("hint", "suggest a move for a card or a hand, with the reason (search)"),
    "lessons": ("lessons", "the course for newcomers; judge a move for a lesson's step"),
    "puzzles": ("puzzles", "puzzles, one move clearly best: list, mine, try, a hint, the answer"),
    "replay": ("referee", "feed a sensor trace to the referee and print its decisions"),
    "analyse": ("analyse", "judge a finished game move by move: mistakes, luck and skill"),
    "engine": ("engine", "a bot speaking the engine protocol on stdin/stdout (as UCI)"),
    "journal": ("referee", "export a game from the referee's journal; set a damaged game aside"),
    "firmware": ("firmware", "install the Pico firmware and its configuration"),
    "cards": ("devices", "enroll the RFID tags of a card deck"),
    "selftest": ("selftest", "walk a newly built board hole by hole"),
    "board": ("board", "drilling template, wiring sheet and bill of materials"),
    "sim": ("web", "play on a simulated board in the browser"),
    "run": ("web", "referee a real board and serve the web page"),
    "club": ("club", "a club evening: tournament, scoreboard, boards over MQTT"),
    "link": ("link", "two boards in one game: the broker's configuration (docs/remote.md)"),
    "service": ("service", "install the board as a service that starts at boot (Pi)"),
    "doctor": ("doctor", "check this Pi for the configured board; each problem with its fix"),
}


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter without its ``import shutil`` (with bz2 and lzma, a few ms
    of every start-up, and argparse builds a formatter for every argument added)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            try:
                width = int(os.environ.get("COLUMNS", "")) - 2
            except ValueError:
                try:
                    width = os.get_terminal_size(sys.stdout.fileno()).columns - 2
                except (OSError, ValueError, AttributeError):
                    width = 78
        super().__init__(prog, indent_increment, max_help_position, width)


class _RawDescriptionFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (argparse prints the whole usage block first)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _top_parser() -> argparse.ArgumentParser:
    from keezbord import __version__

    p = _Parser(
        prog="keezbord",
        description="Referee, simulator and companion for a Keezen board.",
        formatter_class=_RawDescriptionFormatter,
        epilog="commands:\n" + "\n".join(f"  {n:<10} {h}" for n, (_, h) in COMMANDS.items()),
    )
    p.add_argument("--version", action="version", version=f"keezbord {__version__}")
    p.add_argument("command", choices=sorted(COMMANDS), metavar="COMMAND")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in COMMANDS:
        _top_parser().parse_args(args[:1] or ["--help"])
        return 2
    name = args[0]
    module_name, help_text = COMMANDS[name]
    try:
        module = importlib.import_module(f"keezbord.host.commands.{module_name}")
    except ImportError as e:
        print(f"keezbord {name}: not available: {_missing_extra(e) or e}", file=sys.stderr)
        return 2
    parser = _Parser(prog=f"keezbord {name}", description=help_text)
    getattr(module, f"add_{name}_arguments")(parser)
    ns = parser.parse_args(args[1:])
    try:
        if hasattr(ns, "lang"):
            ns.lang = resolve_lang(ns.lang)
        result: int = getattr(module, f"run_{name}")(ns)
        return result
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as e:  # an extra not installed (keezbord/host/extras.py)
        message = _missing_extra(e)
        if message is None:
            raise
        print(f"keezbord {name}: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except (UsageError, ValueError, OSError) as e:
        print(f"keezbord {name}: {_one_line(e)}", file=sys.stderr)
        code: int = getattr(e, "exit_code", 2)  # 3: a journal it cannot use (errors.py)
        return code
    except RecursionError:  # the parsers refuse deep nesting; this is the last guard
        print(f"keezbord {name}: input nested too deeply", file=sys.stderr)
        return 2


def _missing_extra(e: ImportError) -> str | None:
    from keezbord.host.extras import missing_extra

    return missing_extra(e) if isinstance(e, ModuleNotFoundError) else None


def _one_line(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    if isinstance(e, OSError) and e.filename is not None and e.strerror:
        text = f"{e.filename}: {e.strerror}"
    return " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main())
