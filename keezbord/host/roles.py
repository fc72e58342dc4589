"""Who may do what on the page: spectators, players, remote seats and the referee
(issues 13 and 28).

Four roles, told apart by the token in the page's link (``/?token=...``):

- ``spectator``: no token (the plain address, the QR code on the board): watches only;
  sees the board, the panels and the log, never a hand.
- ``player``: the players' token: in the simulator moves pawns, taps and discards cards,
  passes to the partner, asks for a hint and shows its hand; on a real board the pawns
  are moved on the board itself (with a virtual deal: the cards of the seats at the
  table are tapped on the page). A set-up, a lesson, a puzzle or a retry on the board
  (``NEW_GAME_ACTIONS``) only when no game is in progress, or in the simulator once the
  page has confirmed what is lost (``may_end_game``).
- ``remote``: one seat's own token (a remote seat, played from a phone far away): plays
  that seat's cards and chooses its moves, which the board lights for the people at the
  table; only for that seat and only on its turn (``remote_may``).
- ``referee``: the control token: everything a player may, and undo, new game, overrule,
  the NK penalty and time limit, the links (make them new, give a seat away).

Tokens are secrets: ``TOKEN_BYTES`` random bytes (144 bits, at least ``MIN_TOKEN_BITS``),
compared in constant time against every token the board has, never printed but on a
terminal (keezbord/host/commands/web.py). ``keezbord run`` keeps them in its state folder
(mode 0600, ``TokenStore``), ``keezbord sim`` makes new ones at every start. Failed
attempts (a token that is none of them) are counted per client address and per token;
beyond ``Attempts.limit`` a client's tokens are checked at a slow pace (``Attempts``).
This module is the one place that knows the roles; the web layer asks ``access_of``,
``may``, ``remote_may`` and ``may_end_game``, the commands ask ``links``.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final, Literal


class Role(StrEnum):
    SPECTATOR = "spectator"
    PLAYER = "player"
    REMOTE = "remote"
    REFEREE = "referee"


TOKEN_BYTES: Final = 18  # 144 random bits, 24 characters in a link
MIN_TOKEN_BITS: Final = 128
# A token given by hand (``run --token``) or found in an old file: at least this long.
# ``token_urlsafe`` spends 6 bits a character, so 22 characters hold 132 bits.
MIN_TOKEN_CHARS: Final = -(-MIN_TOKEN_BITS // 6)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def long_enough(token: str) -> bool:
    return len(token) >= MIN_TOKEN_CHARS


# What a page may ask for (docs/web.md, the messages a page sends), by the least role.
# Reading the state needs no message at all; spectators may only ask for what is listed
# here, so a message type added later is closed to them until someone decides otherwise.
SPECTATOR_ACTIONS: frozenset[str] = frozenset()
REFEREE_ACTIONS = frozenset(
    {
        "undo",
        "hold",
        "new_game",
        "penalty",
        "time_limit",
        "overrule",
        "links",
        "renew",
        "seat_at",
    }
)  # "hold": the bots wait while the referee's takeback dialog is open
# A remote seat's link: its own seat's cards and moves, nothing else (not even what a
# players' link may: the pawns of a simulated board, "put the board right").
REMOTE_ACTIONS = frozenset({"discard", "give", "moves", "play"})


# Each begins a new game, ending the one on the board (docs/web.md). The referee may
# always; a player only as ``may_end_game`` says (issue 37: the players' link ended a
# club board's game in progress).
NEW_GAME_ACTIONS = frozenset({"set_up", "lesson", "puzzle", "retry_board"})


class Ending(StrEnum):
    """What a request that begins a new game needs (``may_end_game``)."""

    FREE = "free"  # nothing to lose, or the referee asks
    CONFIRM = "confirm"  # the page confirms, naming what is lost
    REFEREE = "referee"  # only the referee's link


def may_end_game(role: Role, *, in_progress: bool, referee_link: bool) -> Ending:
    """Whether ``role`` may begin a new game now: the referee always; a player freely
    when no game is in progress (over, not begun, or a lesson's step, a puzzle, a retry);
    over a game in progress, on a board that has a referee's link in use (``run``, a club
    evening) never, in the simulator (one person at the screen) once the page has
    confirmed what is lost. Nobody else."""
    if role is Role.REFEREE or (role is Role.PLAYER and not in_progress):
        return Ending.FREE
    if role is Role.PLAYER and not referee_link:
        return Ending.CONFIRM
    return Ending.REFEREE


def may(role: Role, action: str) -> bool:
    """Whether ``role`` may ask for ``action`` (a message type from a page). A remote
    seat's link is further bound to its seat and turn (``remote_may``)."""
    if action in REFEREE_ACTIONS:
        return role is Role.REFEREE
    if role is Role.REMOTE:
        return action in REMOTE_ACTIONS
    if action in SPECTATOR_ACTIONS:
        return True
    return role in (Role.PLAYER, Role.REFEREE)


