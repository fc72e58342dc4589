"""The journal's trouble on the page and in the health (journal_status.py): a disk
that refuses the journal's writes (the instruction line says so first of all: the game
waits), an fsync that fails (said while the game goes on), a game resumed from a damaged
journal (said until the next move; the health keeps it for the whole run)."""

from __future__ import annotations

from typing import Any

from keezbord.engine.text import Text
from keezbord.host.journal_status import health
from keezbord.host.session import GameSession

from .instruction import MODE, URGENT, Instruction


def journal_health(session: GameSession) -> dict[str, Any]:
    """``GET /api/health``'s ``journal`` (docs/web.md)."""
    return health(session.journal, session.damage)


def journal_notice(session: GameSession) -> dict[str, Instruction]:
    """The instruction the page shows for the journal, as ``Hub.instructions`` holds
    them (none: an empty mapping)."""
    h = journal_health(session)
    if not h["ok"]:
        rank = URGENT if session.journal.write_error is not None else MODE
        text = Text(h["text"]["nl"], h["text"]["en"])
        return {"journal": Instruction(_capital(text), "journal", None, (), "fix", rank)}
    damage = session.damage
    if damage is not None and len(session.state.history) == session.opened_moves:
        text = damage.text()
        if session.setup_raw.get("mode", "run") != "sim":  # a board of pawns: the lights
            text = Text(
                f"{text.nl} — zet het bord zoals de lampjes tonen",
                f"{text.en}: put the board as the lights show",
            )
        return {"journal": Instruction(text, "journal", None, (), "fix", MODE)}
    return {}


def _capital(t: Text) -> Text:
    return Text(t.nl[:1].upper() + t.nl[1:], t.en[:1].upper() + t.en[1:])
