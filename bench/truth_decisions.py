"""Where the truth bench's decisions come from (bench/bench_judge_truth.py, whose
docstring says what each is for): a puzzle set's solution against its second best, the
advice positions of tests/engine/test_advice.py, greedy games' decisions sampled at every
tenth turn, and greedy games' decisions where a move goes home. A decision is its id,
the position, the seat's hand, what it knows, the two moves and the deals to play."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from keezbord.engine.alternatives import Evaluation, evaluate_moves
from keezbord.engine.hand_record import TurnRecord, bots_for, record_selfplay
from keezbord.engine.movegen import apply
from keezbord.engine.notation import Move, parse_move
from keezbord.engine.position import HOME, Position
from keezbord.engine.puzzles import Puzzle, puzzle_seed
from keezbord.engine.rollout import FITTED_LEAF, HAND_LEAF
from keezbord.engine.search import Known

JUDGE_PLAYOUTS = 400  # the leaves' gaps: playouts a candidate

Decision = tuple[str, Position, tuple[str, ...], Known, list[tuple[str, Move]], int]


def puzzle_decisions(path: Path, deals: int) -> list[Decision]:
    out: list[Decision] = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        p = Puzzle.from_json(json.loads(line))
        card2 = p.second.split(" ", 1)[0]
        moves = [(p.card, p.solution), (card2, parse_move(p.second, p.position.topology))]
        out.append((p.id, p.position, p.hand, p.knowledge, moves, deals))
    return out


def advice_decisions(deals: int) -> list[Decision]:
    """tests/engine/test_advice.py's cases with a move named and a choice to make: that
    move first, the fitted leaf's best other second; the others hold 5 cards."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))
    from test_advice import CASES  # the cases are the test's: one place

    out: list[Decision] = []
    for name, (pos, hand, want, _words) in CASES.items():
        if not want:
            continue
        card = want.split(" ", 1)[0]
        move = parse_move(want, pos.topology)
        sizes = tuple(len(hand) if s == pos.turn else 5 for s in range(pos.seats))
        known = Known((), sizes)
        ev = evaluate_moves(
            pos,
            tuple(hand),
            known,
            playouts=JUDGE_PLAYOUTS,
            seed=puzzle_seed(name) + 5,
            how=FITTED_LEAF,
        )
        mine = ev.find(card, move, pos)
        other = next((a for a in ev.ranked if a is not mine), None)
        if mine is None or other is None:
            continue  # one move only to weigh (forced, or the only one kept: a win)
        out.append((name, pos, tuple(hand), known, [(card, move), (other.card, other.move)], deals))
    return out


SAMPLE_SEED = 61_000  # the sampled games' seeds: SAMPLE_SEED + game
SAMPLE_EVERY = 10


def sampled_decisions(
    games: int, every: int = SAMPLE_EVERY, deals: int = 600, seed: int = SAMPLE_SEED
) -> list[Decision]:
    """The decisions of ``games`` greedy 4-seat games at the turns whose number is a
    multiple of ``every``, with the hand known and a choice: the move played first, a
    random other candidate second (the evaluator's: another position, or the same pawns
    with another card kept in the hand). Greedy's own move is always a candidate (they
    are the greedy score's best)."""
    out: list[Decision] = []
    for s, rng, t, (card, move), ev in _greedy_turns(games, seed, every):
        mine = ev.find(card, move, t.pos)
        others = [a for a in ev.ranked if a is not mine]
        if mine is None or not others:
            continue
        other = rng.choice(others)
        moves = [(card, move), (other.card, other.move)]
        out.append((f"g{s}-t{t.index}", t.pos, t.hand, t.known, moves, deals))
    return out


def _greedy_turns(
    games: int, seed: int, every: int = 1
) -> Iterator[tuple[int, random.Random, TurnRecord, tuple[str, Move], Evaluation]]:
    """The turns of ``games`` greedy 4-seat games (seeds from ``seed``) with a move played
    and the hand known, whose number is a multiple of ``every``: the game's seed, its
    random choices' generator, the turn, the card and move played, and its candidates
    (the evaluator's, one playout each: their order only, with the hand-made leaf the
    stored rows were drawn with)."""
    for g in range(games):
        s = seed + g
        rec = record_selfplay(4, "standard", s, bots_for(["greedy"] * 4, s))
        rng = random.Random(s)
        for t in rec.turns:
            if t.card is None or t.move is None or not t.hand_known or t.index % every:
                continue
            ev = evaluate_moves(t.pos, t.hand, t.known, playouts=1, seed=s, how=HAND_LEAF)
            yield s, rng, t, (t.card, t.move), ev


HOMES_SEED = 62_000  # the home-entry games' seeds: HOMES_SEED + game


def home_depth(pos: Position, seats: Sequence[int]) -> int:
    """How far into their homes the pawns of ``seats`` stand, summed (H1 is 1)."""
    return sum(loc - HOME for s in seats for loc in pos.pawns[s] if loc > HOME)


def home_decisions(games: int, deals: int = 600, seed: int = HOMES_SEED) -> list[Decision]:
    """The decisions of ``games`` greedy 4-seat games where a candidate brings a pawn
    home or deeper into its home and another does not (the hand known): such a move
    first (greedy's own when it is one), a random other move second. The decisions a
    leaf fitted to positions gets backwards (docs/analysis.md "The switch, tried")."""
    out: list[Decision] = []
    for s, rng, t, (card, move), ev in _greedy_turns(games, seed):
        team = t.pos.team_of(t.pos.turn)
        was = home_depth(t.pos, team)
        deeper = [home_depth(apply(t.pos, a.card, a.move), team) > was for a in ev.ranked]
        homing = [a for a, d in zip(ev.ranked, deeper, strict=True) if d]
        others = [a for a, d in zip(ev.ranked, deeper, strict=True) if not d]
        if not homing or not others:
            continue
        mine = ev.find(card, move, t.pos)
        first = mine if mine in homing else rng.choice(homing)
        other = rng.choice(others)
        moves = [(first.card, first.move), (other.card, other.move)]
        out.append((f"h{s}-t{t.index}", t.pos, t.hand, t.known, moves, deals))
    return out