@dataclass(frozen=True)
class Access:
    """What a page's token gives it: a role and, for a remote seat's link, its seat."""

    role: Role
    seat: int | None = None


SPECTATOR: Final = Access(Role.SPECTATOR)


def remote_may(
    access: Access, action: str, *, to_play: int | None, giving: tuple[int, ...] = ()
) -> bool:
    """Whether a remote seat's link may ask for ``action`` now: only for its own seat,
    only on its turn (``to_play``, the seat the referee waits for), and a partner
    exchange's card only while its seat still has one to give (``giving``)."""
    if access.role is not Role.REMOTE or access.seat is None or action not in REMOTE_ACTIONS:
        return False
    if action == "give":
        return access.seat in giving
    return to_play == access.seat and not giving


@dataclass(frozen=True)
class Tokens:
    referee: str
    player: str
    # The remote seats' own tokens, (seat, token) by seat: a value, like the rest.
    seats: tuple[tuple[int, str], ...] = ()

    @staticmethod
    def new(seats: tuple[int, ...] = ()) -> Tokens:
        return Tokens(new_token(), new_token(), tuple((s, new_token()) for s in sorted(seats)))

    def seat(self, seat: int) -> str | None:
        return dict(self.seats).get(seat)

    def with_seat(self, seat: int) -> Tokens:
        """With a new token for ``seat`` (made, or made again: the old link stops)."""
        rest = {s: t for s, t in self.seats if s != seat} | {seat: new_token()}
        return Tokens(self.referee, self.player, tuple(sorted(rest.items())))

    def for_seats(self, seats: tuple[int, ...]) -> Tokens:
        """A token for each of ``seats`` (those kept stay), none for any other seat."""
        out = Tokens(self.referee, self.player, tuple(p for p in self.seats if p[0] in seats))
        for seat in seats:
            if out.seat(seat) is None:
                out = out.with_seat(seat)
        return out

    def without_seat(self, seat: int) -> Tokens:
        return Tokens(self.referee, self.player, tuple(p for p in self.seats if p[0] != seat))

    def renewed(self, which: Literal["player", "referee"]) -> Tokens:
        if which == "player":
            return Tokens(self.referee, new_token(), self.seats)
        return Tokens(new_token(), self.player, self.seats)

    def short(self) -> bool:
        """Whether a token is shorter than ``MIN_TOKEN_BITS`` allows (an old file's)."""
        return not all(map(long_enough, [self.referee, self.player, *dict(self.seats).values()]))


def access_of(tokens: Tokens, given: object) -> Access:
    """What a page's token gives (compared in constant time with every token, so the
    time taken says nothing of which one, nor how much of one, matched). ``given`` comes
    from a link or a JSON message: anything but a string is no token, and the comparison
    is on bytes (``compare_digest`` refuses non-ASCII strings: a typed ``é`` must not be
    a 500)."""
    if not isinstance(given, str) or not given:
        return SPECTATOR
    raw = given.encode("utf-8", "surrogatepass")
    candidates = [
        (tokens.referee, Access(Role.REFEREE)),
        (tokens.player, Access(Role.PLAYER)),
        *((t, Access(Role.REMOTE, s)) for s, t in tokens.seats),
    ]
    found = SPECTATOR
    for token, access in candidates:
        if hmac.compare_digest(raw, token.encode("utf-8")) and found is SPECTATOR:
            found = access
    return found


def role_of(tokens: Tokens, given: object) -> Role:
    """The role a page's token gives (``access_of``'s role)."""
    return access_of(tokens, given).role


def tried(given: object) -> bool:
    """Whether a request named a token at all (one that gives no role is a failed try)."""
    return isinstance(given, str) and given != ""


