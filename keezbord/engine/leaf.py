"""What an unfinished playout is worth: a win chance for every team, summing to 1.

Three leaves, one a ``rollout.Policy`` names: the judge's (``judge_chances``: hints,
coach, analysis, puzzles), the bot's (``fitted_chances``: the search as it plays), both a
softmax of weighted terms (``FEATURES``) fitted by the benches, and the hand-made one
below (``leaf_chances``: the judge's until 2026-12-06, kept for the benches).

A playout that ends with a winner is worth 1 to the winning team and 0 to the others. One
that stops first (the horizon, the end of the round) is judged by the board. By the
hand-made leaf: each team's value is the sum of its seats' standing (``bots.seat_values``)
and of what the cards its seats still hold are worth (``CARD_KEEP``), and the chances are
a softmax of those values over ``SCALE``:

    P(team t) = exp(V_t / SCALE) / sum over teams u of exp(V_u / SCALE)

With two teams this is the logistic curve of the value difference the search has always
used (1 / (1 + exp(-(V_me - V_other) / SCALE)), its scale checked on 150 greedy games,
docs/hints.md); with three or four teams it is the same curve made a distribution: a
symmetric board gives each team 1/teams, not the 1/2 a two-team squash of "my team
against the others' mean" gave (the defect a playtest found on 6 and 8 seats).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .board import Board
from .bots import CARD_KEEP, _progress, opponent_masks, seat_values
from .position import BLOCKADE, EMPTY, FRESH, HOME, NEST

# Leaf value to win chance; a pawn home is worth about 100 to 180 in seat_values: with
# two teams SCALE makes one pawn home ahead about a 60:40 game.
SCALE = 250.0


def team_order(board: Board) -> list[tuple[int, ...]]:
    """The teams in seat order of their first seat (the analysis's ``teams()`` order)."""
    return list(dict.fromkeys(board.team))


def team_values(board: Board, hands: Sequence[Sequence[str]]) -> list[float]:
    """Each team's value (``team_order``): its seats' standing and cards."""
    values = seat_values(board)
    teams = team_order(board)
    out = []
    for team in teams:
        v = 0.0
        for s in team:
            v += values[s] + sum(CARD_KEEP.get(c, 0.0) for c in hands[s])
        out.append(v)
    return out


def softmax(values: Sequence[float], scale: float = SCALE) -> list[float]:
    """exp(v / scale) normalised to sum to 1 (the largest value subtracted first)."""
    top = max(values)
    ex = [math.exp(max(-700.0, (v - top) / scale)) for v in values]
    total = sum(ex)
    return [e / total for e in ex]


def leaf_chances(board: Board, hands: Sequence[Sequence[str]]) -> list[float]:
    """Every team's win chance (``team_order``) judged by the board and the cards held;
    a won board: 1 for the winner."""
    winner = board.winner()
    teams = team_order(board)
    if winner is not None:
        return [1.0 if t == winner else 0.0 for t in teams]
    return softmax(team_values(board, hands))


# The fitted leaves' terms, per team (the sum over its seats): weighed by bench/fit_leaf.py
# (the bot's, all but ``shut``) and bench/fit_leaf_decisions.py (the judge's).
FEATURES = (
    "home",  # pawns home
    "home2",  # pawns home squared per seat: the last pawns home are worth more
    "deep",  # how far in, summed (a home's far end first frees the way)
    "prog",  # track pawns' way along, each 0 (at its start) to 1 (at its home's door)
    "prog2",  # the same squared: a pawn near home is worth more than its distance
    "track",  # pawns on the track (out of the nest)
    "near",  # track pawns 80% or more of the way (one card from the door)
    "fresh",  # pawns on their own start (safe, and in everyone's way)
    "threat",  # opponents' pawns 1 to 12 holes behind a pawn of the team
    "blocked",  # its own pawn on its start while it has pawns to bring out
    "enter",  # seats with nest pawns and an A or K in hand
    "ak",  # A and K held
    "seven",  # 7s held
    "four",  # 4s held
    "jack",  # jacks held
    "cards",  # cards held
    "shut",  # pawns shut out of their home: still to come, beyond the free holes before
    # the shallowest home pawn (no pawn passes another in a home, RULES.md)
)


def team_features(board: Board, hands: Sequence[Sequence[str]]) -> list[list[float]]:
    """Each team's ``FEATURES`` (``team_order``), from the board and the cards held."""
    seats = board.seats
    prog = _progress(seats, board.topology.segment)
    window = board.window
    masks = opponent_masks(board)
    per_seat = []
    for seat in range(seats):
        opponents = masks[seat]
        home = deep = pr = pr2 = track = threat = near = fresh = 0.0
        shallowest = 5
        nest = False
        row = prog[seat]
        for loc in board.pawns[seat]:
            if loc > HOME:
                home += 1
                deep += loc - HOME
                shallowest = min(shallowest, loc - HOME)
            elif loc == NEST:
                nest = True
            else:
                track += 1
                if loc == FRESH:
                    fresh += 1
                else:
                    f = (row[loc] - 30) / 50
                    pr += f
                    pr2 += f * f
                    if f >= 0.8:
                        near += 1
                    threat += (window[loc] & opponents).bit_count()
        o = board.occ[board.start[seat]]
        blocked = 1.0 if nest and o != EMPTY and o % BLOCKADE == seat else 0.0
        hand = hands[seat]
        ak = sum(1 for c in hand if c in ("A", "K"))
        per_seat.append(
            [
                home,
                home * home,
                deep,
                pr,
                pr2,
                track,
                near,
                fresh,
                threat,
                blocked,
                1.0 if nest and ak else 0.0,
                float(ak),
                float(hand.count("7")),
                float(hand.count("4")),
                float(hand.count("J")),
                float(len(hand)),
                max(0.0, len(board.pawns[seat]) - home - (shallowest - 1)),
            ]
        )
    out = []
    for team in team_order(board):
        total = [0.0] * len(FEATURES)
        for s in team:
            for i, v in enumerate(per_seat[s]):
                total[i] += v
        out.append(total)
    return out


def tuned_chances(
    board: Board, hands: Sequence[Sequence[str]], weights: Sequence[float]
) -> list[float]:
    """Every team's win chance (``team_order``) by the fitted leaf: a softmax of
    ``weights . team_features``; a won board: 1 for the winner."""
    winner = board.winner()
    if winner is not None:
        return [1.0 if t == winner else 0.0 for t in team_order(board)]
    values = [
        sum(w * f for w, f in zip(weights, feats, strict=True))
        for feats in team_features(board, hands)
    ]
    return softmax(values, 1.0)


# FEATURES' weights per number of seats, fitted by bench/fit_leaf.py on boards of greedy
# self-play games (every fifth game held out; log loss on those, against the hand-made
# leaf's): 4 seats 116,000 boards of 10,000 games, 0.5692 against 0.6070 (an even guess
# 0.6931); 6 seats 96,000 boards of 5,000 games, 0.8843 against 0.9611 (1.0986). Fitted
# before ``shut`` was a term: its weight 0, the bot's leaf as the ladder measured it.
TUNED: dict[int, tuple[float, ...]] = {
    4: (
        -0.79485, 0.23398, 0.21807, 0.00965, 0.09715, 0.14738, 0.04357, 0.02005,
        -0.0168, -0.00085, 0.08714, 0.07197, 0.06576, 0.0133, 0.01051, 0.05238, 0.0,
    ),
    6: (
        -0.70238, 0.24887, 0.22517, -0.09401, 0.26273, 0.09975, 0.09228, 0.05209,
        -0.03061, -0.01617, 0.05886, 0.05656, 0.07443, 0.04747, 0.07404, 0.03385, 0.0,
    ),
}  # fmt: skip

# The judge's weights (hints, coach, analysis, puzzles): fitted by
# bench/fit_leaf_decisions.py (``--shut --ordered``, lam 0.1) to 4-seat decisions played
# to the end, the home never worth less for a pawn further in; on the held-out decisions
# it agrees with play to the end better than the hand-made leaf and the bot's (typical
# 0.80 against 0.75 and 0.76, home entries 0.55 against 0.41 and 0.30; docs/analysis.md
# "The judge's leaf"). One set for every number of seats: the calibration's scale per
# number of seats (calibration.py: a temperature, or a curve at 8 and 3 seats) carries it
# to 3 and 4 teams.
JUDGE: tuple[float, ...] = (
    -0.74419, 0.20299, 0.23927, -0.00973, 0.07334, 0.13343, 0.00478, 0.00207,
    -0.02351, 0.00314, 0.09387, 0.06878, 0.09209, 0.04593, 0.01989, 0.03682, 0.16849,
)  # fmt: skip


def fitted_weights(seats: int) -> tuple[float, ...]:
    """The fitted weights for this many seats; the 4-seat ones where none were fitted
    (2, 3, 5, 7, 8 seats: not measured)."""
    return TUNED.get(seats, TUNED[4])


def fitted_chances(board: Board, hands: Sequence[Sequence[str]]) -> list[float]:
    """``tuned_chances`` with the weights fitted for the board's number of seats."""
    return tuned_chances(board, hands, fitted_weights(board.seats))


def judge_chances(board: Board, hands: Sequence[Sequence[str]]) -> list[float]:
    """``tuned_chances`` with the judge's weights (``JUDGE``)."""
    return tuned_chances(board, hands, JUDGE)
