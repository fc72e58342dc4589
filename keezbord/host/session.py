"""A game refereed for a long-running host: the pure referee plus its journal.

    session = GameSession.start("keezbord.db", {"type": "setup", "seats": 4, "dealer": 3})
    effects = session.feed(HoleEvent(1200, "lift", "N0.1"))   # journalled, then returned
    page = session.snapshot()                                  # JSON-able, for the web page

``GameSession.resume(path)`` rebuilds the latest game by replaying its journalled inputs
through ``step`` (pure, so the result is the game as it was); the board driver's first
full read of the switches, fed as a ``SwitchRead`` input, then tells the referee what the
board shows now, and it guides the players to put the board right if it differs. Inputs
are journalled with their decisions *before* ``feed`` returns them, so whatever the
players were shown survives a power cut.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from keezbord.host.events import Tick

from .journal import Journal
from .referee import (
    Decision,
    Effect,
    Input,
    Leds,
    Overrule,
    RefereeState,
    Setup,
    Undo,
    begin,
    board_of,
    clear_caches,
    deadline,
    frame,
    freeze_heap,
    input_from_dict,
    input_to_dict,
    setup_from_dict,
    step,
    trace_lines,
)

RECENT = 20  # decisions kept for the snapshot


class GameSession:
    def __init__(
        self,
        journal: Journal,
        game: int,
        setup: Setup,
        setup_raw: dict[str, Any],
        state: RefereeState,
        seq: int,
        recent: list[dict[str, Any]],
    ) -> None:
        self.journal = journal
        self.game = game
        self.setup = setup
        self.setup_raw = setup_raw
        self.state = state
        self.seq = seq
        self.recent: deque[dict[str, Any]] = deque(recent, maxlen=RECENT)

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def start(cls, path: str | Path, setup: dict[str, Any]) -> GameSession:
        """A new game in the journal at ``path`` (created if need be)."""
        parsed = setup_from_dict(setup)
        journal = Journal(path)
        game = journal.new_game(setup)
        state, effects = begin(parsed)
        recent = [e.to_record() for e in effects if isinstance(e, Decision)]
        freeze_heap()
        return cls(journal, game, parsed, setup, state, 0, recent)

    @classmethod
    def resume(cls, path: str | Path, game: int | None = None) -> GameSession:
        """The journalled game (default: the latest) as it stood at its last input."""
        journal = Journal(path)
        gid = journal.game(game)
        raw = journal.setup(gid)
        parsed = setup_from_dict(raw)
        state, _ = begin(parsed)
        seq = 0
        for d in journal.iter_inputs(gid):
            state, _ = step(state, input_from_dict(d))
            seq += 1
        recent = journal.last_decisions(gid, RECENT)
        clear_caches()  # filled by the replay; the game goes on from one position
        freeze_heap()
        return cls(journal, gid, parsed, raw, state, seq, recent)

    def close(self) -> None:
        self.journal.close()

    # -- inputs ----------------------------------------------------------------------

    def feed(self, event: Input) -> list[Effect]:
        """Referee one input; it and its decisions are durable before they are returned."""
        state, effects = step(self.state, event)
        records = [e.to_record() for e in effects if isinstance(e, Decision)]
        self.journal.append(self.game, self.seq, input_to_dict(event), records)
        self.seq += 1
        self.state = state
        self.recent.extend(records)
        return effects

    def tick(self, t: int) -> list[Effect]:
        """Let time pass; journalled only when a deadline fires (nothing else changes)."""
        due = deadline(self.state)
        if due is None or due > t:
            return []
        return self.feed(Tick(t))

    def undo_last_move(self, t: int | None = None) -> list[Effect]:
        return self.feed(Undo(self.state.now if t is None else t))

    def overrule(
        self, reason: str, move: str | None = None, *, correct: bool = False, t: int | None = None
    ) -> list[Effect]:
        """The referee (control token) accepts the board as played, or corrects the last
        recorded move, with a reason; journalled and exported like any input."""
        return self.feed(Overrule(self.state.now if t is None else t, reason, move, correct))

    # -- views -----------------------------------------------------------------------

    def snapshot(self, lang: str = "en", history: bool = True) -> dict[str, Any]:
        """Everything a web page shows, JSON-able. Reasons come in both languages
        (``{"nl": ..., "en": ...}``); ``lang`` only picks the ``text`` of the flag.
        ``history=False``: without the history (the web page keeps its own, per move)."""
        s = self.state
        topo = s.pos.topology
        table = s.table
        flag = None
        if s.flag is not None:
            flag = {
                "reason": s.flag.reason.as_dict(),
                "text": s.flag.reason.get(lang),
                "error": list(s.flag.error),
                "restore": list(s.flag.restore),
                "pairs": [list(p) for p in s.flag.pairs],
            }
        return {
            "game": self.game,
            "position": s.pos.to_dict(),
            "turn": s.seat,
            "card": s.card,
            "table": {
                "dealer": table.dealer,
                "shuffle": table.shuffle_no,
                "round": table.round_no,
                "cards_left": list(table.cards_left),
                "sitting_out": list(table.sitting_out()),
            },
            "history": [
                {
                    "t": r.t,
                    "seat": r.seat,
                    "card": r.card,
                    "move": r.text,
                    **({"overruled": r.overruled} if r.overruled else {}),
                }
                for r in (s.history if history else ())
            ],
            "decisions": list(self.recent),
            "leds": dict(s.leds),
            "board": sorted(s.sensed),
            "expected_board": sorted(h for h in board_of(s.pos)),
            "flag": flag,
            "ambiguous": [m.text(topo) for m, _ in s.ambiguous],
            "winner": None if s.winner is None else list(s.winner),
            "hints": s.config.hints,
        }

    def leds(self) -> Leds:
        return Leds(self.state.now, frame(self.state))

    def export_trace(self) -> list[str]:
        """The game so far as trace lines (setup, then every input), for ``replay``."""
        events = [input_from_dict(d) for d in self.journal.inputs(self.game)]
        return list(trace_lines(self.setup_raw, events))
