"""The page's review after the game (issue 27): the finished game analysed on a worker
thread (engine/analysis.py), the chart filled in as its rows come, kept in the journal
when done (host/analysis/store.py), and "try again" for a person's labelled decision.

The ``Analyst`` watches the hub's decisions (an observer, as the club link is): when a
game is over it analyses it, unless the journal already holds its analysis (a resumed
host). A new game leaves the old analysis (it is cancelled if still running: the
command line's ``keezbord analyse --game N`` makes it whenever wanted).

Nothing that reveals a hand reaches a page before the game is over, except the referee's
(``payload``); the state carries only the progress (``view``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from keezbord.engine.analysis import GameAnalysis, Row
from keezbord.engine.describe import describe_move
from keezbord.engine.hand_record import GameRecord, TurnRecord
from keezbord.engine.judge import ANALYSIS_PLAYOUTS
from keezbord.engine.movegen import successor_positions
from keezbord.host.analysis.parallel import analyse_rows, cores
from keezbord.host.analysis.record import record_of_journal
from keezbord.host.analysis.store import document, load, save
from keezbord.host.journal import Journal
from keezbord.host.roles import Role

from .actions import pawns_of
from .board_task import move_holes


class Host(Protocol):
    """What the analyst needs of the hub (web/hub.py)."""

    session: Any  # GameSession: .game, .state, .journal
    sim: Any  # SimTable or None
    observers: list[Callable[[list[dict[str, Any]]], None]]
    opts: Any  # HubOptions: .db, .analysis_playouts, .analysis_jobs

    def call_soon(self, fn: Callable[[], None]) -> None: ...
    def changed(self) -> None: ...


class AnalysisError(ValueError):
    """A request the analysis cannot answer; ``status`` for the page (403, 404)."""

    def __init__(self, status: int, nl: str, en: str) -> None:
        super().__init__(en)
        self.status = status
        self.text = {"nl": nl, "en": en}


class Analyst:
    def __init__(self, hub: Host, *, playouts: int | None = None, seed: int = 0) -> None:
        self.hub = hub
        if playouts is None:
            playouts = hub.opts.analysis_playouts
        self.playouts = ANALYSIS_PLAYOUTS if playouts is None else playouts
        jobs = getattr(hub.opts, "analysis_jobs", None)
        self.jobs = cores() if jobs is None else jobs  # the same rows whatever the number
        self.seed = seed
        self.lock = threading.Lock()
        self.game: int | None = None
        self.state = "none"  # running, done, failed
        self.done = self.total = 0
        self.record: GameRecord | None = None
        self.analysis: GameAnalysis | None = None
        self.doc: dict[str, Any] | None = None  # the finished document
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        hub.observers.append(self._observe)
        self.check()

    # -- running ---------------------------------------------------------------------------

    def _observe(self, records: list[dict[str, Any]]) -> None:
        if any(r.get("type") in ("win", "time_limit") for r in records):
            self.check()

    def check(self) -> None:
        """Start on the current game if it is over and not analysed yet (on the loop)."""
        session = self.hub.session
        gid = session.game
        if self.game != gid and self.state == "running":
            self.cancel()
        if not session.state.over or self.playouts <= 0 or self.game == gid:
            return
        stored = load(session.journal.db, gid)
        with self.lock:
            self.game, self.done, self.record, self.analysis = gid, 0, None, None
            if stored is not None and stored.get("rows"):
                self.doc, self.state = stored, "done"
                self.total = sum(1 for r in stored["rows"] if r.get("type") == "decision")
                return
            self.doc, self.state = None, "running"
        self._cancel = threading.Event()
        self._thread = threading.Thread(
            target=self._work,
            args=(gid, Path(self.hub.opts.db), self._cancel),
            name="analysis",
            daemon=True,
        )
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()
        with self.lock:
            if self.state == "running":
                self.state = "none"

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self, gid: int, db: Path, cancel: threading.Event) -> None:
        try:
            with Journal(db, readonly=True) as journal:
                record = record_of_journal(journal, gid)
            analysis = GameAnalysis(record, self.playouts, self.seed)
            with self.lock:
                if cancel.is_set():  # a new game's analysis may have begun meanwhile
                    return
                self.record, self.analysis = record, analysis
                self.total = len(record.decisions)
            rows = analyse_rows(
                record, playouts=self.playouts, seed=self.seed, jobs=self.jobs, give_way=True
            )
            with contextlib.closing(rows):  # a cancel stops the workers
                for row in rows:
                    with self.lock:
                        if cancel.is_set():
                            return
                        analysis.rows.append(row)
                        self.done += isinstance(row, Row)
                    self._changed()
            doc = document(gid, analysis)
            db_ = sqlite3.connect(db, isolation_level=None, timeout=30)
            try:
                save(db_, gid, doc)
            finally:
                db_.close()
            with self.lock:
                if not cancel.is_set():
                    self.doc, self.state = doc, "done"
        except Exception as e:  # a host must keep running whatever one analysis does
            print(f"keezbord: the analysis of game {gid} failed: {e!r}")
            with self.lock:
                self.state = "failed"
        self._changed()

    def _changed(self) -> None:
        """Tell the pages (from the worker: the hub's loop may be closing)."""
        with contextlib.suppress(RuntimeError):
            self.hub.call_soon(self.hub.changed)

    # -- what a page gets ------------------------------------------------------------------

    def view(self) -> dict[str, Any] | None:
        """For the state message (every role): how far the analysis is, nothing more."""
        if self.game is not None and self.game != self.hub.session.game:
            self.cancel()  # a new game began: its page has no use for the old one's
            return None
        with self.lock:
            if self.game is None:
                return None
            return {"game": self.game, "state": self.state, "done": self.done, "total": self.total}

    def _allowed(self, role: Role) -> None:
        if not self.hub.session.state.over and role is not Role.REFEREE:
            raise AnalysisError(
                403,
                "de analyse toont handen: pas na het spel",
                "the analysis shows hands: only after the game",
            )

    def people(self) -> list[int]:
        """The seats persons play (in the simulator not the bots)."""
        sim = self.hub.sim
        seats = self.hub.session.state.pos.seats
        return [s for s in range(seats) if sim is None or not sim.is_bot(s)]

    def payload(self, role: Role) -> dict[str, Any]:
        """The rows, summary and curve so far (the referee's page at any time, the
        others' once the game is over)."""
        self._allowed(role)
        with self.lock:
            if self.game is None or self.game != self.hub.session.game:
                raise AnalysisError(404, "nog geen analyse", "no analysis yet")
            doc = self.doc
            if doc is None:
                doc = (
                    document(self.game, self.analysis)
                    if self.analysis is not None
                    else {"game": self.game, "rows": [], "summary": None, "curve": [], "teams": []}
                )
            return {
                **doc,
                "state": self.state,
                "done": self.done,
                "total": self.total,
                "people": self.people(),
            }

    # -- try again -------------------------------------------------------------------------

    def _turn(self, n: int, role: Role) -> tuple[TurnRecord, Row]:
        """The decision of move ``n`` that a person may try again."""
        self._allowed(role)
        if role is Role.SPECTATOR:
            raise AnalysisError(403, "alleen voor spelers", "for players only")
        with self.lock:
            doc = self.doc
            record = self.record
        if doc is None:
            raise AnalysisError(404, "de analyse is nog bezig", "the analysis is still running")
        row = next((r for r in doc["rows"] if r.get("type") == "decision" and r["n"] == n), None)
        if row is None or not row.get("label") or row["seat"] not in self.people():
            raise AnalysisError(
                404, "geen fout van een speler bij die zet", "no mistake of a person at that move"
            )
        if record is None:  # a stored analysis (a resumed host): read the game again
            with Journal(self.hub.opts.db, readonly=True) as journal:
                record = record_of_journal(journal, doc["game"])
            with self.lock:
                self.record = record
        return record.turns[row["index"]], _row(row)

    def game_of_review(self) -> int | None:
        """The game whose analysis the review shows (a retry's setup names it)."""
        with self.lock:
            return None if self.doc is None else int(self.doc["game"])

    def retry(self, n: int, role: Role) -> dict[str, Any]:
        """What the page needs to try move ``n`` again: the position before it, the hand,
        and every legal move of each card (notation, words, holes left and reached)."""
        from keezbord.engine.retry import retry_target

        turn, row = self._turn(n, role)
        pos, hand = retry_target(turn)
        moves: dict[str, list[dict[str, Any]]] = {}
        for card in dict.fromkeys(hand):
            moves[card] = []
            for after, move in successor_positions(pos, card).items():
                moves[card].append(
                    {
                        "move": str(move),
                        "text": describe_move(pos, move).as_dict(),
                        **move_holes(pos, after),
                        "after": pawns_of(after),
                    }
                )
        return {
            "n": n,
            "seat": turn.seat,
            "before": pawns_of(pos),
            "hand": list(hand),
            "hand_known": turn.hand_known,
            "played": row.move,
            "label": row.label,
            "moves": moves,
        }

    def judge(self, n: int, move: str, role: Role) -> dict[str, Any]:
        """The new move for move ``n``: best, good enough or still a mistake."""
        from keezbord.engine.notation import IllegalMoveError, InvalidMoveError
        from keezbord.engine.retry import judge_retry

        turn, row = self._turn(n, role)
        try:
            verdict = judge_retry(turn, row, move, seed=n)
        except (IllegalMoveError, InvalidMoveError) as e:
            raise AnalysisError(400, f"geen geldige zet: {e}", f"not a legal move: {e}") from None
        return {"n": n, **verdict.to_dict()}


def stored_decision(db: Path, game: int, n: int) -> tuple[TurnRecord, Row] | None:
    """Move ``n`` of ``game`` as its analysis kept in the journal labelled it (a retry
    played on the board, web/retry_play.py); None: no labelled decision there."""
    with Journal(db, readonly=True) as journal:
        doc = load(journal.db, game)
        if doc is None:
            return None
        row = next(
            (r for r in doc["rows"] if r.get("type") == "decision" and r["n"] == n and r["label"]),
            None,
        )
        if row is None:
            return None
        record = record_of_journal(journal, game)
    return record.turns[row["index"]], _row(row)


def _row(d: Mapping[str, Any]) -> Row:
    """A stored row back as a ``Row`` (what judging a retry reads of it)."""
    return Row(
        d["index"],
        d["n"],
        d["seat"],
        (),
        d["card"],
        d["move"],
        d["win"],
        d["best"]["move"],
        d["best"]["win"],
        d["loss"],
        d["label"],
        tuple(d["hand"]),
        d["hand_known"],
        d["candidates"],
        (d["deal"][0], d["deal"][1]),
    )
