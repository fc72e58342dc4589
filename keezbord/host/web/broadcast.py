"""The state sent to the pages, made once per change for each audience (issue 37: 500
spectators each had the whole state filtered and encoded at every change, and the
referee's acknowledgement went from a few ms to most of a second).

An audience is a role and, for a remote seat's link, its seat: every page of it gets the
same state (page.py ``for_role``, with the game clock) and, among pages that have the
same part of the history (``?history=delta``, page.py ``HistoryFeed``), the same text.
Both are kept for the hub's version and ``FRESH_S`` at most (the clock goes on); a new
version drops them all. Spectators are capped (``Watchers``): one over the cap is told
"full" and its socket closed, and each spectator's page gets at most one state every
``SPECTATOR_PAUSE_S`` (the referee's and the players' pages get theirs at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from keezbord.host.roles import Access, Role

from . import page

if TYPE_CHECKING:
    from .hub import Hub

FRESH_S: Final = 0.25  # a cached state's clock is this old at most
MAX_SPECTATORS: Final = 200  # spectators' sockets at once (a Pi Zero 2 W's share)
SPECTATOR_PAUSE_S: Final = 0.2  # a spectator's page: a state every 0.2 s at most
FULL: Final = {
    "nl": "te veel kijkers op dit moment: de pagina probeert het zo opnieuw",
    "en": "too many spectators right now: the page tries again shortly",
}

Audience = tuple[Role, int | None]


class Broadcast:
    """The state per audience and its text per history part, for one version at a time;
    ``extra``: parts the app adds to every state (the analysis' progress)."""

    def __init__(self, hub: Hub, extra: Callable[[], dict[str, Any]]) -> None:
        self.hub, self.extra = hub, extra
        self._key: tuple[int, float] = (-1, 0.0)
        self._states: dict[Audience, dict[str, Any]] = {}
        self._texts: dict[tuple[Any, ...], str] = {}
        self.encoded = 0  # texts made (tests, the benchmark)

    def _fresh(self) -> None:
        now = time.monotonic()
        version, made = self._key
        if version != self.hub.version or now - made > FRESH_S:
            self._key = (self.hub.version, now)
            self._states.clear()
            self._texts.clear()

    def state(self, got: Access) -> dict[str, Any]:
        """The state a page with ``got``'s access is sent now (shared: do not change it)."""
        self._fresh()
        audience = (got.role, got.seat)
        out = self._states.get(audience)
        if out is None:
            hub = self.hub
            shown = page.for_role(hub.page_state(), got.role, got.seat)
            out = {**page.with_clock(shown, hub.session.state, hub.now()), **self.extra()}
            self._states[audience] = out
        return out

    def text(self, got: Access, feed: page.HistoryFeed | None = None) -> str:
        """The state message's text for a page with ``got``'s access (``feed``: what
        that page has of the history)."""
        state = self.state(got)
        message = state if feed is None else feed.message(state)
        parts = ((message.get(f"{k}_from"), len(message[k])) for k in page.HistoryFeed.KEYS)
        key = (got.role, got.seat, *parts)
        text = self._texts.get(key)
        if text is None:
            text = page.to_json(message)
            self._texts[key] = text
            self.encoded += 1
        return text


class Watchers:
    """The spectators' sockets, counted against ``limit``."""

    def __init__(self, limit: int = MAX_SPECTATORS) -> None:
        self.limit = limit
        self.count = 0

    def enter(self, role: Role) -> bool:
        """Whether a page of ``role`` may stay (False: a spectator over the cap)."""
        if role is not Role.SPECTATOR:
            return True
        if self.count >= self.limit:
            return False
        self.count += 1
        return True

    def leave(self, role: Role) -> None:
        if role is Role.SPECTATOR:
            self.count -= 1
