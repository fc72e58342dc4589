"""``--lang``: the one language rule of every command that prints player-facing text.

``--lang``, else ``$KEEZBORD_LANG``, else English. The commands add the option
(``add_lang_argument``); the dispatcher resolves it once for all of them (``resolve_lang``).
"""

from __future__ import annotations

import argparse
import os
from typing import Final

from keezbord.engine.text import LANGS
from keezbord.host.errors import UsageError

LANG_ENV: Final = "KEEZBORD_LANG"


def add_lang_argument(p: argparse.ArgumentParser, what: str = "messages") -> None:
    """``--lang`` for a command that prints player-facing text (see ``resolve_lang``)."""
    p.add_argument(
        "--lang",
        choices=sorted(LANGS),
        default=None,
        help=f"language of {what}: nl or en (default: ${LANG_ENV}, else en)",
    )


def resolve_lang(flag: str | None) -> str:
    """The command line's language: ``--lang``, else ``$KEEZBORD_LANG``, else English."""
    if flag is not None:
        return flag
    env = os.environ.get(LANG_ENV, "").strip()
    if not env:
        return "en"
    if env not in LANGS:
        raise UsageError(f"{LANG_ENV} must be nl or en, not {env!r}")
    return env
