"""Who may do what on the page: spectators, players and the referee (issue 13).

Three roles, told apart by the token in the page's link (``/?token=...``):

- ``spectator``: no token (the plain address, the QR code on the board): watches only;
  sees the board, the panels and the log, never a hand.
- ``player``: the players' token: in the simulator moves pawns, taps and discards cards,
  passes to the partner, asks for a hint and shows its hand; on a real board the pawns
  are moved on the board itself.
- ``referee``: the control token: everything a player may, and undo, new game, overrule,
  the NK penalty and time limit.

Both tokens are secrets: ``keezbord run`` keeps them in its state folder (mode 0600, see
``TokenStore``), ``keezbord sim`` makes new ones at every start. This module is the one
place that knows the roles; the web layer asks ``role_of`` and ``may``, the commands ask
``links``.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path


class Role(StrEnum):
    SPECTATOR = "spectator"
    PLAYER = "player"
    REFEREE = "referee"


# What a page may ask for (docs/web.md, the messages a page sends), by the least role.
# Reading the state needs no message at all; spectators may only ask for what is listed
# here, so a message type added later is closed to them until someone decides otherwise.
SPECTATOR_ACTIONS: frozenset[str] = frozenset()
REFEREE_ACTIONS = frozenset(
    {"undo", "hold", "new_game", "penalty", "time_limit", "overrule"}
)  # "hold": the bots wait while the referee's takeback dialog is open


def may(role: Role, action: str) -> bool:
    """Whether ``role`` may ask for ``action`` (a message type from a page)."""
    if action in REFEREE_ACTIONS:
        return role is Role.REFEREE
    if action in SPECTATOR_ACTIONS:
        return True
    return role in (Role.PLAYER, Role.REFEREE)


@dataclass(frozen=True)
class Tokens:
    referee: str
    player: str

    @staticmethod
    def new() -> Tokens:
        return Tokens(referee=secrets.token_urlsafe(9), player=secrets.token_urlsafe(9))


def role_of(tokens: Tokens, given: object) -> Role:
    """The role a page's token gives (compared in constant time). ``given`` comes from a
    link or a JSON message: anything but a string is no token, and the comparison is on
    bytes (``compare_digest`` refuses non-ASCII strings: a typed ``é`` must not be a 500)."""
    if isinstance(given, str) and given:
        raw = given.encode("utf-8", "surrogatepass")
        if hmac.compare_digest(raw, tokens.referee.encode("utf-8")):
            return Role.REFEREE
        if hmac.compare_digest(raw, tokens.player.encode("utf-8")):
            return Role.PLAYER
    return Role.SPECTATOR


def links(base_url: str, tokens: Tokens) -> dict[Role, str]:
    """The three links to hand out: ``base_url`` is the page's address (``http://h:p/``)."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    return {
        Role.SPECTATOR: base,
        Role.PLAYER: f"{base}?token={tokens.player}",
        Role.REFEREE: f"{base}?token={tokens.referee}",
    }


class TokenError(ValueError):
    """A token file that cannot be read or written (one line, for the command line)."""


@dataclass(frozen=True)
class TokenStore:
    """The tokens of a board that keeps them between starts: one JSON file, mode 0600,
    made on first use and never rewritten (a restart keeps everyone's links working)."""

    path: Path

    def load(self) -> Tokens:
        if not self.path.exists():
            tokens = Tokens.new()
            self.save(tokens)
            return tokens
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            tokens = Tokens(referee=str(data["referee"]), player=str(data["player"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise TokenError(f"{self.path}: not a keezbord token file ({exc})") from None
        # Kept as they are, but never readable by others: a file copied in (a restored
        # backup, ``cp`` without ``-a``) may come with the umask's 0644.
        try:
            if self.path.stat().st_mode & 0o077:
                os.chmod(self.path, 0o600)
        except OSError as exc:
            raise TokenError(f"{self.path}: cannot make it private ({exc.strerror})") from None
        return tokens

    def save(self, tokens: Tokens) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(asdict(tokens), f)
                f.write("\n")
            os.chmod(self.path, 0o600)  # also when the file was there with a wider mode
        except OSError as exc:
            raise TokenError(f"{self.path}: cannot write the tokens ({exc.strerror})") from None
