"""``--config`` and ``--db``: which journal a command reads, by the one rule of every command
(keezbord/host/paths.py): ``--db``, else the configuration's ``[files] journal``, else the
user's data folder's."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_journal_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        default=None,
        metavar="FILE",
        help="board TOML whose [files] journal to use (default ./board.toml, else "
        "/etc/keezbord/board.toml)",
    )
    p.add_argument(
        "--db",
        default=None,
        help="journal database (default: the journal of the configuration, else "
        "keezbord.sqlite in the user's data folder, as every command)",
    )


def journal_path(args: argparse.Namespace) -> Path:
    """The journal ``--config`` and ``--db`` name (it may not exist yet)."""
    from keezbord.host.config import find_config, journal_of

    return journal_of(find_config(args.config), args.db)
