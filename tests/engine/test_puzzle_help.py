"""What a puzzle's solver is told (issue 40, item 13): a wrong answer's verdict names no
better move; a hint names the card, the second one the pawn too, never where it goes;
the answer writes the move out; a solve says whether it was at the first try."""

from __future__ import annotations

from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.puzzle_help import answer_text, hint, solved_note, wrong_text
from keezbord.engine.puzzles import Puzzle, Verdict
from keezbord.engine.text import Text


def _puzzle(position: str, hand: tuple[str, ...], solution: str) -> Puzzle:
    pos = Position.from_text(position)
    move = parse_move(solution, pos.topology)
    return Puzzle("kz-t", pos, hand, (), None, move.card, move, ("capture",), 0.5, 0.1, "")


CAPTURE = _puzzle("NNNT60/NNNT22/NNNT28/NNNN 1 standard", ("A", "6", "A"), "6 1:T22-T28")
JACK = _puzzle("T63H2H3H4/T2T15H3H4/H1H2H3H4/NH2H3H4 1 standard", ("J", "6"), "J 1:T15<>0:T63")
OUT = _puzzle("NNNT60/NNNT22/NNNT28/NNNN 0 standard", ("A", "3"), "A 0:N-S")


def test_hints_name_the_card_then_the_pawn_never_the_move() -> None:
    assert hint(CAPTURE, 1) == Text("Speel de 6.", "Play the 6.")
    assert hint(CAPTURE, 2) == Text(
        "Speel de 6, met je pion op T22.", "Play the 6, with your pawn on T22."
    )
    assert hint(JACK, 1) == Text("Speel de boer.", "Play the jack.")
    assert hint(JACK, 2).en == "Play the jack, with your pawn on T15."
    assert "T63" not in hint(JACK, 2).en and "T28" not in hint(CAPTURE, 2).en
    assert hint(OUT, 2) == Text(
        "Speel de aas en zet een nieuwe pion op.", "Play the ace and bring a new pawn out."
    )


def test_the_answer_is_written_out_with_why() -> None:
    said = answer_text(CAPTURE)
    assert said.en.startswith("The answer: The 6: blue T22 → T28, sending yellow back")
    assert said.nl.startswith("Het antwoord: De 6: blauw T22 → T28, slaat geel eraf")


def test_a_wrong_verdict_gives_its_reason_not_the_answer() -> None:
    v = Verdict("wrong", "A 1:T22-T23", "6 1:T22-T28", 0.36, 0.45, Text("x", "x"), None)
    said = wrong_text(v)
    assert said.en == (
        "Not the best move (blunder, -9%): your team's estimated win chance is 36% after "
        "your move, 45% after the best one."
    )
    assert said.nl.startswith("Niet de beste zet (blunder, -9%): je team heeft")
    assert "T28" not in said.en + said.nl


def test_a_solve_says_whether_it_was_at_the_first_try() -> None:
    assert solved_note(1, 0, True).en == "Solved at the first try!"
    assert solved_note(1, 0, True).nl == "In één keer opgelost!"
    assert solved_note(3, 0, True).en.startswith("Solved again")
    assert solved_note(2, 0, False).en == "Solved at the 2nd try: not a first-try solve."
    assert (
        solved_note(3, 0, False).nl
        == "Opgelost in de 3e poging: telt niet als in één keer opgelost."
    )
    assert solved_note(11, 0, False).en.startswith("Solved at the 11th try")
    assert solved_note(1, 1, False).en == "Solved after a hint: not a first-try solve."
    assert solved_note(2, 3, False).en == "Solved with the answer shown: not a first-try solve."
