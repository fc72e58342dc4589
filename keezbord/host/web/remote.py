"""A remote seat's requests, and the referee's links (issue 28, docs/remote.md).

A remote seat is played from a phone far away through its own link (roles.py,
``Role.REMOTE``): it sees its own hand (a virtual deal: the board deals every seat's
cards, sim/table.py), asks for the moves of a card (``moves``), chooses one (``play``),
which the board lights for the people at the table to carry out (the referee's ``Lit``
input: it accepts only that move), shows its hand when no card can be played
(``discard``) and passes a card to its partner (``give``). Only for its own seat and only
on its turn (``roles.remote_may``).

The referee's link hands the links out (``links``: the tokens, the page builds the
addresses), makes one new (``renew``: the old link stops at once) and gives a seat to a
remote player or takes it back to the table (``seat_at``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from keezbord.engine.describe import describe_move
from keezbord.engine.movegen import has_legal_move, is_legal, successor_positions
from keezbord.engine.notation import InvalidMoveError, Move, parse_move
from keezbord.engine.position import Position
from keezbord.engine.text import Text
from keezbord.host.events import Discard
from keezbord.host.roles import Access, Role, remote_may
from keezbord.host.sim.table import HUMAN, REMOTE, TABLE, SimInfo, deal_dealer

from .hub_error import HubError
from .marks import from_to

if TYPE_CHECKING:
    from .hub import Hub

REMOTE_ONLY: Final = frozenset({"moves", "play"})
LINKS: Final = frozenset({"links", "renew", "seat_at"})

ONLY_REMOTE = Text(
    "alleen de link van een stoel op afstand kiest zo een zet",
    "only a remote seat's link chooses a move this way",
)
NOT_REMOTE_NOW = Text(
    "deze stoel speelt niet (meer) op afstand", "this seat does not play remotely (any more)"
)
NOT_YOUR_TURN = Text("je bent niet aan de beurt", "it is not your turn")
NO_CARD = Text("die kaart heb je niet", "you do not hold that card")
NOT_LEGAL = Text("die zet kan niet met die kaart", "that move is not legal with that card")
LIT_ALREADY = Text(
    "je zet wordt al uitgevoerd aan het bord", "your move is already being carried out"
)
CAN_PLAY = Text(
    "je kunt nog een kaart spelen: je hand laten zien mag pas als geen kaart kan",
    "you can still play a card: a hand is shown only when no card can be played",
)
NO_DEAL = Text(
    "dit spel heeft geen virtuele deling: begin een nieuw spel met stoelen op afstand",
    "this game has no virtual deal: start a new game with remote seats",
)
BAD_SEAT = Text("kies een stoel", "choose a seat")


def handle_remote(hub: Hub, msg: Mapping[str, Any], access: Access) -> dict[str, Any] | None:
    """One message from a remote seat's link (or a ``moves``/``play`` from another)."""
    kind = str(msg.get("type"))
    if access.role is not Role.REMOTE or access.seat is None:
        raise HubError(ONLY_REMOTE)
    sim, seat = hub.sim, access.seat
    if sim is None or sim.where(seat) != REMOTE:
        raise HubError(NOT_REMOTE_NOW)
    st = hub.session.state
    if not remote_may(access, kind, to_play=st.seat, giving=tuple(sim.waiting)):
        raise HubError(NOT_YOUR_TURN)
    if kind == "give":
        give(hub, seat, msg.get("card"))
        return None
    hand = sim.hand(seat)
    pos = st.pos
    if kind == "discard":
        if any(has_legal_move(pos, c) for c in hand):
            raise HubError(CAN_PLAY)
        hub.feed(Discard(hub.now(), tuple(hand)))
        return None
    card = msg.get("card")
    if kind == "moves":
        if not isinstance(card, str) or card not in hand:
            raise HubError(NO_CARD)
        return {"type": "moves", "card": card, "moves": moves_of(pos, card)}
    if kind != "play":
        raise HubError(NOT_YOUR_TURN)
    # "play": the move the board lights for the people at the table.
    if hub.away.lit_move() is not None:
        raise HubError(LIT_ALREADY)
    move = _move(pos, msg.get("move"))
    if move.card not in hand:
        raise HubError(NO_CARD)
    if not _legal(pos, move):
        raise HubError(NOT_LEGAL)
    hub.away.light(move)
    return None


def _move(pos: Position, text: object) -> Move:
    if not isinstance(text, str):
        raise HubError(NOT_LEGAL)
    try:
        return parse_move(text, pos.topology)
    except (InvalidMoveError, ValueError):
        raise HubError(NOT_LEGAL) from None


def _legal(pos: Position, move: Move) -> bool:
    try:
        return is_legal(pos, move.card, move)
    except ValueError:
        return False


