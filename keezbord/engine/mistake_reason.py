"""Why a labelled decision was worse than the better move, in words a player reads (the
review after the game, issue 40 item 14): the hint's own reasons (advice.gains_and_risks),
what the better move does that the move made did not, what the move made risked that the
better one did not, and how often the games played out lost a pawn after each. Always
something in words: when the board shows no difference at once, it says so."""

from __future__ import annotations

from collections.abc import Sequence

from .advice import gains_and_risks
from .notation import Move
from .position import Position
from .text import Text, card_name

# A difference in the rate of games that lost a pawn worth saying (the hint's own).
LOST_RATE_GAP = 0.1


def mistake_reason(
    pos: Position,
    hand: Sequence[str],
    played: Move,
    best: Move,
    played_lost: float,
    best_lost: float,
) -> Text:
    """``played_lost``/``best_lost``: the share of games played out in which the team lost
    a pawn after each (the judge's)."""
    gains, risks = gains_and_risks(pos, best, hand)
    my_gains, my_risks = gains_and_risks(pos, played, hand)
    nl: list[str] = []
    en: list[str] = []
    said = {g.en for g in my_gains}
    missed = [g for g in gains if g.en not in said]
    if missed:
        card = card_name(best.card)
        nl.append(f"De betere zet, {card.nl}: {'; '.join(g.nl for g in missed)}.")
        en.append(f"The better move, {card.en}: {'; '.join(g.en for g in missed)}.")
    worse = [r for r in my_risks if r.en not in {x.en for x in risks}]
    if worse:
        card = card_name(played.card)
        nl.append(f"Jouw zet, {card.nl}: {'; '.join(r.nl for r in worse)}.")
        en.append(f"Your move, {card.en}: {'; '.join(r.en for r in worse)}.")
    if played_lost - best_lost >= LOST_RATE_GAP:
        nl.append(
            f"In de uitgespeelde partijen verloor je team daarna een pion in {_pct(played_lost)}"
            f" na jouw zet, in {_pct(best_lost)} na de betere."
        )
        en.append(
            f"In the games played out your team lost a pawn in {_pct(played_lost)} after your "
            f"move, in {_pct(best_lost)} after the better one."
        )
    if not nl:
        nl.append(
            "Op het bord is het verschil niet meteen te zien: het bleek pas in de partijen "
            "die vanaf hier zijn uitgespeeld."
        )
        en.append(
            "The board shows no difference at once: it showed only in the games played out "
            "from here."
        )
    return Text(" ".join(nl), " ".join(en))


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"
