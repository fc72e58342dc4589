"""Seats played away from the board (issue 28): remote seats (a phone, through this
board's page: remote.py) and the seats of a linked board (host/club/linked_board.py).

Such a seat's move is chosen elsewhere; this board lights it for the people at the table
(the referee's ``Lit`` input, which accepts only that move) and they carry it out. While
the seat to play is away and its move has not come, or while a linked board is out of
step, the referee holds (its ``Hold`` input): it accepts no move made at the table and
guides a board that was touched back. ``Away`` is the hub's policy for both, asked after
every input (``decided``) and whenever the link's state changes (``replan``); the page's
``remote`` part of the state is its ``view``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from keezbord.engine.describe import colour, describe_move
from keezbord.engine.notation import Move
from keezbord.engine.text import Text
from keezbord.host.referee import Hold, Lit
from keezbord.host.roles import Tokens
from keezbord.host.sim.table import REMOTE, TABLE

if TYPE_CHECKING:
    from .hub import Hub


class Peer(Protocol):
    """A linked board as the hub sees it (host/club/linked_board.py)."""

    def in_step(self) -> bool:
        """Connected and nothing to send or to copy: this board's seats may play."""

    def view(self) -> dict[str, Any]: ...

    def gave(self, seat: int, card: str) -> None:
        """A seat at this board passed its partner a card (partner exchange)."""

    def new_game(self, msg: Mapping[str, Any]) -> Text | None:
        """The referee's new game (the host of record's only: the refusal otherwise)."""


WAIT_OTHER_BOARD = Text(
    "wacht op het andere bord: zet niets tot het weer bij is",
    "waiting for the other board: move nothing until it is in step",
)


def plays_elsewhere(seat: int, where: str) -> Text:
    who = colour(seat)
    if where == REMOTE:
        return Text(
            f"{who.nl} speelt op afstand: wacht op die zet, het bord licht hem op",
            f"{who.en} plays remotely: wait for that move, the board will light it",
        )
    return Text(
        f"{who.nl} speelt aan het andere bord ({where}): wacht, het bord licht de zet op",
        f"{who.en} plays at the other board ({where}): wait, the board will light the move",
    )


class Away:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.peer: Peer | None = None  # a linked board (club/linked_board.py)
        # Run when the hub's loop starts and stops (a linked board's link).
        self.on_start: list[Callable[[], None]] = []
        self.on_stop: list[Callable[[], None]] = []
        hub.views["remote"] = self.view

    # -- the referee -----------------------------------------------------------------

    def lit_move(self) -> Move | None:
        """The move lit for the people at the table, until the referee accepts it."""
        return self.hub.session.state.lit

    def light(self, move: Move) -> None:
        """Light ``move`` (of the seat to play) for the people at the table."""
        self.hub.feed(Lit(self.hub.now(), str(move)))

    def hold_wanted(self) -> Text | None:
        """Why the table must not play now (None: it may)."""
        hub = self.hub
        st = hub.session.state
        sim = hub.sim
        if st.over or sim is None:
            return None
        seat = st.seat
        if seat is not None and sim.where(seat) != TABLE and self.lit_move() is None:
            return plays_elsewhere(seat, sim.where(seat))
        if self.peer is not None and not self.peer.in_step():
            return WAIT_OTHER_BOARD
        return None

    def replan(self) -> None:
        """Hold the referee, or let it go, as ``hold_wanted`` says (a journalled input
        only when that changes)."""
        want = self.hold_wanted()
        if want != self.hub.session.state.hold:
            self.hub.feed(Hold(self.hub.now(), want))

    def set_tokens(self, tokens: Tokens) -> None:
        """New links (one made new, a seat given away or taken back): kept, then every
        page whose token no longer gives what it gave is closed (app.py)."""
        hub = self.hub
        if hub.opts.token_store is not None:
            hub.opts.token_store.save(tokens)
        hub.opts.tokens = tokens
        hub.changed()

    def decided(self, records: list[dict[str, Any]]) -> None:
        self.replan()

    def gave(self, seat: int, card: str) -> None:
        sim = self.hub.sim
        if self.peer is not None and sim is not None and sim.where(seat) == TABLE:
            self.peer.gave(seat, card)
        self.hub.changed()

    # -- the page --------------------------------------------------------------------

    def view(self) -> dict[str, Any] | None:
        """``remote`` in the page's state: where each seat plays, the move lit for the
        table, why the table waits, and the linked board's state."""
        hub = self.hub
        sim = hub.sim
        if (sim is None or not sim.info.where) and self.peer is None:
            return None
        st = hub.session.state
        lit = None
        lit_move = self.lit_move()
        hold = st.hold
        if lit_move is not None and st.seat is not None:
            lit = {
                "seat": st.seat,
                "card": lit_move.card,
                "move": str(lit_move),
                "text": describe_move(st.pos, lit_move).as_dict(),
            }
        # (A guest before the host's game came: the link alone, every seat at the table.)
        return {
            "seats": [TABLE if sim is None else sim.where(s) for s in range(st.pos.seats)],
            "lit": lit,
            "hold": None if hold is None else hold.as_dict(),
            "link": None if self.peer is None else self.peer.view(),
        }