def give(hub: Hub, seat: object, card: object) -> None:
    """``seat`` passes ``card`` to its partner (partner exchange), from the players' link
    (a seat at the table) or the seat's own remote link."""
    sim = hub.sim
    assert sim is not None
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(card, str):
        raise HubError(Text("kies een kaart", "choose a card"))
    try:
        sim.give(seat, card)
    except ValueError as e:
        raise HubError(
            Text(
                "die kaart kan nu niet doorgegeven worden", f"that card cannot be passed now ({e})"
            )
        ) from None
    hub.log.exchanges(sim, hub.session.state)  # the exchange may be made now
    hub.away.gave(seat, card)


def moves_of(pos: Position, card: str) -> list[dict[str, Any]]:
    """The legal moves of ``card`` for the seat to play, one per resulting board (a 7
    split whose parts come in either order is one move), with their words and holes."""
    out = []
    for move in successor_positions(pos, card).values():
        frm, to, _ = from_to(pos, move)
        out.append(
            {"move": str(move), "text": describe_move(pos, move).as_dict(), "from": frm, "to": to}
        )
    return sorted(out, key=lambda m: (m["from"], m["to"], m["move"]))


# -- the referee's links ---------------------------------------------------------------


def handle_links(hub: Hub, msg: Mapping[str, Any]) -> dict[str, Any] | None:
    """``links``, ``renew`` and ``seat_at`` from the referee's link."""
    kind = msg.get("type")
    tokens = hub.opts.tokens
    if tokens is None:  # a hub built by hand in a test: there are no links
        raise HubError(Text("dit bord heeft geen links", "this board has no links"))
    if kind == "links":
        return {
            "type": "links",
            "base": hub.opts.public_url,
            "player": tokens.player,
            "referee": tokens.referee,
            "seats": {str(s): t for s, t in tokens.seats},
        }
    seat = msg.get("seat")
    seats = hub.session.state.pos.seats
    if kind == "renew":
        which = msg.get("link")
        if which in ("player", "referee"):
            hub.away.set_tokens(tokens.renewed(which))
        elif which == "seat" and tokens.seat(seat if isinstance(seat, int) else -1):
            assert isinstance(seat, int)
            hub.away.set_tokens(tokens.with_seat(seat))
        else:
            raise HubError(
                Text(
                    "welke link? (spelers, scheidsrechter, stoel)",
                    "which link? (player, referee, seat)",
                )
            )
        return handle_links(hub, {"type": "links"})
    # seat_at: give a seat of a virtual deal to a remote player, or take it back.
    where = msg.get("where")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise HubError(BAD_SEAT)
    sim = hub.sim
    if sim is None or hub.opts.mode != "run" or not sim.info.where:
        raise HubError(NO_DEAL)
    if where not in (REMOTE, TABLE) or sim.where(seat) not in (REMOTE, TABLE):
        raise HubError(
            Text(
                "een stoel speelt aan tafel of op afstand", "a seat plays at the table or remotely"
            )
        )
    if hub.away.lit_move() is not None and hub.session.state.seat == seat:
        raise HubError(LIT_ALREADY)
    sim.info.where[seat] = where
    if hub.store is not None:
        hub.store.save(hub.session.game, sim.info)
    hub.away.set_tokens(tokens.with_seat(seat) if where == REMOTE else tokens.without_seat(seat))
    hub.away.replan()
    return handle_links(hub, {"type": "links"})


# -- a new game with seats far away ------------------------------------------------------


def seats_far(hub: Hub, msg: Mapping[str, Any], seats: int) -> tuple[int, ...]:
    """A new game's remote seats: ``remote`` of the referee's ``new_game`` (a real
    board), else those of the game now (a virtual deal stays one)."""
    if hub.opts.mode != "run":
        return ()
    far = msg.get("remote")
    if far is None:
        sim = hub.sim
        return () if sim is None else tuple(s for s in range(seats) if sim.where(s) == REMOTE)
    if not isinstance(far, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats for s in far
    ):
        raise HubError(
            Text(f"stoelen op afstand: 0 tot {seats - 1}", f"remote seats: 0 to {seats - 1}")
        )
    if len(set(far)) >= seats:
        raise HubError(
            Text("minstens één stoel speelt aan tafel", "at least one seat plays at the table")
        )
    return tuple(sorted(set(far)))


def virtual_setup(
    hub: Hub, setup: dict[str, Any], msg: Mapping[str, Any], far: tuple[int, ...], teams: Any
) -> tuple[dict[str, Any], SimInfo]:
    """A real board's new game with remote seats: every hand dealt by the board (cards
    by name, the reader unused), hints off unless the referee asks for them, each remote
    seat a link of its own."""
    seats = int(setup.get("seats", hub.session.state.pos.seats))
    setup.pop("tags", None)
    setup["card_reader"] = True
    if "hints" not in msg:
        setup["hints"] = "off"
    where = [REMOTE if s in far else TABLE for s in range(seats)]
    info = SimInfo(random.randrange(2**31), [HUMAN] * seats, teams, {}, where)
    tokens = hub.opts.tokens
    if tokens is not None:
        hub.away.set_tokens(tokens.for_seats(far))
    setup["dealer"] = deal_dealer(seats, str(setup.get("profile", "standard")), info)
    return setup, info
