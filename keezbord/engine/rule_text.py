"""Each broken rule said to a player, in Dutch and English: the sentences ``explain`` and
``no_move_reason`` give, and the small helpers that fill them in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .movegen import Candidate
from .notation import Step
from .position import Position, location_hole
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
        object.__setattr__(self, "text", Text(cap(self.text.nl), cap(self.text.en)))

    def get(self, lang: str) -> str:
        return self.text.get(lang)


def colour_adj(seat: int) -> tuple[str, str]:
    """The colour as an adjective: ("blauwe", "blue")."""
    c = SEAT_COLOURS[seat]
    return c.nl_adj, c.en


def card_words(card: str) -> tuple[str, str]:
    t = card_name(card)
    return t.nl, t.en


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def low(s: str) -> str:
    return s[:1].lower() + s[1:]


# Each rule code's sentence (Dutch, English). Filled in from the violation's facts:
# {hole}, the pawn's colour {knl}/{ken} (the seat named in the facts, else the mover's),
# the rule profile {prof}. NOT_YOUR_PAWN depends on the position: _not_your_pawn.
RULE_TEXT: Final[dict[str, tuple[str, str]]] = {
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
        "een pas opgezette pion moet eerst van zijn startplek af voordat hij naar huis mag",
        "a pawn just brought out must first leave its start hole before it can come home",
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
    if v.code == ENTER_OWN_START and v.get("seat", mover) != mover:
        return _enter_other_start(v, pos, mover)
    template = RULE_TEXT.get(v.code)
    if template is None:
        return Text(f"regel {v.code} overtreden", f"rule {v.code} broken")
    knl, ken = colour_adj(v.get("seat", mover))
    prof = _PROFILE_SHOWN.get(pos.profile.name, pos.profile.name)
    facts = {"hole": v.get("hole", ""), "knl": knl, "ken": ken, "prof": prof}
    return Text(template[0].format_map(facts), template[1].format_map(facts))


def _not_your_pawn(pos: Position, mover: int) -> Text:
    ctl = pos.controlled_seat(mover)
    cnl, cen = colour_adj(ctl)
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


def _enter_other_start(v: Violation, pos: Position, mover: int) -> Text:
    """ENTER_OWN_START for a pawn of another seat than the mover's: the pawn on that start
    hole is that seat's own, not the mover's (issue: the partner's start, all own home)."""
    seat, hole = v.get("seat"), v.get("hole", "")
    knl, ken = colour_adj(seat)
    if seat == pos.partner(mover):
        return Text(
            f"je mag geen pion opzetten zolang er een {knl} pion van je partner op zijn "
            f"startplek {hole} staat",
            f"you cannot bring out a pawn while your partner's {ken} pawn stands on their start "
            f"hole {hole}",
        )
    return Text(
        f"een {knl} pion kan niet opgezet worden zolang er een {knl} pion op zijn startplek "
        f"{hole} staat",
        f"a {ken} pawn cannot be brought out while a {ken} pawn stands on its start hole {hole}",
    )


def join_texts(texts: list[Text]) -> Text:
    return Text(cap("; ".join(t.nl for t in texts)), cap("; ".join(t.en for t in texts)))


def move_holes(pos: Position, cand: Candidate) -> tuple[str, ...]:
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
