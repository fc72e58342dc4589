"""Helpers shared by the web tests: a game that opens with a known move, and the page's
links by role (issue 13): every test opens the page with ``link``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlencode

from keezbord.host.roles import Role, Tokens, links
from keezbord.host.web.hub import HubOptions

if TYPE_CHECKING:
    from keezbord.host.web.hub import Hub

T = TypeVar("T")

# The tests' tokens (the commands make random ones); a hub built with ``options`` has them.
TOKENS = Tokens(referee="referee-token", player="player-token")


# With seats 1 and 3 remote (issue 28): each has a token of its own.
REMOTE_TOKENS = Tokens("referee-token", "player-token", ((1, "seat1-token"), (3, "seat3-token")))


def options(db: Path, **kw: Any) -> HubOptions:
    """HubOptions with the tests' tokens: pages without a token only watch."""
    kw.setdefault("tokens", TOKENS)
    return HubOptions(db=db, **kw)


def remote_hub(
    db: Path,
    seed: int,
    remote: tuple[int, ...] = (1, 3),
    board: Any = None,
    hints: str = "off",
    profile: str = "standard",
    seats: int = 4,
    **opts: Any,
) -> Callable[[], Hub]:
    """A real board's hub (a FakeBoard unless ``board``) with a virtual deal dealt from
    ``seed`` and ``remote`` seats played far away, the tests' remote tokens."""
    from keezbord.host.drivers.boards import FakeBoard
    from keezbord.host.sim.table import REMOTE, TABLE, SimInfo, deal_dealer
    from keezbord.host.web.hub import Hub

    def make() -> Hub:
        where = [REMOTE if s in remote else TABLE for s in range(seats)]
        info = SimInfo(seed, ["human"] * seats, None, {}, where)
        dealer = deal_dealer(seats, profile, info)
        setup = {
            "type": "setup", "seats": seats, "profile": profile, "dealer": dealer,
            "hints": hints, "mode": "run", "settle_ms": 200,
        }  # fmt: skip
        opts.setdefault("tokens", REMOTE_TOKENS)
        return Hub.open_run(
            options(db, mode="run", **opts), setup, board or FakeBoard(), resume=False, deal=info
        )

    return make


def link(server: Any, role: Role | str = Role.REFEREE, **query: str) -> str:
    """The page's link for ``role`` on a running test server (``conftest.LiveServer``),
    with the token from its hub's options; ``query`` adds e.g. ``lang="nl"``."""
    tokens = server.hub.opts.tokens
    url: str = server.url + "/"
    if tokens is not None:
        url = links(url, tokens)[Role(role)]
    if query:
        url += ("&" if "?" in url else "?") + urlencode(query)
    return url


def ws_path(
    role: Role | str = Role.REFEREE, tokens: Tokens = TOKENS, seat: int | None = None
) -> str:
    """The websocket's path for ``role`` (TestClient tests); ``seat``: a remote seat's."""
    token = {Role.REFEREE: tokens.referee, Role.PLAYER: tokens.player}.get(Role(role))
    if Role(role) is Role.REMOTE:
        assert seat is not None
        token = tokens.seat(seat)
    return "/ws" if token is None else f"/ws?token={token}"


def opening_seed(seat: int = 0, seats: int = 4) -> tuple[int, str]:
    """A deck seed whose first player is ``seat`` holding a card that brings a pawn out
    (A or K): a game the tests can open with a known move."""
    from keezbord.engine.game import Game

    for seed in range(1000):
        g = Game(seats, "standard", seed)
        if g.table.turn == seat:
            for card in ("K", "A"):
                if card in g.hands[seat]:
                    return seed, card
    raise AssertionError("no opening seed found")


def sized_page(browser: Any, width: int, height: int, mobile: bool = False) -> Any:
    """A page of its own browser context, ``width`` x ``height``; ``mobile``: a phone's
    (touch, mobile viewport)."""
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=mobile, has_touch=mobile
    )
    return ctx.new_page()


# Seat 0 a person, the others greedy bots.
ONE_HUMAN = ["human", "greedy", "greedy", "greedy"]


