"""Cards, numbers and holes as people say them at the table, Dutch and English
(docs/voice.md argues the choice): "T16" is a label of the drawing, at the table people
find a hole from the coloured start holes, so T19 on a 4-seat board is "drie na de start
van blauw" / "three past blue's start". The words are the engine's (colours, RULES.md's
vocabulary: nest "startvak", home "honk"); only how they are spoken is here."""

from __future__ import annotations

import re
from typing import Final

from keezbord.engine.notation import Move, Step, Swap, parse_move
from keezbord.engine.position import FRESH, HOME, NEST
from keezbord.engine.text import Text
from keezbord.engine.topology import SEAT_COLOURS, Topology

_NL: Final = (
    "nul",
    "één",  # the number, with its accents (written Dutch; "een" would be the article)
    "twee",
    "drie",
    "vier",
    "vijf",
    "zes",
    "zeven",
    "acht",
    "negen",
    "tien",
    "elf",
    "twaalf",
    "dertien",
    "veertien",
    "vijftien",
    "zestien",
    "zeventien",
    "achttien",
    "negentien",
    "twintig",
)
_EN: Final = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)

# "Rood speelt een zeven", "Red plays a seven": the card with its article.
_FACES: Final = {"A": ("aas", "ace"), "K": ("heer", "king"), "Q": ("vrouw", "queen")}
_FACES_J: Final = ("boer", "jack")


def number(n: int) -> Text:
    """A small count in words (espeak-ng and people alike); digits beyond twenty."""
    if 0 <= n < len(_NL):
        return Text(_NL[n], _EN[n])
    return Text(str(n), str(n))


def card(rank: str) -> Text:
    """ "een zeven" / "a seven", "een aas" / "an ace"."""
    if rank == "J":
        nl, en = _FACES_J
    elif rank in _FACES:
        nl, en = _FACES[rank]
    else:
        word = number(int(rank)) if rank.isdigit() else Text(rank, rank)
        nl, en = word.nl, word.en
    return Text(f"een {nl}", f"{'an' if en[0] in 'aeiou' else 'a'} {en}")


def colour(seat: int) -> Text:
    c = SEAT_COLOURS[seat]
    return Text(c.nl, c.en)


def track_hole(topo: Topology, i: int) -> Text:
    """A track hole from the nearest start hole: behind it up to half a segment, else
    before the next one."""
    owner, k = divmod(i, topo.segment)
    here = colour(owner)
    if k == 0:
        return Text(f"de start van {here.nl}", f"{here.en}'s start")
    if k <= topo.segment // 2:
        n = number(k)
        return Text(f"{n.nl} na de start van {here.nl}", f"{n.en} past {here.en}'s start")
    nxt, n = colour((owner + 1) % topo.seats), number(topo.segment - k)
    return Text(f"{n.nl} voor de start van {nxt.nl}", f"{n.en} before {nxt.en}'s start")


def hole(topo: Topology, name: str) -> Text:
    """A hole's name (T19, N1.2, H1.3) as it is spoken; an unknown name as it is."""
    try:
        h = topo.parse_hole(name)
    except ValueError:
        return Text(name, name)
    if h.kind == "T":
        return track_hole(topo, h.index)
    assert h.seat is not None
    who = colour(h.seat)
    if h.kind == "N":
        return Text(f"het startvak van {who.nl}", f"{who.en}'s nest")
    n = number(h.index)
    return Text(f"plek {n.nl} in het honk van {who.nl}", f"hole {n.en} of {who.en}'s home")


def hole_names(topo: Topology, names: list[str]) -> dict[str, dict[str, str]]:
    """Each hole as it is spoken, both languages (the drawing's text alternatives)."""
    return {n: hole(topo, n).as_dict() for n in names}


def steps(topo: Topology, part: Step) -> int | None:
    """How far a pawn went forward (None out of the nest)."""
    start = topo.start(part.seat)
    frm = start if part.frm == FRESH else part.frm
    to = start if part.to == FRESH else part.to
    if frm == NEST:
        return None
    if frm > HOME:
        return to - frm
    if to > HOME:
        return (start - frm) % topo.ring + (to - HOME)
    return (to - frm) % topo.ring


def move(topo: Topology, mv: Move) -> Text:
    """The card and what it did, short: "een zeven: vijf en twee", "een heer en zet een
    pion op", "een boer en wisselt met blauw", "een vier, achteruit"."""
    c = card(mv.card)
    swaps = [p for p in mv.parts if isinstance(p, Swap)]
    walks = [p for p in mv.parts if isinstance(p, Step)]
    if swaps:
        other = colour(swaps[0].seat_b)
        return Text(f"{c.nl} en wisselt met {other.nl}", f"{c.en} and swaps with {other.en}")
    if any(p.frm == NEST for p in walks):
        return Text(f"{c.nl} en zet een pion op", f"{c.en} and brings a pawn out")
    if mv.card == "4" and walks and (steps(topo, walks[0]) or 0) > 4:
        return Text(f"{c.nl}, achteruit", f"{c.en}, backwards")
    if len(walks) > 1:
        counts = [number(steps(topo, p) or 0) for p in walks]
        return Text(
            f"{c.nl}: {and_list([n.nl for n in counts], 'en')}",
            f"{c.en}: {and_list([n.en for n in counts], 'and')}",
        )
    return c


def and_list(words: list[str], conj: str) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conj} {words[-1]}"


# A move's notation ("7 1:S-T23 1:T23-T25") and hole names inside a reason's words.
_MOVE_RE: Final = re.compile(r"\b(?:10|[2-9AKQJ]) \d:[A-Z0-9.<>:-]+(?: \d:[A-Z0-9.<>:-]+)*")
_TO: Final = {"nl": " naar ", "en": " to "}
_HOLE_RE: Final = re.compile(r"\b(?:T\d+|[NH]\d\.\d)\b")


def words(topo: Topology, text: Text) -> Text:
    """A reason of the referee's as it is spoken: move notations and hole names in words
    (the page shows the same reason with the names of the drawing)."""

    def say(s: str, lang: str) -> str:
        def one_move(m: re.Match[str]) -> str:
            try:
                return move(topo, parse_move(m.group(0), topo)).get(lang)
            except ValueError:
                return m.group(0)

        s = _MOVE_RE.sub(one_move, s).replace(" → ", _TO[lang])  # describe.py's arrow
        return _HOLE_RE.sub(lambda m: hole(topo, m.group(0)).get(lang), s)

    return Text(say(text.nl, "nl"), say(text.en, "en"))
