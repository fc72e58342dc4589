"""What a page may send over the websocket, checked before anything reads it (issue 37,
docs/web.md "Limits").

Every message is bounded by its link's role (``MAX_MESSAGE``: a spectator sends nothing
the hub acts on, so a few hundred bytes; the server itself takes no frame over
``SOCKET_MAX``, uvicorn's ``ws_max_size``, keezbord/host/web/serving.py), must be a
JSON object no deeper than jsontext's limit whose ``type`` is a string, and may hold no
string a UTF-8 encoder refuses (a lone surrogate, ``"\\ud800"``: it would break the
reply that echoes it). Whatever fails gets one line back, in both languages, and never
reaches the hub; a bug behind a well-formed message is logged as one line, at most once
per ``BUG_LOG_S`` per message type (``log_bug``), and answered as an internal error.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from typing import Any, Final

from keezbord.host.jsontext import loads
from keezbord.host.roles import Role

# Bytes of one message, by the link's role. The largest a page sends is a referee's
# overrule reason or a position to set up: well under 4 KiB.
MAX_MESSAGE: Final = {
    Role.SPECTATOR: 512,
    Role.REMOTE: 2048,
    Role.PLAYER: 8192,
    Role.REFEREE: 16384,
}
SOCKET_MAX: Final = 16384  # the server's frame limit (close 1009 beyond), every role's max
BUG_LOG_S: Final = 60.0

UNREADABLE: Final = {"nl": "onleesbaar bericht", "en": "unreadable message"}
NO_TYPE: Final = {"nl": "bericht zonder soort ('type')", "en": "a message without a 'type'"}
TOO_BIG: Final = {"nl": "bericht te groot", "en": "message too big"}
INTERNAL: Final = {
    "nl": "interne fout: het bericht is niet uitgevoerd",
    "en": "internal error: the message was not carried out",
}


class Refused(ValueError):
    """A message refused before the hub sees it; ``text`` is the page's line, ``close``
    says the socket is closed after it (a message over the role's size)."""

    def __init__(self, text: dict[str, str], close: bool = False) -> None:
        super().__init__(text["en"])
        self.text, self.close = text, close


def message_of(text: str, role: Role) -> dict[str, Any]:
    """The page message in ``text`` from a link of ``role``, or Refused."""
    if (
        len(text) > MAX_MESSAGE[role]
        or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE[role]
    ):
        raise Refused(TOO_BIG, close=True)
    try:
        msg = loads(text)
    except ValueError:  # JsonTextError too: malformed or nested too deeply
        raise Refused(UNREADABLE) from None
    if not isinstance(msg, dict):
        raise Refused(UNREADABLE)
    if not well_formed(msg):
        raise Refused(UNREADABLE)
    if not isinstance(msg.get("type"), str):
        raise Refused(NO_TYPE)
    return msg


def well_formed(data: Any) -> bool:
    """Whether every string in ``data`` (keys too) encodes as UTF-8 (no lone surrogate);
    ``data`` is parsed JSON already bounded in depth and size."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return True


class BugLog:
    """One line per bug (type, message, where), at most once per ``every_s`` per key;
    the lines held back are counted in the next one."""

    def __init__(
        self,
        every_s: float = BUG_LOG_S,
        clock: Callable[[], float] = time.monotonic,
        out: Callable[[str], None] = print,
    ) -> None:
        self.every_s, self.clock, self.out = every_s, clock, out
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def __call__(self, key: str, e: BaseException) -> None:
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.every_s:
            self._held[key] = self._held.get(key, 0) + 1
            return
        if len(self._last) > 256:  # keys come from pages: keep the table small
            self._last.clear()
            self._held.clear()
        self._last[key] = now
        held = self._held.pop(key, 0)
        frames = traceback.extract_tb(e.__traceback__)
        where = (
            f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
        )
        more = f" ({held} more since)" if held else ""
        self.out(f"keezbord: request {key[:40]!r} failed: {e!r}{where}{more}")