def sim_hub(
    db: Path,
    seed: int,
    kinds: list[str] | None = None,
    *,
    bot_speed: float = 0.15,
    think_ms: int = 300,
    **open_sim: Any,
) -> Callable[[], Hub]:
    """A simulator hub opened afresh (dealt from ``seed``; ``open_sim``: Hub.open_sim's
    seats, profile, teams, hints), every seat human unless ``kinds`` says; bots at a
    test's pace."""
    from keezbord.host.web.hub import Hub

    opts = options(db, seed=seed, bot_speed=bot_speed, think_ms=think_ms)
    seats = open_sim.get("seats", 4)
    return lambda: Hub.open_sim(opts, kinds=kinds or ["human"] * seats, **open_sim)


def sim_hub_at(
    db: Path, seed: int, pawns: list[list[str]], kinds: list[str] | None = None, **opts: Any
) -> Callable[[], Hub]:
    """A simulator hub (standard, dealt from ``seed``, as many seats as ``pawns`` has)
    whose game starts from ``pawns`` (location texts per seat: N, S, T<i>, H<k>), seat 0
    to play: a capture or a 7 split the tests can make at once."""
    from keezbord.host.session import GameSession
    from keezbord.host.sim.table import SimStore, SimTable, sim_setup
    from keezbord.host.web.hub import Hub

    def make() -> Hub:
        hub_opts = options(db, seed=seed, bot_speed=0.15, think_ms=300, **opts)
        seats = len(pawns)
        setup, info = sim_setup(seats, "standard", seed, kinds or ["human"] * seats)
        setup["position"] = {"seats": seats, "profile": "standard", "turn": 0, "pawns": pawns}
        session = GameSession.start(db, setup)
        store = SimStore(db)
        store.save(session.game, info)
        start = session.state.pos
        table = SimTable(info, seats, "standard", store, session.game, start)
        return Hub(session, hub_opts, table)

    return make


def run_async(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """asyncio.run in a thread of its own (the browser tests' Playwright keeps a loop
    running in the main thread); its result, or its exception raised here."""
    out: list[T] = []
    errors: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(scenario()))
        except BaseException as e:  # handed to the test's thread
            errors.append(e)

    t = threading.Thread(target=main)
    t.start()
    t.join()
    if errors:
        raise errors[0]
    return out[0]


def gpio_hub(db: Path, board: Any) -> Callable[[], Any]:
    """A real board's hub (``run``, 4 seats, no card reader) on ``board`` (a fake GPIO
    chain's), for a live server: the browser tests of tasks on the board."""
    from keezbord.host.web.hub import Hub

    opts = options(db, mode="run")
    setup = {"type": "setup", "seats": 4, "dealer": 3, "card_reader": False}
    return lambda: Hub.open_run(opts, setup, board)


# What a click on a hole of the simulator's drawing asked for, read by board.js from the
# page's state (activate()): a lift, a put-down, a capture (two requests) or nothing.
# Kept before the click so that its effect can be waited for.
_BEFORE_CLICK = """(h) => {
  const k = window.keezbord, s = k.state, lit = s.leds[h];
  if (k.refusedId === undefined) {  // the page's requests refused, by id (once a page)
    k.refusedId = 0;
    k.onMessage.push((m) => {
      if (m.type === "error" && typeof m.id === "number") k.refusedId = Math.max(k.refusedId, m.id);
    });
  }
  const on = s.pawns.some((p) => p.hole === h);
  return { seq: k.seq, version: s.version, held: s.held.length, on,
           capture: on && s.held.length > 0 && (lit === "target" || lit === "hint") };
}"""
_CLICK_DONE = """([h, b]) => {
  const k = window.keezbord, s = k.state;
  if (k.refusedId > b.seq) return true;  // refused (the bots took over): nothing to see
  const on = s.pawns.some((p) => p.hole === h);
  if (s.version <= b.version) return false;
  if (b.capture) return on && s.held.length === b.held;  // the victim up, the mover down
  return on !== b.on;  // lifted, or put down
}"""


def click_hole(page: Any, hole: str, pace_ms: int = 120) -> None:
    """A person's click on ``hole`` of the simulator's drawing, and its effect back on the
    page before the next: board.js reads a click against the page's state (is the hole
    taken, is a pawn in hand), and a test's next click or look must see this one's; a
    fixed pause was too short on a loaded machine. Then ``pace_ms`` more: a hand's pace,
    not a switch's bounce (the referee's, on its own clock)."""
    before = page.evaluate(_BEFORE_CLICK, hole)
    page.click(f".hole[data-hole='{hole}']")
    if page.evaluate("window.keezbord.seq") != before["seq"]:  # something was asked
        page.wait_for_function(_CLICK_DONE, arg=[hole, before])
    page.wait_for_timeout(pace_ms)
