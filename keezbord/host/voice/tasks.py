"""A lesson's step and a puzzle's verdict spoken: their words are the lesson's and the
puzzle's own (the page shows the same ``task`` and ``verdict`` texts); said when they
change. Lessons and puzzles show their hand on the page to everyone, so these are the
table's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keezbord.engine.text import Text
from keezbord.engine.topology import Topology

from . import spoken
from .phrases import Utterance


def _text(d: Any) -> Text | None:
    if isinstance(d, Mapping) and isinstance(d.get("nl"), str) and isinstance(d.get("en"), str):
        return Text(d["nl"], d["en"])
    return None


def task_phrases(
    kind: str, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, topo: Topology
) -> list[Utterance]:
    """``kind`` "lesson" or "puzzle": its page view before and now."""
    if new is None:
        return []
    out: list[Utterance] = []
    task = _text(new.get("task"))
    if task is not None and (
        old is None or old.get("task") != new.get("task") or old.get("step") != new.get("step")
    ):
        out.append(Utterance(kind, spoken.words(topo, task)))
    verdict = new.get("verdict")
    said = _text(verdict.get("text")) if isinstance(verdict, Mapping) else None
    before = old.get("verdict") if old is not None else None
    if said is not None and verdict != before:
        out.append(Utterance(f"{kind}_verdict", spoken.words(topo, said), True))
    return out
