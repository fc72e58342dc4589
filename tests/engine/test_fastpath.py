"""The fast playout path (board.py, playout.py, the bots' ``pick``) against the
Position-based engine it replaces in self-play: the same legal moves, in the same order,
for every card on random positions of every profile and seat count; make/unmake that
land on ``successors``' positions and restore the board; the greedy evaluation to the
same float; and identical complete games for the same seed and bots.

Seeded and bounded for the default run; set KEEZBORD_FASTPATH_SCALE (e.g. 20) for a
bigger run on demand.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from typing import Any

import pytest
from engine_helpers import PROFILE_NAMES, random_position

from keezbord.engine.board import Board, from_move, to_move
from keezbord.engine.bots import Bot, GreedyBot, RandomBot, evaluate, evaluate_board
from keezbord.engine.cards import RANKS
from keezbord.engine.game import Game, play_game, play_game_positions
from keezbord.engine.movegen import successors
from keezbord.engine.position import InvalidPositionError, Position, TeamMode

SCALE = int(os.environ.get("KEEZBORD_FASTPATH_SCALE", "1"))
SEATS = range(2, 9)


def _crowded(rng: random.Random, seats: int, profile: str, n: int) -> list[Position]:
    out: list[Position] = []
    while len(out) < n:
        try:
            out.append(Position.from_dict(random_position(rng, seats, profile)))
        except InvalidPositionError:
            continue  # two pawns drawn onto one hole
    return out


def _mid_game(rng: random.Random, seats: int, profile: str, n: int) -> list[Position]:
    """Positions met in real random games (sparser than the crowded ones, late-game
    team control included)."""
    out: list[Position] = []
    while len(out) < n:
        seed = rng.randrange(10**6)
        bots = [RandomBot(random.Random(seed + s)) for s in range(seats)]
        history = play_game(seats, profile, seed, bots, max_turns=2000).history
        afters = [t.after for t in history if t.after is not None]
        for p in rng.sample(afters, min(len(afters), n - len(out))):
            out.append(p.replace(turn=rng.randrange(seats)))
    return out


def _check_position(pos: Position) -> None:
    board = Board(pos)
    before = board.key()
    assert before == pos.pawns
    for card in RANKS:
        want = list(successors(pos, card))
        got = board.moves(card, pos.turn)
        assert [to_move(m) for m in got] == [m for m, _ in want], (str(pos), card)
        for fast, (move, after) in zip(got, want, strict=True):
            assert from_move(move) == fast
            undo = board.make(fast)
            assert board.key() == after.pawns, (str(pos), card, move)
            _same_state(board, Board(after))
            board.unmake(undo)
            assert board.key() == before, (str(pos), card, move)
        _same_state(board, Board(pos))


def _same_state(a: Board, b: Board) -> None:
    """Everything make/unmake maintains, but the (unordered) pawn lists."""
    assert (a.occ, a.home, a.trk, a.fresh, a.homed) == (b.occ, b.home, b.trk, b.fresh, b.homed)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("seats", SEATS)
def test_same_moves_on_crowded_random_positions(profile: str, seats: int) -> None:
    rng = random.Random(f"crowded {profile} {seats}")
    for pos in _crowded(rng, seats, profile, 60 * SCALE):
        _check_position(pos)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("seats", SEATS)
def test_same_moves_on_mid_game_positions(profile: str, seats: int) -> None:
    rng = random.Random(f"mid {profile} {seats}")
    for pos in _mid_game(rng, seats, profile, 25 * SCALE):
        _check_position(pos)


def test_greedy_evaluation_is_the_same_float() -> None:
    rng = random.Random(5)
    for _ in range(300 * SCALE):
        pos = _crowded(rng, rng.randint(2, 8), rng.choice(PROFILE_NAMES), 1)[0]
        board = Board(pos)
        for me in range(pos.seats):
            assert evaluate_board(board, me) == evaluate(pos, me), (str(pos), me)


def _bots(kind: str, seats: int, seed: int) -> list[Bot]:
    rng = random.Random(seed)
    out: list[Bot] = []
    for s in range(seats):
        greedy = kind == "greedy" or (kind == "mixed" and s % 2 == 1)
        out.append((GreedyBot if greedy else RandomBot)(random.Random(rng.random())))
    return out


def _summary(r: Any) -> tuple[Any, ...]:
    return (r.winner, r.turns, r.discards, r.rounds, r.final, r.history)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("seats", SEATS)
def test_identical_games_random_bots(profile: str, seats: int) -> None:
    for seed in range(SCALE):
        teams: TeamMode | None = "none" if seed % 3 == 2 and seats in (4, 6, 8) else None
        fast = play_game(seats, profile, seed, _bots("random", seats, seed), teams=teams)
        slow = play_game_positions(seats, profile, seed, _bots("random", seats, seed), teams=teams)
        assert fast.winner is not None
        assert _summary(fast) == _summary(slow)


@pytest.mark.parametrize("kind", ["greedy", "mixed"])
@pytest.mark.parametrize("seats", SEATS)
def test_identical_games_greedy_bots(kind: str, seats: int) -> None:
    for seed in range(SCALE):
        profile = PROFILE_NAMES[(seats + seed) % len(PROFILE_NAMES)]
        fast = play_game(seats, profile, seed, _bots(kind, seats, seed))
        slow = play_game_positions(seats, profile, seed, _bots(kind, seats, seed))
        assert _summary(fast) == _summary(slow)


def test_game_play_turn_matches_the_position_path() -> None:
    """``Game.play_turn`` (fast pick, move played as picked) and the Position-based turn
    lead through the same game, partner exchange included."""
    for seats, profile in ((4, "reiseditie"), (6, "keezspel"), (3, "nk")):
        games = [Game(seats, profile, 9), Game(seats, profile, 9)]
        bots = [_bots("mixed", seats, 9), _bots("mixed", seats, 9)]
        while not games[0].over and len(games[0].history) < 3000:
            for g, b in zip(games, bots, strict=True):
                g.exchange(b)
                seat = g.to_play
                assert seat is not None
                if g is games[0]:
                    g.play_turn(b[seat])
                else:
                    g.play_turn_positions(b[seat])
            assert games[0].history[-1] == games[1].history[-1]
            assert games[0].hands == games[1].hands
        assert games[0].over and games[1].over


def test_bots_choose_wraps_pick() -> None:
    """A Position caller gets the fast bot's choice as a Move (the hint path)."""
    for pos in _mid_game(random.Random(3), 4, "standard", 20):
        hand = ["7", "A", "J", "4", "5"]
        for cls in (RandomBot, GreedyBot):
            assert cls(random.Random(1)).choose(pos, hand) == cls(
                random.Random(1)
            ).choose_positions(pos, hand)


