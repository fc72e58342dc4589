"""The collector and the referee's pauses (issue 14).

A full garbage collection walks every container object alive: tens of thousands after
start-up (modules, classes, the engine's tables), which paused an event by 14-94 ms.
Once a game is set up, those objects live as long as the process, so they are collected
once and then frozen (moved to the collector's permanent generation, never walked again);
what a game adds later is bounded (the caches in recognize.py)."""

from __future__ import annotations

import gc


def freeze_heap() -> None:
    """Collect now (set-up time, no event waits), then freeze what is left."""
    gc.collect()
    gc.freeze()
