"""Why an observed position does not follow from one legal move of a card, in words a
player understands (Dutch and English). This is what settles disputes at the table.

Over 400 lines: every rule's sentence in both languages, and the search that picks one.

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
from dataclasses import dataclass
from typing import Final

from .cards import ENTER_CARDS, FORWARD_STEPS, KING_STEPS, SEVEN_STEPS
from .describe import describe_move
from .movegen import Candidate, candidates, successors
from .notation import Step
from .position import FRESH, HOME, NEST, Position, location_hole
from .text import Text, card_name
from .topology import SEAT_COLOURS
from .violations import (
    BACK_IN_HOME,
    BACK_INTO_HOME,
    BLOCKADE_LAND,
    BLOCKADE_PASS,
    CAPTURE_PARTNER,
    ENTER_OWN_START,
    FOUR_BACK_START,
    FRESH_HOME,
    HOME_PASS,
    JACK_BLOCKADE,
    JACK_NOT_OWN,
    MUST_ENTER,
    NOT_YOUR_PAWN,
    PASS_OWN,
    Violation,
)


@dataclass(frozen=True, slots=True)
class Reason:
    code: str
    text: Text
    holes: tuple[str, ...] = ()  # physical holes the reason is about, for the LEDs

    def __post_init__(self) -> None:
        # Reasons are shown as sentences.
        object.__setattr__(self, "text", Text(_cap(self.text.nl), _cap(self.text.en)))

    def get(self, lang: str) -> str:
        return self.text.get(lang)


def _colour(seat: int) -> tuple[str, str]:
    """The colour as an adjective: ("blauwe", "blue")."""
    c = SEAT_COLOURS[seat]
    return c.nl_adj, c.en


def _card(card: str) -> tuple[str, str]:
    t = card_name(card)
    return t.nl, t.en


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _low(s: str) -> str:
    return s[:1].lower() + s[1:]


# Each rule code's sentence (Dutch, English). Filled in from the violation's facts:
# {hole}, the pawn's colour {knl}/{ken} (the seat named in the facts, else the mover's),
# the rule profile {prof}. NOT_YOUR_PAWN depends on the position: _not_your_pawn.
_RULE_TEXT: Final[dict[str, tuple[str, str]]] = {
    BLOCKADE_PASS: (
        "je mag niet voorbij de {knl} pion op zijn startplek {hole}",
        "you cannot pass the {ken} pawn on its start hole {hole}",
    ),
    BLOCKADE_LAND: (
        "je mag niet op de {knl} pion op zijn startplek {hole} komen: "
        "een pas opgezette pion is daar veilig",
        "you cannot land on the {ken} pawn on its start hole {hole}: "
        "a pawn just brought out is safe there",
    ),
    PASS_OWN: (
        "volgens de {prof}-regels mag een pion niet over een pion van zijn eigen kleur heen "
        "({hole})",
        "under the {prof} rules a pawn may not pass a pawn of its own colour ({hole})",
    ),
    CAPTURE_PARTNER: (
        "volgens de {prof}-regels mag je je partner niet slaan (de {knl} pion op {hole})",
        "under the {prof} rules you may not capture your partner (the {ken} pawn on {hole})",
    ),
    MUST_ENTER: (
        "een pion die zijn eigen startplek bereikt moet het thuishonk in: geen extra ronde",
        "a pawn that reaches its own start hole must go into its home: no extra lap",
    ),
    HOME_PASS: (
        "in het thuishonk mag een pion niet over een andere pion springen ({hole})",
        "in the home a pawn may not jump over another pawn ({hole})",
    ),
    FRESH_HOME: (
        "een pas opgezette pion moet eerst het bord rond voordat hij naar huis mag",
        "a pawn just brought out must go round the board before it can come home",
    ),
    BACK_INTO_HOME: (
        "de 4 mag niet achteruit het thuishonk in",
        "the 4 cannot go backward into the home",
    ),
    BACK_IN_HOME: (
        "een pion in het thuishonk mag niet meer achteruit",
        "a pawn in its home cannot move backward",
    ),
    FOUR_BACK_START: (
        "volgens de {prof}-regels mag een pion alleen achteruit langs zijn startplek als hij "
        "erop staat",
        "under the {prof} rules a pawn may only go back past its start hole when it stands on it",
    ),
    ENTER_OWN_START: (
        "je mag geen pion opzetten zolang er een eigen pion op je startplek {hole} staat",
        "you cannot bring out a pawn while your own pawn stands on your start hole {hole}",
    ),
    JACK_BLOCKADE: (
        "met de boer mag je de {knl} pion op zijn startplek {hole} niet wisselen: "
        "die is daar veilig",
        "the jack cannot swap the {ken} pawn on its start hole {hole}: it is safe there",
    ),
    JACK_NOT_OWN: (
        "met de boer moet een van de twee pionnen een pion zijn waarmee je speelt",
        "with the jack one of the two pawns must be one you play with",
    ),
}


# A profile as players write it ("Under the NK rules", not "nk").
_PROFILE_SHOWN = {"nk": "NK", "keezspel": "Keez-spel"}


def violation_text(v: Violation, pos: Position, mover: int) -> Text:
    """One broken rule, said to the player."""
    if v.code == NOT_YOUR_PAWN:
        return _not_your_pawn(pos, mover)
    template = _RULE_TEXT.get(v.code)
    if template is None:
        return Text(f"regel {v.code} overtreden", f"rule {v.code} broken")
    knl, ken = _colour(v.get("seat", mover))
    prof = _PROFILE_SHOWN.get(pos.profile.name, pos.profile.name)
    facts = {"hole": v.get("hole", ""), "knl": knl, "ken": ken, "prof": prof}
    return Text(template[0].format_map(facts), template[1].format_map(facts))


def _not_your_pawn(pos: Position, mover: int) -> Text:
    ctl = pos.controlled_seat(mover)
    cnl, cen = _colour(ctl)
    if ctl != mover:
        return Text(
            f"al je pionnen zijn thuis: je speelt nu met de {cnl} pionnen van je partner",
            f"all your pawns are home: you now play with your partner's {cen} pawns",
        )
    extra = (
        Text(
            "; die van je partner pas als al jouw pionnen thuis zijn",
            "; your partner's only once all yours are home",
        )
        if pos.partner(mover) is not None
        else Text("", "")
    )
    return Text(
        f"je mag alleen je eigen ({cnl}) pionnen verplaatsen{extra.nl}",
        f"you may only move your own ({cen}) pawns{extra.en}",
    )


def _join(texts: list[Text]) -> Text:
    return Text(_cap("; ".join(t.nl for t in texts)), _cap("; ".join(t.en for t in texts)))


def _move_holes(pos: Position, cand: Candidate) -> tuple[str, ...]:
    holes: list[str] = []
    for part in cand[0].parts:
        if isinstance(part, Step):
            holes.append(location_hole(pos.topology, part.seat, part.to).name)
        else:
            holes += [f"T{part.a}", f"T{part.b}"]
    for v in cand[2]:
        h = v.get("hole")
        if h and h not in holes:
            holes.append(h)
    return tuple(holes)


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
    cnl, cen = _colour(ctl)
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
                f"er is niets verplaatst, maar {_card(card)[0]} moet gespeeld worden",
                f"nothing moved, but {_card(card)[1]} must be played",
            ),
        )
    best = _best(candidates(before, card, mover), target)
    if best is not None:
        return Reason(
            best[2][0].code,
            _join([violation_text(v, before, mover) for v in best[2]]),
            _move_holes(before, best),
        )
    everyone = tuple(range(before.seats))
    best = _best(candidates(before, card, mover, control=everyone), target)
    if best is not None:
        viol = (Violation.of(NOT_YOUR_PAWN), *best[2])
        return Reason(
            NOT_YOUR_PAWN,
            _join([violation_text(v, before, mover) for v in viol]),
            _move_holes(before, best),
        )
    return _structural(before, card, after)


def _best(cands: object, target: tuple[tuple[int, ...], ...]) -> Candidate | None:
    best: Candidate | None = None
    for cand in cands:  # type: ignore[attr-defined]
        if cand[1].pawns == target and (best is None or len(cand[2]) < len(best[2])):
            best = cand
    return best


def no_move_reason(pos: Position, card: str) -> Reason:
    """Why ``card`` has no legal move for the seat to play."""
    nl_card, en_card = _card(card)
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
    for cand in candidates(pos, card):
        if cand[2]:
            why = violation_text(cand[2][0], pos, pos.turn)
            return Reason(
                cand[2][0].code,
                Text(
                    f"{_cap(nl_card)} kan hier niet gespeeld worden: {why.nl}",
                    f"{_cap(en_card)} has no legal move here: {why.en}",
                ),
                _move_holes(pos, cand),
            )
    if card in ENTER_CARDS and NEST not in pos.pawns[seat]:
        return Reason(
            "no_move",
            Text(
                f"{_cap(nl_card)} kan hier niet gespeeld worden: er staat geen pion meer in het "
                "startvak en geen pion kan verder",
                f"{_cap(en_card)} has no legal move here: no pawn is left in the nest and none "
                "can move on",
            ),
        )
    if card == "J":
        return Reason(
            "no_move",
            Text(
                "de boer kan hier niet gespeeld worden: er staan geen twee pionnen van "
                "verschillende "
                "kleur op de baan die gewisseld mogen worden",
                "the jack has no legal move here: there are no two pawns of different colours on "
                "the track that may be swapped",
            ),
        )
    return Reason(
        "no_move",
        Text(
            f"{_cap(nl_card)} kan hier niet gespeeld worden: geen pion kan zo ver (het thuishonk "
            "heeft maar 4 plaatsen)",
            f"{_cap(en_card)} has no legal move here: no pawn can go that far (the home has only "
            "4 holes)",
        ),
    )


# -- structural comparison --------------------------------------------------------------


def _forward_steps(pos: Position, seat: int, frm: int, to: int) -> int | None:
    """Steps forward along the seat's path from frm to to (through its start into its
    home), or None if ``to`` is not ahead of ``frm``."""
    topo = pos.topology
    start = topo.start(seat)
    f = start if frm == FRESH else frm
    t = start if to == FRESH else to
    if f > HOME:
        return t - f if t > f else None
    if t > HOME:
        return (start - f) % topo.ring + (t - HOME) + (topo.ring if frm == FRESH else 0)
    if f == NEST or t == NEST:
        return None
    return (t - f) % topo.ring or None


def _backward_steps(pos: Position, frm: int, to: int, seat: int) -> int | None:
    topo = pos.topology
    f = topo.start(seat) if frm == FRESH else frm
    if not (0 <= f < HOME and 0 <= to < HOME):
        return None
    return (f - to) % topo.ring or None


def _structural(before: Position, card: str, after: Position) -> Reason:
    topo = before.topology
    nl_card, en_card = _card(card)
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
            knl, ken = _colour(seat)
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
            knl, ken = _colour(seat)
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
        steps = [_forward_steps(before, s, f, t) for s, f, t in movers]
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
                f"{_cap(en_card)} moves one pawn; {len(movers)} pawns moved",
            ),
            holes,
        )
    elif len(movers) == 1:
        seat, frm, to = movers[0]
        if card == "4":
            back = _backward_steps(before, frm, to, seat)
            if to > HOME:
                return Reason(BACK_INTO_HOME, Text(*_RULE_TEXT[BACK_INTO_HOME]), holes)
            fwd4 = _forward_steps(before, seat, frm, to)
            if back is None or (fwd4 is not None and fwd4 <= back):
                return Reason(
                    "four_backward",
                    Text(
                        "met de 4 ga je 4 stappen achteruit", "the 4 moves a pawn 4 steps backward"
                    ),
                    holes,
                )
            return _wrong_steps(card, 4, back, holes, backward=True)
        want = FORWARD_STEPS.get(card, 1 if card == "A" else KING_STEPS)
        fwd = _forward_steps(before, seat, frm, to)
        back = _backward_steps(before, frm, to, seat)
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
            return _wrong_steps(card, want, fwd, holes, backward=False)
    example = next(successors(before, card), None)
    if example is None:
        return no_move_reason(before, card)
    # The example in words, not in notation: notation names cards by English letters.
    mv = describe_move(before, example[0])
    return Reason(
        "not_reachable",
        Text(
            f"deze stand volgt niet uit één zet met {nl_card}; wel bijvoorbeeld: {_low(mv.nl)}",
            f"this position does not follow from one move of {en_card}; this one would: "
            f"{_low(mv.en)}",
        ),
        holes,
    )


def _wrong_steps(card: str, want: int, got: int, holes: tuple[str, ...], backward: bool) -> Reason:
    nl_card, en_card = _card(card)
    way_nl, way_en = ("achteruit", "backward") if backward else ("", "")
    return Reason(
        "wrong_steps",
        Text(
            " ".join(f"met {nl_card} gaat een pion precies {want} stappen {way_nl}".split())
            + f"; deze ging er {got}",
            " ".join(f"{_cap(en_card)} moves a pawn exactly {want} steps {way_en}".split())
            + f"; this one went {got}",
        ),
        holes,
    )
