"""What the referee says, made from its decisions (FORMATS.md "Referee decisions": the
records the journal and the page get) and the engine's explanations they carry: the
reason of an illegal move, a question, a missing pawn is the referee's own ``Text`` (the
page shows the same one); only the framing ("Dat mag niet: ...", "Zet hem terug op ...")
and the names spoken (spoken.py) are added here. One source of wording (docs/voice.md).

An ``Utterance`` says who may hear it: ``seat`` None is the whole table (the Pi's
speaker, every page); a seat's number is that player's own device only (a hint names a
card of a hidden hand). ``dispute`` marks what the level "disputes" keeps: illegal moves,
questions, restore guidance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from keezbord.engine.notation import parse_move
from keezbord.engine.text import Text
from keezbord.engine.topology import Topology

from . import spoken

Level = Literal["off", "disputes", "all"]
LEVELS: Final[tuple[Level, ...]] = ("off", "disputes", "all")


@dataclass(frozen=True, slots=True)
class Utterance:
    kind: str  # a newer one of the same kind replaces a stale one (queue.py)
    text: Text
    dispute: bool = False
    seat: int | None = None  # None: the whole table; else that seat's own device only

    def heard_at(self, level: str) -> bool:
        return level == "all" or (level == "disputes" and self.dispute)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text.as_dict(),
            "dispute": self.dispute,
            "seat": self.seat,
        }


def topology_of(position: Mapping[str, Any]) -> Topology:
    return Topology(int(position["seats"]), int(position.get("segment", 16)))


def _sentence(s: str) -> str:
    s = s.strip()
    if not s:
        return s
    s = s[0].upper() + s[1:]
    return s if s[-1] in ".?!" else s + "."


def _join(*parts: Text) -> Text:
    return Text(" ".join(_sentence(p.nl) for p in parts), " ".join(_sentence(p.en) for p in parts))


def _count(pawns: Sequence[str], prefix: str) -> int:
    return sum(1 for p in pawns if p.startswith(prefix))


def _pawns(n: int, who: Text) -> Text:
    if n == 1:
        return Text(f"een pion van {who.nl}", f"a {who.en} pawn")
    k = spoken.number(n)
    return Text(f"{k.nl} pionnen van {who.nl}", f"{k.en} {who.en} pawns")


def _move(rec: Mapping[str, Any], before: Mapping[str, Any] | None) -> list[Utterance]:
    after = rec["position"]
    topo = topology_of(after)
    who = spoken.colour(int(rec["seat"]))
    try:
        what = spoken.move(topo, parse_move(str(rec["move"]), topo))
    except ValueError:
        what = Text(str(rec["move"]), str(rec["move"]))
    said = [Text(f"{who.nl} speelt {what.nl}", f"{who.en} plays {what.en}")]
    if before is not None:
        for seat, (was, now) in enumerate(zip(before["pawns"], after["pawns"], strict=False)):
            them = spoken.colour(seat)
            knocked = _count(now, "N") - _count(was, "N")
            if knocked > 0:
                p = _pawns(knocked, them)
                verb = ("is", "is") if knocked == 1 else ("zijn", "are")
                said.append(
                    Text(f"{p.nl} {verb[0]} geslagen", f"{p.en} {verb[1]} knocked back to the nest")
                )
            home = _count(now, "H") - _count(was, "H")
            if home > 0:
                p = _pawns(home, them)
                verb = ("is", "is") if home == 1 else ("zijn", "are")
                said.append(Text(f"{p.nl} {verb[0]} thuis", f"{p.en} {verb[1]} home"))
    return [Utterance("move", _join(*said))]


def _what_to_do(topo: Topology, pairs: Sequence[Sequence[str | None]]) -> Text:
    back = [p for p in pairs if p[1] is not None]
    if len(back) == 1 and len(pairs) == 1:
        where = spoken.hole(topo, str(back[0][1]))
        if back[0][0] is None:
            return Text(f"zet de pion op {where.nl}", f"put the pawn on {where.en}")
        return Text(f"zet hem terug op {where.nl}", f"put it back on {where.en}")
    return Text(
        "zet de pionnen terug waar het bord licht geeft",
        "put the pawns back where the board lights up",
    )


# A game's opening deal and each later round's: said alike, named apart.
_DEALS = (("opening", Text("nieuw spel", "new game")), ("deal", Text("nieuwe ronde", "new deal")))


def _deal(deal: Mapping[str, Any], who: Text, what: Text) -> Text:
    dealer, n = spoken.colour(int(deal["dealer"])), spoken.number(int(deal["cards"]))
    return _join(
        Text(
            f"{what.nl}: {dealer.nl} deelt {n.nl} kaarten",
            f"{what.en}: {dealer.en} deals {n.en} cards",
        ),
        Text(f"{who.nl} begint", f"{who.en} starts"),
    )


def _reason(rec: Mapping[str, Any], topo: Topology) -> Text:
    r = rec.get("reason") or {}
    return spoken.words(topo, Text(str(r.get("nl", "")), str(r.get("en", ""))))


def phrases(
    rec: Mapping[str, Any], topo: Topology, before: Mapping[str, Any] | None = None
) -> list[Utterance]:
    """What is said for one decision record (``to_record``); ``before``: the position's
    dict before it (a move's knocked pawns and pawns home are told from the two)."""
    kind = rec.get("type")
    seat = rec.get("seat")
    who = spoken.colour(seat) if isinstance(seat, int) else None
    if kind == "move":
        return _move(rec, before)
    if kind == "turn" and who is not None:
        for key, what in _DEALS:
            if isinstance(rec.get(key), Mapping):
                return [Utterance("turn", _deal(rec[key], who, what))]
    if kind == "discard" and who is not None:
        if rec.get("ok", True):
            return [
                Utterance(
                    "discard",
                    _join(
                        Text(
                            f"{who.nl} kan niet spelen en legt af",
                            f"{who.en} cannot play and discards",
                        )
                    ),
                )
            ]
        return [
            Utterance(
                "board",
                _join(Text("afleggen gaat niet", "cannot discard"), _reason(rec, topo)),
                True,
            )
        ]
    if kind in ("illegal", "second_card"):
        said = _said("dat mag niet", "that is not allowed", _reason(rec, topo))
        # A second card's reason says to take the card back: no pawn to put back.
        todo = () if kind == "second_card" else (_what_to_do(topo, rec.get("restore") or ()),)
        return [Utterance("board", _join(said, *todo), True)]
    if kind in ("ambiguous", "missing", "setup_wrong"):
        return [Utterance("board", _join(_reason(rec, topo)), True)]
    if kind == "resolved":
        return [Utterance("board", Text("Het bord klopt weer.", "The board is right again."), True)]
    if kind == "card_rejected":
        return [
            Utterance(
                "card", _join(_said("kaart geweigerd", "card refused", _reason(rec, topo))), True
            )
        ]
    if kind == "undo" and rec.get("ok"):
        return [Utterance("undo", Text("Zet teruggenomen.", "Move taken back."))]
    if kind == "win":
        seats = [spoken.colour(int(s)) for s in rec.get("seats", ())]
        nl = spoken.and_list([c.nl for c in seats], "en")
        en = spoken.and_list([c.en for c in seats], "and")
        verb = ("wint", "wins") if len(seats) == 1 else ("winnen", "win")
        return [
            Utterance(
                "win",
                Text(
                    f"{_sentence(nl)[:-1]} {verb[0]} het spel!",
                    f"{_sentence(en)[:-1]} {verb[1]} the game!",
                ),
            )
        ]
    if kind == "hint" and isinstance(seat, int):
        # A hint names a card of the seat's hidden hand: its own device only.
        return [Utterance("hint", _join(_said("hint", "hint", _reason(rec, topo))), False, seat)]
    if kind in ("setup_task", "setup_done", "penalty", "overrule", "time_limit", "lit") and rec.get(
        "reason"
    ):
        dispute = kind == "lit" and not rec.get("ok", True)
        return [Utterance(kind, _join(_reason(rec, topo)), dispute)]
    return []


def whose_turn(seat: int) -> Utterance:
    """The turn said when the move list does not imply it (narrator.py)."""
    who = spoken.colour(seat)
    return Utterance("turn", _join(Text(f"{who.nl} is aan de beurt", f"{who.en} to play")))


def coach_phrase(remark: Mapping[str, Any], topo: Topology) -> Utterance:
    """The coach's remark (web/coach.py) for its seat's own device: it may name a card
    of the hidden hand (``hidden``, narrator.py, says whether the table may hear it)."""
    text = spoken.words(topo, Text(remark["text"]["nl"], remark["text"]["en"]))
    return Utterance("coach", _join(_said("coach", "coach", text)), False, int(remark["seat"]))


def hint_phrase(kind: str, text: Text, topo: Topology) -> Utterance:
    """A hint the page shows to the whole table (a puzzle's: its hand is on the page for
    everyone), said as a seat's hint is: "Tip: ..." / "Hint: ..."."""
    return Utterance(kind, _join(_said("tip", "hint", spoken.words(topo, text))))


def _said(nl: str, en: str, why: Text) -> Text:
    if not why.nl and not why.en:
        return Text(nl, en)
    return Text(f"{nl}: {_lower(why.nl)}", f"{en}: {_lower(why.en)}")


def _lower(s: str) -> str:
    """A reason's first word lowered after a colon ("Met de 6" -> "met de 6"), not a
    name in capitals."""
    return s[0].lower() + s[1:] if len(s) > 1 and s[1].islower() else s
