"""Player-facing text in Dutch and English.

Everything a player reads comes in both languages; Dutch first. A ``Text`` holds both
renderings; callers pick one with ``text.get(lang)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Lang = Literal["nl", "en"]
LANGS: Final[tuple[Lang, ...]] = ("nl", "en")


def check_lang(lang: str) -> Lang:
    if lang == "nl":
        return "nl"
    if lang == "en":
        return "en"
    raise ValueError(f"unknown language {lang!r} (nl or en)")


@dataclass(frozen=True, slots=True)
class Text:
    nl: str
    en: str

    def get(self, lang: str) -> str:
        return self.en if lang == "en" else self.nl

    def as_dict(self) -> dict[str, str]:
        return {"nl": self.nl, "en": self.en}


# A card's name in running text. RULES.md's words: aas, heer, vrouw, boer (the English
# text names them ace, king, queen, jack); number cards by their number.
_CARD_NAMES: Final[dict[str, Text]] = {
    "A": Text("de aas", "the ace"),
    "K": Text("de heer", "the king"),
    "Q": Text("de vrouw", "the queen"),
    "J": Text("de boer", "the jack"),
    **{r: Text(f"de {r}", f"the {r}") for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")},
}


def card_name(card: str) -> Text:
    """A card as running text names it: "de vrouw" / "the queen", "de 7" / "the 7" (what
    is no card, as it was written). The one place player text gets a card's name from;
    ``card_label`` is the short label a hand shows."""
    return _CARD_NAMES.get(card) or Text(card, card)


# The card as a deck prints it: a Dutch deck's king, queen and jack are H, V and B
# (heer, vrouw, boer), as the Dutch rule texts write them.
_DUTCH_FACES: Final[dict[str, str]] = {"K": "H", "Q": "V", "J": "B"}


def card_label(card: str) -> Text:
    """A card's short label in both languages: "V" / "Q" for the queen."""
    return Text(_DUTCH_FACES.get(card, card), card)
