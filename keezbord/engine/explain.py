"""Why an observed position does not follow from one legal move of a card, in words a
player understands (Dutch and English). This is what settles disputes at the table.

The rules' sentences are in rule_text.py; why a card has no move at all, in no_move.py.

``explain(before, card, after)`` returns None when ``after`` is reached by a legal move,
else a ``Reason``. The search goes from specific to general:

1. the move generator, run permissively, finds a move of the card that reaches ``after``
   but breaks rules: those rules are the reason ("you cannot pass the blue pawn on its
   start hole T16");
2. the same, letting the player touch any seat's pawns ("not your pawn");
3. a structural comparison of the two positions: pawns that moved the wrong number of
   steps or the wrong way, several pawns moved with a one-pawn card, a captured pawn not
   put back in its nest, and so on;
4. failing all that, a plain "does not follow", with a legal move of the card as example.

``no_move_reason(pos, card)`` says why a card has no legal move at all.
"""

from __future__ import annotations

from collections import Counter

from .cards import ENTER_CARDS, FORWARD_STEPS, KING_STEPS, SEVEN_STEPS
from .describe import describe_move
from .movegen import Candidate, candidates, successors
from .no_move import no_move_reason
from .pawn_walk import backward_steps, forward_steps, home_rule, wrong_steps
from .position import FRESH, HOME, NEST, Position, location_hole
from .rule_text import (
    RULE_TEXT,
    Reason,
    cap,
    card_words,
    colour_adj,
    join_texts,
    low,
    move_holes,
    violation_text,
)
from .text import Text
from .topology import SEAT_COLOURS
from .violations import BACK_INTO_HOME, JACK_NOT_OWN, NOT_YOUR_PAWN, Violation

__all__ = ["Reason", "explain", "no_move_reason", "violation_text"]


# -- the search --------------------------------------------------------------------------


def explain(before: Position, card: str, after: Position) -> Reason | None:
    """None if ``after`` follows from ``before`` by one legal move of ``card`` (by the
    seat to play); else why not."""
    reason = _explain(before, card, after)
    if reason is None or before.topology != after.topology:
        return reason
    # Only another seat's pawns moved: say whose they are and who is to play (a rule of
    # that other seat's pawn, such as its own start hole, would only mislead).
    moved = [s for s in range(before.seats) if before.pawns[s] != after.pawns[s]]
    ctl = before.controlled_seat(before.turn)
    if moved and ctl not in moved and reason.code != JACK_NOT_OWN:
        return Reason(NOT_YOUR_PAWN, _someone_elses(before, moved), reason.holes)
    return reason


def _someone_elses(pos: Position, moved: list[int]) -> Text:
    mover = pos.turn
    ctl = pos.controlled_seat(mover)
    owners = [SEAT_COLOURS[s] for s in moved]
    own_nl, own_en = " en ".join(c.nl for c in owners), " and ".join(c.en for c in owners)
    who = SEAT_COLOURS[mover]
    cnl, cen = colour_adj(ctl)
    whose = (
        Text(f"de eigen ({cnl}) pionnen", f"its own ({cen}) pawns")
        if ctl == mover
        else Text(f"de {cnl} pionnen van de partner", f"its partner's {cen} pawns")
    )
    one = len(moved) == 1
    return Text(
        f"{'die pion is' if one else 'die pionnen zijn'} van {own_nl}; {who.nl} is aan zet "
        f"en verplaatst alleen {whose.nl}",
        f"{'that pawn is' if one else 'those pawns are'} {own_en}'s; {who.en} is to play "
        f"and moves only {whose.en}",
    )


