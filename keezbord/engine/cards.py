"""Cards: ranks, what each does, and the deck for a seat count."""

from __future__ import annotations

from typing import Final

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Cards that move one pawn a fixed number of steps forward (the A and, under king_13,
# the K also do, besides entering; see movegen).
FORWARD_STEPS: Final = {"2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "Q": 12}
ENTER_CARDS: Final = frozenset({"A", "K"})
BACK_STEPS: Final = 4
SEVEN_STEPS: Final = 7
KING_STEPS: Final = 13
ROUND_SIZES: Final = (5, 4, 4)

_ALIASES: Final = {
    "a": "A",
    "ace": "A",
    "aas": "A",
    "1": "A",
    "j": "J",
    "jack": "J",
    "boer": "J",
    "b": "J",
    "11": "J",
    "q": "Q",
    "queen": "Q",
    "vrouw": "Q",
    "v": "Q",
    "12": "Q",
    "k": "K",
    "king": "K",
    "heer": "K",
    "h": "K",
    "13": "K",
}


class UnknownCardError(ValueError):
    """A card name that is not one of RANKS."""


def parse_card(text: str) -> str:
    """Normalise a card name (``"k"``, ``"boer"``, ``"10"``) to its rank in RANKS. The
    whole text must be the name: no surrounding whitespace (``"K\\n"`` is not a card)."""
    if not isinstance(text, str):
        raise UnknownCardError(f"not a card: {text!r}")
    t = text
    if t in RANKS:
        return t
    rank = _ALIASES.get(t.lower())
    if rank is None:
        raise UnknownCardError(f"unknown card {text!r} (cards are {' '.join(RANKS)})")
    return rank


def deck(seats: int) -> list[str]:
    """The deck for this many seats: 13 cards a seat, so `seats` of every rank
    (half a deck for 2, one deck for 4, two decks for 8), unshuffled."""
    return [rank for rank in RANKS for _ in range(seats)]
