"""Puzzles: positions where one move of the hand held is clearly best (issue 26, part 3).

The only-move test is lichess's puzzle generator's, for a game of cards: the evaluator of
alternatives (alternatives.py) is asked at two budgets, with different seeds, and the
position is a puzzle when both times the same move stands first and beats the second
best by at least ``MARGIN`` in the team's win chance. The margin and the budgets are
calibrated in docs/puzzles.md (bench/bench_puzzles.py): a luck-heavy game puts most
choices within a few hundredths of each other, so the margin must stand well clear of
the evaluator's noise at the lower budget.

A puzzle is judged (``judge``): the solution's move (or one reaching the same pawns with
its card) solves it; another move that the evaluator puts within the margin of it is as
good; otherwise the better move is named with its reason, in the coach's words
(advice.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .advice import move_reasons, remark_of
from .alternatives import Evaluation, evaluate_moves
from .board import from_move
from .describe import describe_move
from .hand_record import GameRecord
from .movegen import successor_positions, successors
from .notation import IllegalMoveError, Move, parse_move
from .position import Position
from .search import Known
from .text import Text
from .themes import THEMES, themes_of

# The only-move test: the best move's team win chance beats the second best's by this
# much, at both budgets (playouts per candidate). docs/puzzles.md says how it was chosen
# (0.05 on the hand-made leaf's raw scale, the coach's threshold: 0.07 on the judge's
# calibrated one).
MARGIN: Final = 0.07
BUDGETS: Final = (100, 400)
SCREEN: Final = 30  # playouts per candidate of the first look at a position (mining)
JUDGE_PLAYOUTS: Final = 200  # judging a move against the solution
CHECK_PLAYOUTS: Final = 60  # the test suite's re-check of the shipped set


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position, the hand held, what is known, and the one move that is best."""

    id: str
    position: Position  # position.turn: the solver's seat
    hand: tuple[str, ...]
    known: tuple[str, ...]  # cards played or shown this deal
    sizes: tuple[int, ...] | None  # everyone's hand size (None: as the solver's)
    card: str
    solution: Move  # as ``keezbord moves --card CARD POSITION`` writes it
    themes: tuple[str, ...]
    win: float  # the solution's win chance at the higher budget
    gap: float  # how far it beats the second best there
    second: str  # the second best move, notation
    source: str = ""

    @property
    def knowledge(self) -> Known:
        return Known(self.known, self.sizes)

    @property
    def solution_text(self) -> str:
        return str(self.solution)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "position": self.position.to_text(),
            "hand": list(self.hand),
            "card": self.card,
            "solution": self.solution_text,
            "known": list(self.known),
            "themes": list(self.themes),
            "sizes": None if self.sizes is None else list(self.sizes),
            "win": round(self.win, 3),
            "gap": round(self.gap, 3),
            "second": self.second,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Puzzle:
        """A puzzle from its JSON object; ValueError (one line) for anything wrong."""
        try:
            pos = Position.from_text(str(d["position"]))
            hand = tuple(str(c) for c in d["hand"])
            card = str(d["card"])
            move = parse_move(str(d["solution"]), pos.topology)
            sizes = d.get("sizes")
            themes = tuple(str(t) for t in d.get("themes", ()))
            puzzle = cls(
                str(d["id"]),
                pos,
                hand,
                tuple(str(c) for c in d.get("known", ())),
                None if sizes is None else tuple(int(n) for n in sizes),
                card,
                move,
                themes,
                float(d.get("win", 0.0)),
                float(d.get("gap", 0.0)),
                str(d.get("second", "")),
                str(d.get("source", "")),
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a puzzle ({type(e).__name__}: {e})") from None
        if card not in hand or move.card != card:
            raise ValueError(f"puzzle {puzzle.id}: the solution's card is not in the hand")
        if unknown := [t for t in themes if t not in THEMES]:
            raise ValueError(f"puzzle {puzzle.id}: unknown theme {unknown[0]!r}")
        if not any(m == move for m, _ in successors(pos, card)):
            raise ValueError(f"puzzle {puzzle.id}: the solution is not a legal move")
        return puzzle


# -- the only-move test ------------------------------------------------------------------


def only_move(
    pos: Position,
    hand: Sequence[str],
    known: Known | None = None,
    *,
    budgets: Sequence[int] = BUDGETS,
    margin: float = MARGIN,
    seed: int = 0,
) -> Evaluation | None:
    """The evaluation at the last budget when one move is clearly best at every budget
    (the same move first, ahead of the second by ``margin``), else None. A lone legal
    choice is no puzzle."""
    first: Evaluation | None = None
    for i, playouts in enumerate(budgets):
        ev = evaluate_moves(pos, hand, known, playouts=playouts, seed=seed * 7919 + i)
        best = ev.best
        if best is None or ev.second is None or ev.gap < margin:
            return None
        if first is not None:
            fb = first.best
            assert fb is not None
            if (fb.card, fb.after) != (best.card, best.after):
                return None
        first = ev
    return first


def solution_move(pos: Position, card: str, move: Move) -> Move:
    """``move`` as ``keezbord moves`` writes it: the first move of the card reaching
    the same position (a 7's parts may come in another order)."""
    after = next(a for m, a in successors(pos, card) if m == move)
    for a, m in successor_positions(pos, card).items():
        if a.pawns == after.pawns:
            return m
    return move


def puzzle_id(pos: Position, hand: Sequence[str]) -> str:
    digest = hashlib.sha1(f"{pos.to_text()}|{','.join(sorted(hand))}".encode()).hexdigest()
    return f"kz-{digest[:8]}"


def puzzle_seed(pid: str) -> int:
    """The seed of a puzzle's evaluations: from its id, so that mining it and checking it
    again later ask the evaluator the same questions."""
    return int(hashlib.sha1(pid.encode()).hexdigest()[:8], 16)


def make_puzzle(
    pos: Position, hand: Sequence[str], known: Known, ev: Evaluation, source: str = ""
) -> Puzzle:
    best, second = ev.best, ev.second
    assert best is not None and second is not None
    move = solution_move(pos, best.card, best.move)
    return Puzzle(
        puzzle_id(pos, hand),
        pos,
        tuple(hand),
        known.seen,
        known.hand_sizes,
        best.card,
        move,
        themes_of(pos, move),
        round(best.win, 3),  # as the JSON form keeps them
        round(ev.gap, 3),
        str(second.move),
        source,
    )


def mine(
    records: Iterable[GameRecord],
    *,
    margin: float = MARGIN,
    budgets: Sequence[int] = BUDGETS,
    screen: int = SCREEN,
    themed: bool = True,
) -> Iterator[Puzzle]:
    """Puzzles from games: every decision whose whole hand is known is looked at with
    ``screen`` playouts a candidate, the promising ones are put to the only-move test,
    and a puzzle is kept when it also passes the re-check the test suite makes
    (``recheck``). ``themed``: keep only puzzles with a theme. Each position and hand
    once. Every evaluation is seeded from the puzzle's id (``puzzle_seed``), so the
    checks below ask the same questions again."""
    done: set[str] = set()
    for record in records:
        for turn in record.decisions:
            if not turn.hand_known:
                continue
            pid = puzzle_id(turn.pos, turn.hand)
            if pid in done:
                continue
            done.add(pid)
            s = puzzle_seed(pid)
            look = evaluate_moves(turn.pos, turn.hand, turn.known, playouts=screen, seed=s)
            if look.second is None or look.gap < margin:
                continue
            ev = only_move(
                turn.pos, turn.hand, turn.known, budgets=budgets, margin=margin, seed=s + 1
            )
            if ev is None:
                continue
            puzzle = make_puzzle(
                turn.pos, turn.hand, turn.known, ev, f"{record.source}, turn {turn.index + 1}"
            )
            if (puzzle.themes or not themed) and recheck(puzzle, margin=margin):
                yield puzzle


def recheck(
    puzzle: Puzzle, playouts: int = CHECK_PLAYOUTS, *, seed: int = 2, margin: float = MARGIN
) -> bool:
    """Does the puzzle pass the only-move test again at ``playouts`` (its own seed plus
    ``seed``), with the same solution?"""
    ev = only_move(
        puzzle.position,
        puzzle.hand,
        puzzle.knowledge,
        budgets=(playouts,),
        margin=margin,
        seed=puzzle_seed(puzzle.id) + seed,
    )
    return ev is not None and ev.best is ev.find(puzzle.card, puzzle.solution, puzzle.position)


def confirm(puzzle: Puzzle, budgets: Sequence[int] = BUDGETS, margin: float = MARGIN) -> bool:
    """The whole only-move test again, as mining made it (the slow check)."""
    ev = only_move(
        puzzle.position,
        puzzle.hand,
        puzzle.knowledge,
        budgets=budgets,
        margin=margin,
        seed=puzzle_seed(puzzle.id) + 1,
    )
    return ev is not None and ev.best is ev.find(puzzle.card, puzzle.solution, puzzle.position)


# -- judging a move ------------------------------------------------------------------------

Outcome = Literal["solved", "good", "wrong"]


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    played: str
    solution: str
    played_win: float | None  # None: not played out (the solution itself)
    solution_win: float | None
    text: Text  # the verdict in words
    reason: Text | None  # why the solution is better (when it is)

    def to_dict(self, lang: str) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "played": self.played,
            "solution": self.solution,
            "played_win": None if self.played_win is None else round(self.played_win, 3),
            "solution_win": None if self.solution_win is None else round(self.solution_win, 3),
            "text": self.text.get(lang),
            "reason": None if self.reason is None else self.reason.get(lang),
        }