def _explain(before: Position, card: str, after: Position) -> Reason | None:
    if before.topology != after.topology or before.profile != after.profile:
        return Reason(
            "other_board",
            Text(
                "de twee standen horen niet bij hetzelfde bord en dezelfde regels",
                "the two positions are not of the same board and rules",
            ),
        )
    target = after.pawns
    if any(p.pawns == target for _, p in successors(before, card)):
        return None
    mover = before.turn
    if target == before.pawns:
        if not any(True for _ in successors(before, card)):
            return no_move_reason(before, card)
        return Reason(
            "nothing_moved",
            Text(
                f"er is niets verplaatst, maar {card_words(card)[0]} moet gespeeld worden",
                f"nothing moved, but {card_words(card)[1]} must be played",
            ),
        )
    best = _best(candidates(before, card, mover), target)
    if best is not None:
        return Reason(
            best[2][0].code,
            join_texts([violation_text(v, before, mover) for v in best[2]]),
            move_holes(before, best),
        )
    everyone = tuple(range(before.seats))
    best = _best(candidates(before, card, mover, control=everyone), target)
    if best is not None:
        viol = (Violation.of(NOT_YOUR_PAWN), *best[2])
        return Reason(
            NOT_YOUR_PAWN,
            join_texts([violation_text(v, before, mover) for v in viol]),
            move_holes(before, best),
        )
    return _structural(before, card, after)


def _best(cands: object, target: tuple[tuple[int, ...], ...]) -> Candidate | None:
    best: Candidate | None = None
    for cand in cands:  # type: ignore[attr-defined]
        if cand[1].pawns == target and (best is None or len(cand[2]) < len(best[2])):
            best = cand
    return best


# -- structural comparison --------------------------------------------------------------


