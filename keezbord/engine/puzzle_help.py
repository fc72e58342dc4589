"""What a puzzle's solver is told (issue 40, item 13), as lichess tells it: after a
wrong answer the verdict and its reason, but not the answer; on request a hint (the
card, then the pawn too); then, on request, the answer. A solve says whether it was at
the first try: the first answer, with no hint or answer asked before it."""

from __future__ import annotations

from typing import Final

from .describe import colour, describe_move
from .judge import LABEL_WORDS, label_of
from .notation import Step
from .position import FRESH, HOME, NEST, Position
from .puzzles import Puzzle, Verdict, solution_reason
from .text import Text, card_name

HINTS: Final = 2  # the card, then the pawn too


def wrong_text(v: Verdict) -> Text:
    """A wrong answer's verdict and its reason (the win chances), naming no better move."""
    mine, best = v.played_win or 0.0, v.solution_win or 0.0
    gap = max(0.0, best - mine)
    label = label_of(gap)
    tag_nl = f" ({LABEL_WORDS[label].nl}, -{_pct(gap)})" if label else ""
    tag_en = f" ({LABEL_WORDS[label].en}, -{_pct(gap)})" if label else ""
    return Text(
        f"Niet de beste zet{tag_nl}: je team heeft na jouw zet een geschatte winkans van "
        f"{_pct(mine)}, na de beste zet {_pct(best)}.",
        f"Not the best move{tag_en}: your team's estimated win chance is {_pct(mine)} "
        f"after your move, {_pct(best)} after the best one.",
    )


def hint(puzzle: Puzzle, level: int) -> Text:
    """Hint ``level`` (1: which card; 2: the card and which pawn), never the whole move."""
    card = card_name(puzzle.card)
    if level < 2:
        return Text(f"Speel {card.nl}.", f"Play {card.en}.")
    pawn = pawn_words(puzzle.position, puzzle.solution.parts[0])
    return Text(f"Speel {card.nl}{pawn.nl}.", f"Play {card.en}{pawn.en}.")


def pawn_words(pos: Position, part: object) -> Text:
    """The pawn a move's part moves, as a person names it, to follow the card's name:
    ", met je pion op T22" / ", with your pawn on T22"."""
    if isinstance(part, Step):
        seat, loc = part.seat, part.frm
    else:  # a jack's swap: the first pawn is the solver's (or the partner's) own
        seat, loc = part.seat_a, part.a  # type: ignore[attr-defined]
    if loc == NEST:
        if seat == pos.turn:
            return Text(" en zet een nieuwe pion op", " and bring a new pawn out")
        c = colour(seat)
        return Text(f" en zet een pion van {c.nl} op", f" and bring out a pawn of {c.en}")
    if loc == FRESH:
        start = pos.topology.start(seat)
        where = Text(f"op zijn startplek T{start}", f"on its start T{start}")
    elif loc > HOME:
        where = Text(f"in het thuishonk, H{loc - HOME}", f"in its home, H{loc - HOME}")
    else:
        where = Text(f"op T{loc}", f"on T{loc}")
    if seat == pos.turn:
        return Text(f", met je pion {where.nl}", f", with your pawn {where.en}")
    c = colour(seat)
    return Text(f", met de pion van {c.nl} {where.nl}", f", with {c.en}'s pawn {where.en}")


def answer_text(puzzle: Puzzle) -> Text:
    """The answer, asked for: the move in words and why it is best."""
    words, why = describe_move(puzzle.position, puzzle.solution), solution_reason(puzzle)
    return Text(f"Het antwoord: {words.nl}: {why.nl}.", f"The answer: {words.en}: {why.en}.")


def solved_note(tries: int, helped: int, first_try: bool) -> Text:
    """Whether a solve is a first-try solve, and if not, why not: ``tries`` answers
    judged (this one too), ``helped`` 0 none, 1 and 2 the hints asked, 3 the answer shown
    (host/lessons/progress.py), ``first_try`` the first answer solved it, no help before."""
    if first_try:
        if tries <= 1:
            return Text("In één keer opgelost!", "Solved at the first try!")
        return Text(
            "Weer opgelost (je eerste poging telde al als in één keer).",
            "Solved again (your first try at it already counted).",
        )
    if helped >= 3:
        nl, en = "Opgelost met het antwoord erbij", "Solved with the answer shown"
    elif helped:
        nl, en = "Opgelost na een hint", "Solved after a hint"
    else:
        nl, en = f"Opgelost in de {tries}e poging", f"Solved at the {_nth(tries)} try"
    return Text(f"{nl}: telt niet als in één keer opgelost.", f"{en}: not a first-try solve.")


def solved_text(puzzle: Puzzle, v: Verdict, note: Text) -> Text:
    """A solve (or an as-good move) told: the note on the first try, then the move and
    why (the judge's words for an as-good move)."""
    if v.outcome == "good":
        return Text(f"{note.nl} {v.text.nl}", f"{note.en} {v.text.en}")
    words, why = describe_move(puzzle.position, puzzle.solution), solution_reason(puzzle)
    return Text(f"{note.nl} {words.nl}: {why.nl}.", f"{note.en} {words.en}: {why.en}.")


def first_tries_text(n: int) -> Text:
    """The count shown beside the puzzle list."""
    return Text(f"{n} in één keer opgelost", f"{n} solved at the first try")


def _nth(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"