def judge(
    puzzle: Puzzle,
    move: Move | str,
    *,
    playouts: int = JUDGE_PLAYOUTS,
    seed: int = 0,
    margin: float = MARGIN,
) -> Verdict:
    """A move tried in a puzzle: solved, as good (within ``margin`` of the solution), or
    not, with the better move and its reason. IllegalMoveError for a move the hand or
    the rules do not allow."""
    pos = puzzle.position
    if isinstance(move, str):
        move = parse_move(move, pos.topology)
    card = move.card
    if card not in puzzle.hand:
        raise IllegalMoveError(f"the hand holds no {card}")
    after = next((a for m, a in successors(pos, card) if m == move), None)
    if after is None:
        raise IllegalMoveError(f"{move} is not a legal move with the {card}")
    sol = puzzle.solution
    sol_after = next(a for m, a in successors(pos, puzzle.card) if m == sol)
    why = solution_reason(puzzle)
    if card == puzzle.card and after.pawns == sol_after.pawns:
        words = describe_move(pos, sol)
        return Verdict(
            "solved",
            str(move),
            str(sol),
            None,
            None,
            Text(f"Opgelost! {words.nl}: {why.nl}.", f"Solved! {words.en}: {why.en}."),
            why,
        )
    ev = evaluate_moves(
        pos,
        puzzle.hand,
        puzzle.knowledge,
        playouts=playouts,
        seed=seed,
        only=((card, move), (puzzle.card, sol)),
    )
    mine_ = ev.find(card, move, pos)
    best = ev.find(puzzle.card, sol, pos)
    assert mine_ is not None and best is not None
    if mine_.win >= best.win - margin:
        return Verdict(
            "good",
            str(move),
            str(sol),
            mine_.win,
            best.win,
            Text(
                f"Ook goed: geschatte winkans van je team {_pct(mine_.win)} na jouw zet, "
                f"{_pct(best.win)} na de oplossing ({describe_move(pos, sol).nl}).",
                f"As good: your team's estimated win chance {_pct(mine_.win)} after your "
                f"move, {_pct(best.win)} after the solution ({describe_move(pos, sol).en}).",
            ),
            why,
        )
    remark = remark_of(pos, puzzle.hand, ev.to_analysis(), card, from_move(move), margin)
    text = (
        remark.text
        if remark is not None
        else Text(
            f"Dat kon beter: {describe_move(pos, sol).nl}.",
            f"There was a better move: {describe_move(pos, sol).en}.",
        )
    )
    return Verdict("wrong", str(move), str(sol), mine_.win, best.win, text, why)


def solution_reason(puzzle: Puzzle) -> Text:
    """Why the solution is best, in the coach's words (advice.py)."""
    return Text(*_join(move_reasons(puzzle.position, puzzle.solution, puzzle.hand)))


def _join(reasons: Sequence[Text]) -> tuple[str, str]:
    if not reasons:
        return ("de beste keus", "the best choice")
    return ("; ".join(r.nl for r in reasons), "; ".join(r.en for r in reasons))


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"