def _structural(before: Position, card: str, after: Position) -> Reason:
    topo = before.topology
    nl_card, en_card = card_words(card)
    movers: list[tuple[int, int, int]] = []  # (seat, from, to), to != NEST
    sent_home: list[tuple[int, int]] = []  # (seat, from) pawns that went to the nest
    for seat in range(before.seats):
        gone = Counter(before.pawns[seat]) - Counter(after.pawns[seat])
        came = Counter(after.pawns[seat]) - Counter(before.pawns[seat])
        g, c = sorted(gone.elements()), sorted(came.elements())
        for loc in list(c):
            if loc == NEST and g:
                # Pair nest arrivals with the track pawns that left (captured or knocked).
                c.remove(loc)
                sent_home.append((seat, g.pop()))
        # Pair what is left in location order (the closest guess for several pawns).
        movers.extend((seat, a, b) for a, b in zip(g, c, strict=False))
    landed = {topo.start(s) if to == FRESH else to for s, _, to in movers}
    for seat, frm in sent_home:
        at = topo.start(seat) if frm == FRESH else frm
        if at not in landed:
            hole = location_hole(topo, seat, frm).name
            knl, ken = colour_adj(seat)
            return Reason(
                "sent_home",
                Text(
                    f"de {knl} pion van {hole} is naar zijn startvak gegaan zonder geslagen te "
                    "worden: zet hem terug",
                    f"the {ken} pawn from {hole} went to its nest without being captured: "
                    "put it back",
                ),
                (hole,),
            )
    holes = tuple(location_hole(topo, s, to).name for s, _, to in movers)
    swapped = len(movers) == 2 and movers[0][1] == movers[1][2] and movers[1][1] == movers[0][2]
    if swapped and card != "J":
        return Reason(
            "jack_only",
            Text("alleen met de boer wissel je twee pionnen", "only the jack swaps two pawns"),
            holes,
        )
    # A captured pawn put somewhere other than its nest shows as a mover from a hole
    # another mover landed on.
    for seat, frm, to in movers:
        if frm in landed and any(frm != f2 and frm == t2 for s2, f2, t2 in movers if s2 != seat):
            knl, ken = colour_adj(seat)
            hole = location_hole(topo, seat, to).name
            return Reason(
                "victim_not_in_nest",
                Text(
                    f"een geslagen pion gaat terug naar zijn eigen startvak: zet de {knl} pion van "
                    f"{hole} in zijn startvak",
                    f"a captured pawn goes back to its own nest: put the {ken} pawn from {hole} in "
                    "its nest",
                ),
                (hole,),
            )
    if card == "J":
        return Reason(
            "jack_track",
            Text(
                "de boer wisselt twee pionnen op de baan, van verschillende kleur, die niet op hun "
                "startplek staan na het opzetten",
                "the jack swaps two pawns on the track, of different colours, neither of them "
                "fresh on its start hole",
            ),
            holes,
        )
    entering = [m for m in movers if m[1] == NEST]
    if entering:
        seat, _, to = entering[0]
        if card not in ENTER_CARDS:
            return Reason(
                "enter_card",
                Text(
                    "alleen met een aas of een heer zet je een pion op",
                    "only an ace or a king brings a pawn onto the board",
                ),
                holes,
            )
        if to != FRESH:
            start = f"T{topo.start(seat)}"
            return Reason(
                "enter_start",
                Text(
                    f"een opgezette pion komt op zijn eigen startplek {start}",
                    f"a pawn brought out goes onto its own start hole {start}",
                ),
                (*holes, start),
            )
    home = home_rule(before, card, movers, holes)
    if home is not None:
        return home
    if card == "7":
        limit = before.profile.seven_pawns
        if len(movers) > limit:
            return Reason(
                "seven_pawns",
                Text(
                    f"de 7 mag over hoogstens {limit} pionnen verdeeld worden",
                    f"the 7 can be split over at most {limit} pawns",
                ),
                holes,
            )
        steps = [forward_steps(before, s, f, t) for s, f, t in movers]
        if None in steps:
            return Reason(
                "forward_only",
                Text(
                    "de 7 gaat vooruit; alleen de 4 gaat achteruit",
                    "the 7 moves forward; only the 4 goes backward",
                ),
                holes,
            )
        total = sum(s for s in steps if s is not None)
        if total != SEVEN_STEPS:
            return Reason(
                "seven_total",
                Text(
                    f"de 7 moet helemaal gebruikt worden, 7 stappen; "
                    f"deze pionnen liepen er {total}",
                    f"the 7 must be used in full, 7 steps; these pawns moved {total}",
                ),
                holes,
            )
    elif len(movers) > 1:
        return Reason(
            "one_pawn",
            Text(
                f"met {nl_card} verplaats je één pion; er zijn er {len(movers)} verplaatst",
                f"{cap(en_card)} moves one pawn; {len(movers)} pawns moved",
            ),
            holes,
        )
    elif len(movers) == 1:
        seat, frm, to = movers[0]
        if card == "4":
            back = backward_steps(before, frm, to, seat)
            if to > HOME:
                return Reason(BACK_INTO_HOME, Text(*RULE_TEXT[BACK_INTO_HOME]), holes)
            fwd4 = forward_steps(before, seat, frm, to)
            if back is None or (fwd4 is not None and fwd4 <= back):
                return Reason(
                    "four_backward",
                    Text(
                        "met de 4 ga je 4 stappen achteruit", "the 4 moves a pawn 4 steps backward"
                    ),
                    holes,
                )
            return wrong_steps(card, 4, back, holes, backward=True)
        want = FORWARD_STEPS.get(card, 1 if card == "A" else KING_STEPS)
        fwd = forward_steps(before, seat, frm, to)
        back = backward_steps(before, frm, to, seat)
        if fwd is not None and back is not None and back < fwd:
            fwd = None  # it went backward
        if card == "K" and not before.profile.king_13:
            return Reason(
                "king_enter_only",
                Text(
                    "met de heer zet je alleen een pion op (in deze regels loopt hij geen 13)",
                    "the king only brings a pawn out (under these rules it does not move 13)",
                ),
                holes,
            )
        if fwd is None:
            return Reason(
                "forward_only",
                Text(
                    f"{nl_card} gaat vooruit; alleen de 4 gaat achteruit",
                    f"{en_card} moves forward; only the 4 goes backward",
                ),
                holes,
            )
        if fwd != want:
            return wrong_steps(card, want, fwd, holes, backward=False)
    example = next(successors(before, card), None)
    if example is None:
        return no_move_reason(before, card)
    # The example in words, not in notation: notation names cards by English letters.
    mv = describe_move(before, example[0])
    return Reason(
        "not_reachable",
        Text(
            f"deze stand volgt niet uit één zet met {nl_card}; wel bijvoorbeeld: {low(mv.nl)}",
            f"this position does not follow from one move of {en_card}; this one would: "
            f"{low(mv.en)}",
        ),
        holes,
    )