class Attempts:
    """Failed token attempts (a token that is none of the board's), by client address and
    by token (issue 37). A wrong token counts once however often it is tried again (a
    page with a revoked link reconnecting every second is no guesser); ``limit`` distinct
    wrong tokens from one address within ``window_s`` seconds, or ``limit_all`` from all
    addresses together (a guesser with many addresses), trip the limit. A tripped limit
    does not lock the right token out: a request naming a token is checked at most once
    per ``pace_s`` per address (``may_check``), the rest are refused unchecked (HTTP 429)
    until the window has passed. A guesser gets one try per ``pace_s``; the board's own
    people behind the same address (a household's router, a proxy) get in at their next
    reconnect. Keeps at most ``clients`` addresses (the oldest go first), so a flood of
    addresses cannot fill the memory."""

    def __init__(
        self,
        limit: int = 10,
        window_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        clients: int = 4096,
        pace_s: float = 2.0,
        limit_all: int = 100,
    ) -> None:
        self.limit, self.window_s, self.clock, self.clients = limit, window_s, clock, clients
        self.pace_s, self.limit_all = pace_s, limit_all
        # client -> {hash of a wrong token: when it was last tried}
        self._failed: OrderedDict[str, dict[int, float]] = OrderedDict()
        self._all: OrderedDict[int, float] = OrderedDict()  # wrong tokens, all clients
        self._checked: OrderedDict[str, float] = OrderedDict()  # paced: last check

    def _recent(self, client: str) -> dict[int, float]:
        now = self.clock()
        times = {k: t for k, t in self._failed.get(client, {}).items() if now - t < self.window_s}
        if times:
            self._failed[client] = times
        else:
            self._failed.pop(client, None)
        return times

    def _recent_all(self) -> int:
        now = self.clock()
        while self._all and now - next(iter(self._all.values())) >= self.window_s:
            self._all.popitem(last=False)
        return len(self._all)

    def blocked(self, client: str) -> bool:
        """Whether the limit is tripped for ``client`` (its requests with a token paced)."""
        return len(self._recent(client)) >= self.limit or self._recent_all() >= self.limit_all

    def may_check(self, client: str) -> bool:
        """Whether a request of ``client`` naming a token is checked now: always while
        the limit holds, else once per ``pace_s`` (False: refuse it unchecked)."""
        if not self.blocked(client):
            return True
        now = self.clock()
        last = self._checked.get(client)
        if last is not None and now - last < self.pace_s:
            return False
        self._checked[client] = now
        self._checked.move_to_end(client)
        while len(self._checked) > self.clients:
            self._checked.popitem(last=False)
        return True

    def failed(self, client: str, token: str = "") -> None:
        key = hash(token)
        now = self.clock()
        times = self._recent(client)
        times[key] = now
        self._failed[client] = times
        self._failed.move_to_end(client)
        while len(self._failed) > self.clients:
            self._failed.popitem(last=False)
        self._all.pop(key, None)
        self._all[key] = now
        while len(self._all) > self.clients:
            self._all.popitem(last=False)

    def wait_s(self, client: str) -> float:
        """How long ``client`` stays limited (0: not limited)."""
        if not self.blocked(client):
            return 0.0
        times = sorted(self._recent(client).values())
        if len(times) < self.limit:
            return self.pace_s
        return max(0.0, self.window_s - (self.clock() - times[-self.limit]))


def links(base_url: str, tokens: Tokens) -> dict[Role, str]:
    """The three links every board hands out: ``base_url`` is the page's address
    (``http://h:p/``); the remote seats' links are ``seat_links``."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    return {
        Role.SPECTATOR: base,
        Role.PLAYER: f"{base}?token={tokens.player}",
        Role.REFEREE: f"{base}?token={tokens.referee}",
    }


def seat_links(base_url: str, tokens: Tokens) -> dict[int, str]:
    """Each remote seat's own link, by seat."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    return {seat: f"{base}?token={token}" for seat, token in tokens.seats}


class TokenError(ValueError):
    """A token file that cannot be read or written (one line, for the command line)."""


@dataclass(frozen=True)
class TokenStore:
    """The tokens of a board that keeps them between starts: one JSON file, mode 0600,
    made on first use. A restart keeps everyone's links working; the file is written
    again only when a link is made new (revoked) or a seat is given to a remote player,
    and once for a file of an older keezbord whose tokens are too short."""

    path: Path

    def load(self) -> Tokens:
        if not self.path.exists():
            tokens = Tokens.new()
            self.save(tokens)
            return tokens
        tokens = self.read()
        if tokens.short():
            # An older keezbord's 72-bit tokens: made new, once (the old links stop).
            tokens = Tokens.new(tuple(s for s, _ in tokens.seats))
            self.save(tokens)
            return tokens
        # Kept as they are, but never readable by others: a file copied in (a restored
        # backup, ``cp`` without ``-a``) may come with the umask's 0644.
        try:
            if self.path.stat().st_mode & 0o077:
                os.chmod(self.path, 0o600)
        except OSError as exc:
            raise TokenError(f"{self.path}: cannot make it private ({exc.strerror})") from None
        return tokens

    def read(self) -> Tokens:
        """The tokens as the file has them, writing nothing (``keezbord service token``
        reads the service's file as root: a rewrite would take it from the service)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            seats: Mapping[str, object] = data.get("seats", {})
            tokens = Tokens(
                referee=str(data["referee"]),
                player=str(data["player"]),
                seats=tuple(sorted((int(s), str(t)) for s, t in seats.items())),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise TokenError(f"{self.path}: not a keezbord token file ({exc})") from None
        return tokens

    def save(self, tokens: Tokens) -> None:
        data = {
            "referee": tokens.referee,
            "player": tokens.player,
            "seats": {str(s): t for s, t in tokens.seats},
        }
        tmp = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)  # also when the file was there with a wider mode
            os.replace(tmp, self.path)  # a cut mid-write leaves the old file whole
        except OSError as exc:
            raise TokenError(f"{self.path}: cannot write the tokens ({exc.strerror})") from None
