"""A mistake tried again with the real pawns (issue 27, docs/analysis.md "Try again"):
the page's ``retry_board`` request starts a game that sets the board up as the position
before move ``n`` of a reviewed game (board_task.py: the flow of lessons and puzzles);
the player holds the same hand, and the move made with the pawns is judged by
engine/retry.judge_retry off the loop: the best move, good enough, or still a mistake
(then taken back, to be tried again), in the coach's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.analysis import Row
from keezbord.engine.hand_record import TurnRecord
from keezbord.engine.notation import parse_move
from keezbord.engine.retry import RetryVerdict, judge_retry, retry_target
from keezbord.engine.text import Text

from .analyst import stored_decision
from .board_task import BoardTask, hold_text, holes_of, move_of_hand
from .puzzle_play import NOT_IN_HAND

if TYPE_CHECKING:
    from .hub import Hub


class RetryPlay(BoardTask):
    key = "retry"

    def __init__(self, hub: Hub, game: int, n: int, turn: TurnRecord, row: Row) -> None:
        super().__init__(hub)
        self.game, self.n = game, n
        self.turn, self.row = turn, row
        self.verdict: RetryVerdict | None = None
        self.refused = False
        self.tries = 0

    @classmethod
    def from_field(cls, hub: Hub, d: Mapping[str, Any]) -> RetryPlay | None:
        """``"retry": {"game", "n"}``: the decision as the journal's analysis keeps it."""
        game, n = int(d["game"]), int(d["n"])
        got = stored_decision(hub.opts.db, game, n)
        return None if got is None else cls(hub, game, n, *got)

    def task(self) -> Text:
        pos, hand = retry_target(self.turn)
        return hold_text(
            pos,
            hand,
            Text(
                f"speel zet {self.n} opnieuw, met de pionnen",
                f"play move {self.n} again, with the pawns",
            ),
        )

    def judge(self, record: Mapping[str, Any]) -> None:
        if record.get("type") != "move" or self.judging:
            return
        pos, hand = retry_target(self.turn)
        tapped = self.hub.session.state.config.reader
        best = parse_move(self.row.best_move, pos.topology)
        move = move_of_hand(pos, record, hand, tapped, (best.card,))
        self.tries += 1
        self.refused = move is None
        if move is None:
            self.verdict = None
            self.settle(False, take_back=True)
            return
        turn, row, n = self.turn, self.row, self.n
        self.off_loop(lambda: judge_retry(turn, row, move, seed=n), self._judged)

    def _judged(self, v: RetryVerdict) -> None:
        self.verdict = v
        self.settle(v.outcome != "mistake", take_back=v.outcome == "mistake")

    def view(self) -> dict[str, Any]:
        """The page's ``retry`` (docs/web.md)."""
        pos, hand = retry_target(self.turn)
        verdict: dict[str, Any] | None = None
        if self.refused:
            verdict = {"outcome": "mistake", "text": NOT_IN_HAND.as_dict()}
        elif self.verdict is not None:
            verdict = self.verdict.to_dict()
            if self.verdict.outcome == "mistake":  # the better move, lit on the page's board
                best = parse_move(self.verdict.best, pos.topology)
                verdict["better"] = {"move": self.verdict.best, **holes_of(pos, best)}
        return {
            "game": self.game,
            "n": self.n,
            "seat": pos.turn,
            "hand": list(hand),
            "played": self.row.move,
            "label": self.row.label,
            "task": self.task().as_dict(),
            "judging": self.judging,
            "tries": self.tries,
            "done": self.done,
            "verdict": verdict,
        }
