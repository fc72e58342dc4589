"""Properties of complete games between random bots, over random seeds, seat counts 2..8
and all profiles (hypothesis): the invariants of RULES.md hold after every turn."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from keezbord.engine.bots import RandomBot
from keezbord.engine.game import GameResult, play_game
from keezbord.engine.movegen import apply_part, successors
from keezbord.engine.notation import Step
from keezbord.engine.position import FRESH, HOME, NEST, Position
from keezbord.engine.profiles import PROFILES

# 8-seat keezspel games between random bots (extra laps; partners never capture each
# other) average about 3,900 turns and one in eight passes 5,000.
MAX_TURNS = 20_000
games = st.tuples(
    st.integers(0, 2**31),
    st.integers(2, 8),
    st.sampled_from(sorted(PROFILES)),
    st.sampled_from([None, "none"]),
)


def _play(seed: int, seats: int, profile: str, teams: str | None) -> GameResult:
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(rng.random())) for _ in range(seats)]
    return play_game(seats, profile, seed, bots, max_turns=MAX_TURNS, teams=teams)  # type: ignore[arg-type]


def _check_position(pos: Position) -> None:
    assert len(pos.pawns) == pos.seats
    holes: set[tuple[str, int, int]] = set()
    for seat, locs in enumerate(pos.pawns):
        assert len(locs) == 4
        for loc in locs:
            if loc == NEST:
                continue
            if loc > HOME:
                key = ("H", seat, loc - HOME)
                assert 1 <= loc - HOME <= 4
            else:
                t = pos.topology.start(seat) if loc == FRESH else loc
                assert 0 <= t < pos.topology.ring
                key = ("T", 0, t)
            assert key not in holes, f"two pawns on {key} in {pos}"
            holes.add(key)


def _check_turn(before: Position, card: str, parts: tuple[object, ...], after: Position) -> None:
    cur = before
    for part in parts:
        if isinstance(part, Step) and part.to > HOME:
            # Nobody jumps inside a home: every slot between is empty.
            first = part.frm - HOME + 1 if part.frm > HOME else 1
            for slot in range(first, part.to - HOME + 1):
                assert HOME + slot not in cur.pawns[part.seat], (before, card, parts)
        cur = apply_part(cur, part)  # type: ignore[arg-type]
    assert cur.pawns == after.pawns
    for seat in range(before.seats):
        new_fresh = after.pawns[seat].count(FRESH) - before.pawns[seat].count(FRESH)
        entered = any(isinstance(p, Step) and p.seat == seat and p.to == FRESH for p in parts)
        # A pawn only becomes fresh by entering with an A or K.
        if new_fresh > 0:
            assert entered and card in ("A", "K")
        assert after.pawns[seat].count(FRESH) <= 1
        if FRESH in after.pawns[seat] and not entered:
            # Unchanged since: the fresh pawn did not move and no part touched its start.
            assert FRESH in before.pawns[seat]
            assert not any(isinstance(p, Step) and p.seat == seat and p.frm == FRESH for p in parts)


@settings(max_examples=60, deadline=None)
@given(games)
def test_invariants_hold_through_whole_games(game: tuple[int, int, str, str | None]) -> None:
    seed, seats, profile, teams = game
    result = _play(seed, seats, profile, teams)
    assert result.winner is not None, f"game did not end within {MAX_TURNS} turns"
    assert result.final.winner() == result.winner
    before = Position.start(seats, profile, teams=teams)  # type: ignore[arg-type]
    for turn in result.history:
        assert turn.after is not None
        _check_position(turn.after)
        if turn.move is not None:
            assert turn.card is not None
            b = before.replace(turn=turn.seat)
            listed = {m: a for m, a in successors(b, turn.card)}
            assert turn.move in listed, f"{turn} was not legal in {b}"
            assert listed[turn.move].pawns == turn.after.pawns
            _check_turn(b, turn.card, turn.move.parts, turn.after)
        else:
            assert turn.after.pawns == before.pawns
        before = turn.after
    # Nothing happens after the win.
    assert result.history[-1].after is not None
    assert result.history[-1].after.winner() == result.winner


@settings(max_examples=12, deadline=None)
@given(games)
def test_replaying_the_seed_gives_the_same_game(game: tuple[int, int, str, str | None]) -> None:
    a, b = _play(*game), _play(*game)
    assert a.history == b.history
    assert a.final == b.final