@pytest.mark.parametrize(
    ("seats", "profile", "segment"),
    [
        (2, "keezspel", 7),
        (3, "nk", 9),
        (4, "reiseditie", 10),
        (6, "standard", 12),
        (8, "keezspel", 8),
    ],
)
def test_other_segment_lengths(seats: int, profile: str, segment: int) -> None:
    """Boards with other than 16 holes a seat: the walk tables follow the shape."""
    game = Game(seats, profile, seats * segment, segment=segment)
    bots = _bots("random", seats, 1)
    while not game.over and len(game.history) < 400 * SCALE:
        if len(game.history) % 7 == 0:
            _check_position(game.position)
        game.exchange(bots)
        seat = game.to_play
        assert seat is not None
        game.play_turn(bots[seat])


def test_sevens_over_more_pawns() -> None:
    """The general 7 (``seven_pawns`` > 2, no profile uses it yet) against movegen, and
    the two-pawn unrolled 7 against the general one."""
    rng = random.Random(77)
    for _ in range(150 * SCALE):
        pos = _crowded(rng, rng.randint(2, 8), rng.choice(PROFILE_NAMES), 1)[0]
        board = Board(pos)
        general: list[Any] = []
        board._sevens(general, pos.turn, board.guard[pos.turn], 7, (), ())
        assert general == board.moves("7", pos.turn)
        three = Position(
            pos.topology, replace(pos.profile, seven_pawns=3), pos.teams, pos.turn, pos.pawns
        )
        want = [m for m, _ in successors(three, "7")]
        assert [to_move(m) for m in Board(three).moves("7", pos.turn)] == want, str(pos)
