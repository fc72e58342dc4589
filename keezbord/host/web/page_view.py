"""What the page draws, gathered from the hub's parts (page.py's ``PageView``): the hub
asks for it when its cached state is out of date."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import page
from .health_view import journal_notice

if TYPE_CHECKING:
    from .hub import Hub


def page_view(hub: Hub) -> page.PageView:
    """The hub's game as the page sees it, at the hub's clock."""
    st = hub.session.state
    return page.PageView(
        version=hub.version,
        mode=hub.opts.mode,
        snapshot=hub.session.snapshot("nl", history=False),
        state=st,
        now=hub.now(),
        pawn_seat=hub.pawns.pawn_seat,
        held=hub.pawns.held,
        last=hub.pawns.last,
        sim=hub.sim,
        bot_busy=hub.bot_busy,
        health=hub.health(),
        coach=hub.coach,
        entries=hub._entries,
        log=hub.log.entries,
        undone=hub.log.undone,
        remarks=hub.remarks.entries,
        exchange_cards=hub.log.cards,
        instructions={**journal_notice(hub.session), **hub.instructions},
        mismatch=None if hub.mismatch is None else hub.mismatch.flag(),
    )
