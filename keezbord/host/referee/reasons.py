"""What the referee says to the players, in Dutch and English (players are Dutch first).

The fixed sentences, and the ones built from the board (holes, colours, a move), that
more than one handler says or that guide a board back. The rule explanations of an
illegal move are the engine's (engine/explain.py); a ruling's one-off answers (undo,
penalty, overrule, time limit) stay with the ruling (rulings.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from keezbord.engine.text import Text, card_name
from keezbord.engine.topology import SEAT_COLOURS

TAP_CARD_FIRST: Final = Text("leg eerst een kaart op de lezer", "tap a card on the reader first")
NO_CARD_FITS: Final = Text("geen enkele kaart staat deze zet toe", "no card allows this move")
NOT_ONE_MOVE: Final = Text(
    "de pionnen zijn niet verzet zoals één geldige zet dat doet",
    "the pawns were not moved the way one legal move moves them",
)
GAME_OVER: Final = Text("het spel is afgelopen", "the game is over")
SET_UP_FIRST: Final = Text(
    "zet eerst het bord klaar zoals de lampjes aangeven",
    "set the board up first, as the lights show",
)
TWO_CARDS: Final = Text(
    "twee kaarten gespeeld in één beurt: een getoonde kaart is gespeeld; "
    "neem de tweede kaart terug met 'ongedaan maken'",
    "two cards played in one turn: a card shown is a card played; take the "
    "second card back with 'undo'",
)
RESOLVE_FIRST: Final = Text(
    "wijs eerst aan welke zet bedoeld is: til de bedoelde pion op",
    "first show which move was meant: lift the pawn you moved",
)
WHICH_MOVE: Final = Text(
    "meer dan één zet past bij het bord: til de pion op die je bedoelde",
    "more than one move fits the board: lift the pawn you meant",
)


def unknown_card(card: str | None) -> Text:
    return Text(f"onbekende kaart {card!r}", f"unknown card {card!r}")


def unknown_tag(tag: str) -> Text:
    return Text(
        f"onbekende kaart (tag {tag}): leer de kaart eerst aan",
        f"unknown card (tag {tag}): enroll the card first",
    )


def tag_played(card: str, tag: str) -> Text:
    name = card_name(card)
    return Text(
        f"{name.nl} (tag {tag}) is deze deling al gespeeld: een kaart van de aflegstapel telt niet",
        f"{name.en} (tag {tag}) was already played this deal: a card from the discard "
        "pile does not count",
    )


def rank_played(card: str, seats: int) -> Text:
    name = card_name(card)
    return Text(
        f"{name.nl}: alle {seats} van deze soort zijn deze deling al gespeeld",
        f"{name.en}: all {seats} of this rank were already played this deal",
    )


def must_play(card: str) -> Text:
    name = card_name(card)
    return Text(
        f"{name.nl} kan gespeeld worden: je moet spelen", f"{name.en} can be played: you must play"
    )


def missing(holes: Sequence[str]) -> Text:
    where = ", ".join(holes)
    if len(holes) == 1:
        return Text(
            f"een pion ontbreekt: zet hem terug op {where}",
            f"a pawn is missing: put it back on {where}",
        )
    return Text(
        f"er ontbreken pionnen: zet ze terug op {where}",
        f"pawns are missing: put them back on {where}",
    )


def knocked(move: str, back: Sequence[tuple[int, str, str]]) -> Text:
    """A legal move stood on the board when a pawn was knocked off its hole: the move
    counts; ``back`` is (seat, from, to) for each pawn to put back."""
    nl = " en ".join(
        f"zet de {SEAT_COLOURS[s].nl_adj} pion van {a} terug op {b}" for s, a, b in back
    )
    en = " and ".join(f"put the {SEAT_COLOURS[s].en} pawn from {a} back on {b}" for s, a, b in back)
    return Text(f"de zet {move} telt: {nl}", f"the move {move} counts: {en}")


def not_part_of(move: str, pawns: int) -> Text:
    """Pawns of the seat that just moved, moved after its move was taken."""
    if pawns == 1:
        return Text(
            f"je zet {move} is al genomen; deze pion hoort er niet bij",
            f"your move {move} was taken; this pawn is not part of it",
        )
    return Text(
        f"je zet {move} is al genomen; deze pionnen horen er niet bij",
        f"your move {move} was taken; these pawns are not part of it",
    )


def swapped_or_put_back(where: Sequence[tuple[int, str]], swap: bool) -> Text:
    """The question after a board put back that the switches cannot tell from a swap
    (or from its own colours): ``where`` is (seat, hole) as before the move. Taken as put
    back; a swap meant is made again with both pawns in hand at once (what the switches
    read as a swap), put down swapped, from where they stand if they stand swapped."""
    nl = ", ".join(f"{SEAT_COLOURS[s].nl} op {h}" for s, h in where)
    en = ", ".join(f"{SEAT_COLOURS[s].en} on {h}" for s, h in where)
    if swap:
        return Text(
            f"gewisseld of teruggezet? het bord telt ze als teruggezet ({nl}); bedoelde je "
            "de wissel, til dan beide pionnen tegelijk op en zet ze gewisseld neer",
            f"swapped or put back? the board counts them as put back ({en}); if you meant "
            "the swap, lift both pawns at once and put them down swapped",
        )
    return Text(
        f"zet de pionnen zoals voor de zet ({nl}): het bord ziet niet welke pion waar staat",
        f"set the pawns as before the move ({en}): the board cannot see which pawn stands where",
    )


def wrong_nest(seat: int, nest: int) -> Text:
    """A pawn put in the nest of another colour (a captured pawn goes to its own)."""
    c, n = SEAT_COLOURS[seat], SEAT_COLOURS[nest]
    return Text(
        f"een {c.nl_adj} pion staat in het nest van {n.nl}: een pion gaat alleen naar zijn "
        "eigen nest",
        f"a {c.en} pawn stands in {n.en}'s nest: a pawn only goes to its own nest",
    )
