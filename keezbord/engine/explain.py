"""Why an observed position does not follow from one legal move of a card.

``explain(before, card, after)`` returns None when ``after`` is reached by a legal move,
else a ``Reason`` that names the rule broken, in Dutch and English.
"""

from __future__ import annotations

from dataclasses import dataclass

from .position import Position
from .text import Text


@dataclass(frozen=True, slots=True)
class Reason:
    code: str
    text: Text
    holes: tuple[str, ...] = ()  # physical holes the reason is about, for the LEDs

    def get(self, lang: str) -> str:
        return self.text.get(lang)


def explain(before: Position, card: str, after: Position) -> Reason | None:
    from .movegen import successors

    for _, p in successors(before, card):
        if p.pawns == after.pawns:
            return None
    return Reason("not_reachable", Text(
        f"deze stand volgt niet uit één zet met {card}",
        f"this position does not follow from one move with {card}"))
