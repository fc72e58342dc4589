"""Why a card has no legal move at all (``no_move_reason``), in Dutch and English."""

from __future__ import annotations

from .cards import ENTER_CARDS, FORWARD_STEPS, SEVEN_STEPS
from .movegen import apply_part, candidates, forward_landings
from .notation import Step
from .position import HOME, NEST, Position, location_hole
from .rule_text import Reason, cap, card_words, move_holes, violation_text
from .text import Text
from .violations import HOME_PASS


def no_move_reason(pos: Position, card: str) -> Reason:
    """Why ``card`` has no legal move for the seat to play."""
    nl_card, en_card = card_words(card)
    seat = pos.controlled_seat(pos.turn)
    on_board = [loc for loc in pos.pawns[seat] if loc != NEST]
    if card not in ENTER_CARDS and not on_board:
        return Reason(
            "no_pawn_out",
            Text(
                f"je hebt geen pion op het bord en met {nl_card} kun je er geen opzetten",
                f"you have no pawn on the board and {en_card} cannot bring one out",
            ),
        )
    if card == "7" and 0 < (most := _seven_steps_playable(pos)) < SEVEN_STEPS:
        # Some steps can be played, not all 7: that is the rule broken, not whatever a
        # walk of all 7 with one pawn would break.
        return _no_move(
            card,
            "seven_total",
            f"de 7 moet helemaal gebruikt worden, 7 stappen; hier kunnen er maar {most} "
            "gespeeld worden",
            f"the 7 must be used in full, 7 steps; only {most} can be played here",
        )
    for cand in candidates(pos, card):
        if cand[2]:
            why = violation_text(cand[2][0], pos, pos.turn)
            return _no_move(card, cand[2][0].code, why.nl, why.en, move_holes(pos, cand))
    if card in ENTER_CARDS and NEST not in pos.pawns[seat]:
        if card == "K" and not pos.profile.king_13:
            return _no_move(
                card,
                "no_move",
                "met de heer zet je alleen een pion op (in deze regels loopt hij geen 13), en er "
                "staat geen pion meer in het startvak",
                "the king only brings a pawn out (under these rules it does not move 13), and "
                "no pawn is left in the nest",
            )
        return _no_move(
            card,
            "no_move",
            "er staat geen pion meer in het startvak en geen pion kan verder",
            "no pawn is left in the nest and none can move on",
        )
    if card == "J":
        return _no_move(
            card,
            "no_move",
            "er staan geen twee pionnen van verschillende kleur op de baan die gewisseld mogen "
            "worden",
            "there are no two pawns of different colours on the track that may be swapped",
        )
    return _home_blocked(pos, card, seat)


def _no_move(card: str, code: str, nl: str, en: str, holes: tuple[str, ...] = ()) -> Reason:
    nl_card, en_card = card_words(card)
    return Reason(
        code,
        Text(
            f"{cap(nl_card)} kan hier niet gespeeld worden: {nl}",
            f"{cap(en_card)} has no legal move here: {en}",
        ),
        holes,
    )


def _home_blocked(pos: Position, card: str, seat: int) -> Reason:
    """No candidate at all: every pawn of the seat stands in its home, and each would go
    past H4 or onto or over another pawn there (a 7: not even one step)."""
    steps = FORWARD_STEPS.get(card, 1)
    homes = {loc - HOME for loc in pos.pawns[seat] if loc > HOME}
    blockers: list[str] = []
    too_far = False
    for slot in sorted(homes):
        if slot + steps > 4:
            too_far = True
            continue
        first = min(s for s in range(slot + 1, slot + steps + 1) if s in homes or s == slot + steps)
        if first in homes:
            name = location_hole(pos.topology, seat, HOME + first).name
            if name not in blockers:
                blockers.append(name)
    if not blockers:
        return _no_move(
            card,
            "no_move",
            "geen pion kan zo ver (het thuishonk heeft maar 4 plaatsen)",
            "no pawn can go that far (the home has only 4 holes)",
        )
    held = ", ".join(blockers)
    past_nl, past_en = (
        (", en het thuishonk heeft maar 4 plaatsen", ", and the home has only 4 holes")
        if too_far
        else ("", "")
    )
    return _no_move(
        card,
        HOME_PASS,
        f"in het thuishonk mag een pion niet op of over een andere pion gaan ({held}){past_nl}",
        f"in the home a pawn may not land on or pass another pawn ({held}){past_en}",
        tuple(blockers),
    )


def _seven_steps_playable(pos: Position) -> int:
    """The most steps of a 7 that legal parts can play (parts judged one after another,
    control judged afresh before each, as the move generator does)."""
    mover = pos.turn

    def most(p: Position, left: int, parts: int, moved: frozenset[tuple[int, int]]) -> int:
        if parts == p.profile.seven_pawns or left == 0:
            return 0
        seat = p.controlled_seat(mover)
        best = 0
        for loc in {loc for loc in p.pawns[seat] if loc != NEST}:
            if (seat, loc) in moved:
                continue
            for k in range(left, 0, -1):
                for dest, _ in forward_landings(p, seat, loc, k):
                    after = apply_part(p, Step(seat, loc, dest))
                    best = max(best, k + most(after, left - k, parts + 1, moved | {(seat, dest)}))
        return best

    return most(pos, SEVEN_STEPS, 0, frozenset())
