"""The game analysis over several processes (``keezbord analyse --jobs N``, the page's
analysis): every core of the machine for the wall time, the same rows as one process.

Each decision is judged on its own (engine/analysis.judge_turn, seeded by the game's
seed and its turn number), so the decisions are handed out to a pool of workers one at
a time and their rows collected in the game's order: the result is the one
``analysis.iter_rows`` gives, whatever the number of processes. The engine stays a pure
function; the processes are the host's business.

The workers are started afresh (``spawn``: a host with threads must not fork) and cost
about a second to start, so a game of few decisions is judged in this process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Generator

from keezbord.engine.analysis import DiscardRow, Row, iter_rows, judge_turn
from keezbord.engine.hand_record import GameRecord, TurnRecord
from keezbord.engine.judge import ANALYSIS_PLAYOUTS

# Decisions a worker should have at least for a pool to pay for its start.
PER_WORKER = 20
MAX_JOBS = 64


def cores() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_jobs(jobs: int) -> int:
    """``jobs`` if it is a number of processes this can run, else ValueError (one line)."""
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"--jobs must be from 1 to {MAX_JOBS} (this machine has {cores()} cores)")
    return jobs


def _lower_priority() -> None:
    """A worker of the page's analysis gives way to the hub (pages, lights, referee)."""
    with contextlib.suppress(OSError):
        os.nice(5)


def _judge(job: tuple[TurnRecord, int, int, int | None, int]) -> Row:
    turn, n, playouts, total, seed = job
    return judge_turn(turn, n, playouts=playouts, total=total, seed=seed)


def analyse_rows(
    record: GameRecord,
    *,
    playouts: int = ANALYSIS_PLAYOUTS,
    total: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    give_way: bool = False,
) -> Generator[Row | DiscardRow, None, None]:
    """``analysis.iter_rows`` on ``jobs`` processes: the same rows in the same order.
    Stopping the iteration (closing the generator) stops the workers. ``give_way``: the
    workers run at a lower priority than this process."""
    decisions = record.decisions
    workers = min(check_jobs(jobs), len(decisions) // PER_WORKER)
    if workers <= 1:
        yield from iter_rows(record, playouts=playouts, total=total, seed=seed, progress=progress)
        return
    work = [(t, n, playouts, total, seed) for n, t in enumerate(decisions, 1)]
    start = _lower_priority if give_way else None
    with multiprocessing.get_context("spawn").Pool(workers, initializer=start) as pool:
        judged = pool.imap(_judge, work, chunksize=1)
        done = 0
        for turn in record.turns:
            if turn.card is None:
                yield DiscardRow(turn.index, turn.seat, turn.shown, turn.deal)
                continue
            yield next(judged)
            done += 1
            if progress is not None:
                progress(done, len(decisions))
