"""Where keezbord finds its configuration and keeps its journal: one rule for every command.

The configuration in effect is the first of

1. the file given with ``--config`` (it must exist),
2. ``./board.toml`` in the current folder,
3. the installed service's ``/etc/keezbord/board.toml`` (``$KEEZBORD_SYSTEM_CONFIG``
   names another file, for tests and unusual installs),

else the built-in defaults. The journal (the SQLite file every game is written to) is the
``[files] journal`` of that configuration, else ``keezbord.sqlite`` in the user's data
folder (``$XDG_DATA_HOME/keezbord``, by default ``~/.local/share/keezbord``). ``run``,
``run --simulate``, ``sim`` and ``journal export`` all use this rule, so ``journal export``
finds the games the others wrote; ``--db`` overrides it where a command offers it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

CONFIG_NAME: Final = "board.toml"
SYSTEM_CONFIG: Final = Path("/etc/keezbord") / CONFIG_NAME
SYSTEM_CONFIG_ENV: Final = "KEEZBORD_SYSTEM_CONFIG"
JOURNAL_NAME: Final = "keezbord.sqlite"


class JournalPathError(ValueError):
    """A journal that cannot be created where it is asked for; one line."""


def data_dir() -> Path:
    """The user's data folder for keezbord (created on demand by ``journal_path``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "keezbord"


def system_config() -> Path:
    return Path(os.environ.get(SYSTEM_CONFIG_ENV) or SYSTEM_CONFIG)


def config_path(flag: str | Path | None) -> Path | None:
    """The configuration file in effect (see the module's rule), or None: the defaults."""
    if flag is not None:
        return Path(flag)
    for candidate in (Path(CONFIG_NAME), system_config()):
        if candidate.is_file():
            return candidate
    return None


def journal_path(configured: Path | None, override: str | Path | None = None) -> Path:
    """The journal: ``override`` (``--db``), else the configuration's ``[files] journal``,
    else the data folder's. Its folder must exist (a typo must not grow a tree of
    folders), except the data folder, which is ours to create."""
    chosen = override if override is not None else configured
    if chosen is not None:
        path = Path(chosen).absolute()  # say, and use, the same file whatever the cwd
        check_journal_folder(path)
        return path
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / JOURNAL_NAME


def check_journal_folder(path: Path) -> None:
    if path.is_dir():
        raise JournalPathError(f"journal {path}: is a folder, not a file")
    if not path.parent.is_dir():
        raise JournalPathError(f"journal {path}: the folder {path.parent} does not exist")
