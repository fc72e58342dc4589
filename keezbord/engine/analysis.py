"""After the game: every decision judged with what its player knew, the moves that lost
the game, and luck told apart from skill (issue 27, docs/analysis.md).

For every decision of a game (engine/hand_record.py) the judge (judge.py, the coach's
too) plays out each candidate of the hand held on deals of the others' hands sampled from
what the player knew: every team's win chance after the best choice and after the one
made, and the loss between them for the player's team. A decision whose hand is not fully known is
judged among the moves of the card played only. Discards are never a choice (one is
refused while a card can be played): they are rows of their own.

Labels by loss (judge.THRESHOLDS, calibrated for Keezen by bench/bench_analysis.py), an
accuracy per player, and each team's swing over the game split into what its own
decisions lost, what the other teams' decisions gave it, and what the cards changed
(every step of the team's win chance between two decisions: a new deal, the next
player's hand coming into view).

Deterministic for a seed and a budget: each decision is seeded by the game's seed and its
turn number, so it is judged the same whichever other decisions are analysed with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from .advice import remark_of
from .alternatives import DEFAULT_PLAYOUTS
from .board import from_move
from .describe import describe_move
from .hand_record import GameRecord, TurnRecord
from .judge import LABEL_WORDS as LABEL_WORDS
from .judge import THRESHOLDS as THRESHOLDS
from .judge import judge, judge_seed, shown_loss
from .judge import label_of as label_of
from .mistake_reason import mistake_reason
from .text import Text

# A label's mark in an annotated move list.
MARKS: Final = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
# Accuracy of a decision: 100 exp(-loss / ACCURACY_SCALE), a blunder's loss counting half.
ACCURACY_SCALE: Final = THRESHOLDS[0][1] / math.log(2)


def decision_accuracy(loss: float) -> float:
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


@dataclass(frozen=True, slots=True)
class Row:
    """One decision judged."""

    index: int  # the turn's number in the game, from 0
    n: int  # the move's number among the moves (1 for the first), as the move lists count
    seat: int
    team: tuple[int, ...]
    card: str
    move: str  # FORMATS.md notation
    win: float  # the team's win chance after the choice made
    best_move: str
    best_win: float  # after the best (may be below ``win``: judged again, it was not)
    loss: float  # max(0, best_win - win)
    label: str | None
    hand: tuple[str, ...]
    hand_known: bool  # False: judged among the card's moves only
    candidates: int
    deal: tuple[int, int]
    comment: Text | None = None  # for a labelled decision: the better move, why (coach)
    best_holes: tuple[str, ...] = ()  # the better move's pawns and targets (the board)
    dist: tuple[float, ...] = ()  # every team's chance after the move made (teams order)
    best_dist: tuple[float, ...] = ()  # after the best
    best_words: Text | None = None  # for a labelled decision: the better move in words
    why: Text | None = None  # for a labelled decision: why it was worse, in words
    words: Text | None = None  # for a labelled decision: the move made, in words

    @property
    def forced(self) -> bool:
        return self.candidates <= 1

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """``lang`` None: the comment in both languages (journal, page)."""

        def words(t: Text | None) -> Any:
            return None if t is None else t.as_dict() if lang is None else t.get(lang)

        return {
            "type": "decision",
            "index": self.index,
            "n": self.n,
            "seat": self.seat,
            "card": self.card,
            "move": self.move,
            "win": round(self.win, 4),
            "words": words(self.words),
            "best": {
                "move": self.best_move,
                "win": round(self.best_win, 4),
                "words": words(self.best_words),
            },
            "teams_win": [round(v, 4) for v in self.dist],
            "loss": round(self.loss, 4),
            "loss_shown": shown_loss(self.loss),  # points, cut as the label compares
            "label": self.label,
            "hand": list(self.hand),
            "hand_known": self.hand_known,
            "candidates": self.candidates,
            "deal": list(self.deal),
            "comment": words(self.comment),
            "why": words(self.why),
            "best_holes": list(self.best_holes),
        }


@dataclass(frozen=True, slots=True)
class DiscardRow:
    index: int
    seat: int
    cards: tuple[str, ...]
    deal: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "discard",
            "index": self.index,
            "seat": self.seat,
            "cards": list(self.cards),
            "deal": list(self.deal),
        }


def judge_turn(
    turn: TurnRecord, n: int, *, playouts: int = DEFAULT_PLAYOUTS, total: int | None, seed: int
) -> Row:
    """One decision: the candidates of the hand (of the card played only when the hand
    is not fully known) played out, the move made among them."""
    assert turn.card is not None and turn.move is not None
    pos, card, move = turn.pos, turn.card, turn.move
    v = judge(
        pos,
        turn.hand,
        turn.known,
        card,
        move,
        hand_known=turn.hand_known,
        playouts=playouts,
        total=total,
        seed=judge_seed(seed, turn.index),
    )
    win, best_win, judged, best = v.win, v.best_win, v.judged, v.best
    loss = max(0.0, best_win - win)
    label = label_of(loss)
    comment = best_words = why = words = None
    holes: tuple[str, ...] = ()
    if label is not None:
        remark = remark_of(pos, turn.hand, judged.to_analysis(), card, from_move(move), 0.0)
        if remark is not None:
            comment = remark.text
            holes = remark.better.holes
        best_words = describe_move(pos, best.move)
        words = describe_move(pos, move)
        why = mistake_reason(pos, turn.hand, move, best.move, v.mine.lost_rate, v.best.lost_rate)
    return Row(
        turn.index,
        n,
        turn.seat,
        pos.team_of(turn.seat),
        card,
        str(move),
        win,
        str(best.move),
        best_win,
        loss,
        label,
        turn.hand,
        turn.hand_known,
        len(v.first.ranked),
        turn.deal,
        comment,
        holes,
        v.dist,
        v.best_dist,
        best_words,
        why,
        words,
    )


# -- the game --------------------------------------------------------------------------


@dataclass
class GameAnalysis:
    """A game's rows (decisions and discards in order) and its summary."""

    record: GameRecord
    playouts: int
    seed: int
    rows: list[Row | DiscardRow] = field(default_factory=list)

    @property
    def decisions(self) -> list[Row]:
        return [r for r in self.rows if isinstance(r, Row)]

    def teams(self) -> list[tuple[int, ...]]:
        pos = self.record.start
        return list(dict.fromkeys(pos.team_of(s) for s in range(pos.seats)))

    def curve(self) -> list[list[float]]:
        """Each team's win chance after every decision (teams in ``teams()`` order): the
        judge's chances for every team after the move made, as the deciding seat saw
        them (a distribution: it sums to 1, whatever the number of teams)."""
        return [list(r.dist) for r in self.decisions]

    def split(self) -> list[dict[str, Any]]:
        """Each team's swing over the game (from an even start to the result) split into
        its own decisions, the other teams' decisions, and the cards (every change
        between two decisions, and the last decision to the result)."""
        teams = self.teams()
        now = [1.0 / len(teams)] * len(teams)
        own = [0.0] * len(teams)
        others = [0.0] * len(teams)
        cards = [0.0] * len(teams)
        for r in self.decisions:
            x = teams.index(r.team)
            before, after = list(r.best_dist), list(r.dist)
            for t in range(len(teams)):
                cards[t] += before[t] - now[t]
                (own if t == x else others)[t] += after[t] - before[t]
            now = after
        winner = self.record.winner
        end = [1.0 if winner == team else 0.0 for team in teams] if winner else list(now)
        out = []
        for t, team in enumerate(teams):
            cards[t] += end[t] - now[t]
            out.append(
                {
                    "seats": list(team),
                    "start": round(1.0 / len(teams), 4),
                    "end": round(end[t], 4),
                    "swing": round(end[t] - 1.0 / len(teams), 4),
                    "own": round(own[t], 4),
                    "cards": round(cards[t], 4),
                    "others": round(others[t], 4),
                }
            )
        return out

    def players(self) -> list[dict[str, Any]]:
        """Per seat: accuracy (the mean of ``decision_accuracy`` over its decisions that
        had a choice), decisions, labels, and the win chance its decisions lost."""
        out = []
        for seat in range(self.record.start.seats):
            mine = [r for r in self.decisions if r.seat == seat]
            chosen = [r for r in mine if not r.forced]
            acc = (
                round(sum(decision_accuracy(r.loss) for r in chosen) / len(chosen), 1)
                if chosen
                else None
            )
            labels = {name: sum(1 for r in mine if r.label == name) for name in MARKS}
            out.append(
                {
                    "seat": seat,
                    "accuracy": acc,
                    "decisions": len(mine),
                    "choices": len(chosen),
                    **labels,
                    "lost": round(sum(r.loss for r in mine), 4),
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        winner = self.record.winner
        return {
            "type": "summary",
            "source": self.record.source,
            "winner": None if winner is None else list(winner),
            "decisions": len(self.decisions),
            "discards": sum(1 for r in self.rows if isinstance(r, DiscardRow)),
            "unknown_hands": sum(1 for r in self.decisions if not r.hand_known),
            "players": self.players(),
            "teams": self.split(),
            "playouts": self.playouts,
            "seed": self.seed,
        }


def analyse_game(
    record: GameRecord,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Every decision of the game judged (``playouts`` per candidate, or ``total`` per
    decision); ``progress(done, of)`` after each."""
    out = GameAnalysis(record, playouts if total is None else total, seed)
    for row in iter_rows(record, playouts=playouts, total=total, seed=seed, progress=progress):
        out.rows.append(row)
    return out


def iter_rows(
    record: GameRecord,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Row | DiscardRow]:
    """The rows one by one, as they are judged (a page fills its chart meanwhile)."""
    of = len(record.decisions)
    done = n = 0
    for turn in record.turns:
        if turn.card is None:
            yield DiscardRow(turn.index, turn.seat, turn.shown, turn.deal)
            continue
        n += 1
        yield judge_turn(turn, n, playouts=playouts, total=total, seed=seed)
        done += 1
        if progress is not None:
            progress(done, of)
