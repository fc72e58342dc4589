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

import json
import sqlite3
from collections import deque
from pathlib import Path
from typing import Any

from keezbord.host.events import Tick

from .journal import Journal, JournalWriteError, UnreadableSetup
from .journal_damage import Damage, DamagedGame, differs, recorded, set_aside_from
from .journal_status import write_error
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


def _replay(
    journal: Journal, gid: int, setup: Setup
) -> tuple[RefereeState, tuple[int, str, str] | None]:
    """The game replayed up to its last good input; the first bad one (its seq, the
    kind of trouble and what it is), if any."""
    state, _ = begin(setup)
    for seq, text, decided in recorded(journal.db, gid):
        try:
            event = input_from_dict(json.loads(text))
            after, effects = step(state, event)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            return state, (seq, "unreadable", f"it does not read ({e})")
        why = differs(decided, [x.to_record() for x in effects if isinstance(x, Decision)])
        if why is not None:
            return state, (seq, "differs", why)
        state = after
    return state, None


def _count(journal: Journal, gid: int) -> int:
    row = journal.db.execute(
        "SELECT coalesce(max(seq) + 1, 0) FROM inputs WHERE game = ?", (gid,)
    ).fetchone()
    return int(row[0])


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
        self.damage: Damage | None = None  # what a resume set aside (journal_damage.py)
        self.opened_moves = len(state.history)  # (the page says it until the next move)

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def start(cls, path: str | Path, setup: dict[str, Any]) -> GameSession:
        """A new game in the journal at ``path`` (created if need be)."""
        parsed = setup_from_dict(setup)
        journal = Journal(path)
        try:
            game = journal.new_game(setup)
        except BaseException:  # a full disk: the journal stays as it was, and closed
            journal.close()
            raise
        state, effects = begin(parsed)
        recent = [e.to_record() for e in effects if isinstance(e, Decision)]
        freeze_heap()
        return cls(journal, game, parsed, setup, state, 0, recent)

    @classmethod
    def resume(cls, path: str | Path, game: int | None = None) -> GameSession:
        """The journalled game (default: the latest) as it stood at its last input, or
        at its last good one: an input that does not read, or whose replay differs from
        the decisions journalled for it, is set aside with every input after it
        (journal_damage.py; ``damage`` says so). A setup that does not read: DamagedGame."""
        journal = Journal(path)
        try:
            gid = journal.game(game)
            try:
                raw = journal.setup(gid)
                parsed = setup_from_dict(raw)
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                why = e.why if isinstance(e, UnreadableSetup) else str(e)
                raise DamagedGame(path, gid, f"its setup row does not read ({why})") from None
            state, bad = _replay(journal, gid, parsed)
            try:
                damage = None if bad is None else set_aside_from(journal.db, gid, *bad)
            except sqlite3.OperationalError as e:  # a full disk: said as such
                raise write_error(e) from None
            if damage is not None:
                journal.flush()
            recent = journal.last_decisions(gid, RECENT)
        except BaseException:
            journal.close()
            raise
        clear_caches()  # filled by the replay; the game goes on from one position
        freeze_heap()
        seq = bad[0] if bad is not None else _count(journal, gid)
        session = cls(journal, gid, parsed, raw, state, seq, recent)
        session.damage = damage
        return session

    def close(self) -> None:
        self.journal.close()

    # -- inputs ----------------------------------------------------------------------

    def feed(self, event: Input) -> list[Effect]:
        """Referee one input; it and its decisions are durable before they are returned."""
        state, effects = step(self.state, event)
        records = [e.to_record() for e in effects if isinstance(e, Decision)]
        failing = self.journal.write_error is not None
        try:
            self.journal.append(self.game, self.seq, input_to_dict(event), records)
        except JournalWriteError as e:
            # Not refereed: the game stays as it was (nothing shown that is not kept) and
            # goes on with the next input the disk takes. Said once (journal_status.py).
            if not failing:
                print(f"keezbord: {e}; the game waits until it can be written", flush=True)
            return []
        if failing:
            print("keezbord: the journal is written again; the game goes on", flush=True)
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
