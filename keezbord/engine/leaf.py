"""What an unfinished playout is worth: a win chance for every team, summing to 1.

A playout that ends with a winner is worth 1 to the winning team and 0 to the others. One
that stops first (the horizon, the end of the round) is judged by the board: each team's
value is the sum of its seats' standing (``bots.seat_values``) and of what the cards its
seats still hold are worth (``CARD_KEEP``), and the chances are a softmax of those values
over ``SCALE``:

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
from .bots import CARD_KEEP, seat_values

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
