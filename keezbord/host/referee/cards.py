"""Cards: a tap checked (names matched whole, tags as hex in either case, the cards of the
deal, a card with no legal move), card discipline (a card shown is a card played: a second
card in a turn is flagged until undone), and the search's hint for the tapped card (hints
"full")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from keezbord.engine.cards import RANKS
from keezbord.engine.explain import no_move_reason
from keezbord.engine.notation import InvalidMoveError, parse_move
from keezbord.engine.search import Known
from keezbord.host.events import CardTap

from . import reasons
from .recognize import expectation
from .state import Advice, AdviceWanted, Decision, Effect, Flag, RefereeState, canonical_tag


def admit(state: RefereeState, ev: CardTap, t: int, effects: list[Effect]) -> str | None:
    """The card tapped (by name or by its enrolled tag), or None when it is refused
    before any move on the board is taken: not a card, or the game is over."""
    if ev.tag is not None and ev.card is None:
        card = state.config.tags.get(canonical_tag(ev.tag))
        problem = None if card is not None else reasons.unknown_tag(ev.tag)
    else:
        card = ev.card
        problem = None
    if problem is None and card not in RANKS:
        # Names as FORMATS writes them, whole: "K\n" or "k" is no king.
        problem = reasons.unknown_card(card)
    if problem is None and state.over:
        problem = reasons.GAME_OVER
    if problem is not None:
        effects.append(Decision(t, "card_rejected", _ident(ev, card), problem))
        return None
    return card


def _ident(ev: CardTap, card: str | None) -> dict[str, Any]:
    ident: dict[str, Any] = {"card": card if card in RANKS else ev.card}  # as read
    if ev.tag is not None:
        ident["tag"] = ev.tag
    return ident


def tap(state: RefereeState, ev: CardTap, card: str, t: int, effects: list[Effect]) -> RefereeState:
    """The card admitted, once a move already on the board was taken: the turn's card,
    or refused (the deal's cards, no legal move, a question pending), or a second card."""
    ident = _ident(ev, card)
    if state.winner is not None:
        effects.append(Decision(t, "card_rejected", ident, reasons.GAME_OVER))
        return state
    if state.ambiguous:
        effects.append(Decision(t, "card_rejected", ident, reasons.RESOLVE_FIRST))
        return state
    pos = state.pos
    tag = None if ev.tag is None else canonical_tag(ev.tag)
    if state.card is not None and (
        tag == state.card_tag if tag is not None else state.card_tag is None and card == state.card
    ):
        return state  # the turn's own card read again
    if tag is not None and any(played == tag for _, played in state.cards_played):
        effects.append(Decision(t, "card_rejected", ident, reasons.tag_played(card, tag)))
        return state
    if sum(1 for c, _ in state.cards_played if c == card) >= pos.seats:
        effects.append(Decision(t, "card_rejected", ident, reasons.rank_played(card, pos.seats)))
        return state
    if not expectation(pos, card).legal:
        why = no_move_reason(pos, card).text
        effects.append(Decision(t, "card_rejected", {**ident, "seat": state.seat}, why))
        return state
    if state.card is not None:
        # A card shown is a card played: a second card in the turn is flagged, the
        # first still holds; undo takes the second back (issue 11, item 8). Its own
        # decision type (an extension): FORMATS.md's ``illegal`` means a wrong board.
        if state.second_card is not None:
            effects.append(Decision(t, "card_rejected", ident, reasons.TWO_CARDS))
            return state
        flag = Flag(reasons.TWO_CARDS, (), (), ())
        data = {"seat": state.seat, "cards": [state.card, card]}
        effects.append(Decision(t, "second_card", data, reasons.TWO_CARDS))
        return replace(state, second_card=card, flag=flag, missing=(), since=t, stage=0)
    state = replace(
        state,
        card=card,
        card_tag=tag,
        since=t,
        stage=0,
        outcome="none",
        cards_played=(*state.cards_played, (card, tag)),
    )
    if state.config.hints == "full" and state.seat is not None:
        # The search's move for this card (the referee knows no other card of the hand):
        # asked of the host, which searches off the event loop and feeds the answer back
        # as an Advice input (seeded by the move number: the same game, the same hint).
        effects.append(
            AdviceWanted(
                t,
                state.seat,
                card,
                len(state.history),
                pos.replace(turn=state.seat),
                known_cards(state),
            )
        )
    return state


def advice(state: RefereeState, ev: Advice, t: int, effects: list[Effect]) -> RefereeState:
    """The host's answer to AdviceWanted: shown (decision "hint", LED role "hint") if the
    turn and card it was asked for still stand and it is a legal move of that card;
    otherwise ignored (the player was quicker than the search)."""
    if (
        state.config.hints != "full"
        or state.seat != ev.seat
        or state.card != ev.card
        or len(state.history) != ev.n
        or state.hint
        or state.second_card is not None
    ):
        return state
    try:
        move = parse_move(ev.move, state.pos.topology)
    except InvalidMoveError:
        return state
    if move.card != ev.card or move not in expectation(state.pos, ev.card).legal:
        return state
    names = set(state.pos.topology.hole_names)
    holes = tuple(h for h in ev.holes if h in names)
    data = {"seat": ev.seat, "move": ev.move, "holes": list(holes), "win": round(ev.win, 3)}
    effects.append(Decision(t, "hint", data, ev.reason))
    return replace(state, hint=holes)


def known_cards(state: RefereeState) -> Known:
    """What the referee knows of the cards: those played and shown since the shuffle,
    and how many each seat holds."""
    seen = cards_seen(state, len(state.history), state.table.shuffle_no)
    return Known(seen, state.table.cards_left)


def cards_seen(state: RefereeState, moves: int, shuffle: int) -> tuple[str, ...]:
    """The cards every seat has seen in shuffle ``shuffle`` before the history's move
    number ``moves``: those played, and the hands shown on discards (as the game's
    analysis counts them, host/analysis/record.py)."""
    played = tuple(r.card for r in state.history[:moves] if r.table_before.shuffle_no == shuffle)
    shown = tuple(
        c for h in state.shown if h.shuffle == shuffle and h.moves <= moves for c in h.cards
    )
    return played + shown
