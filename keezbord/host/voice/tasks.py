"""A lesson's step, a puzzle's verdict and the puzzle's hints spoken: their words are the
lesson's and the puzzle's own (the page shows the same ``task``, ``verdict``, ``hints``
and ``answer`` texts); said when they change, a hint or the answer as the coach's remark
is ("Tip: ..." / "Hint: ..."). Lessons and puzzles show their hand on the page to
everyone, so these are the table's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keezbord.engine.text import Text
from keezbord.engine.topology import Topology

from . import spoken
from .phrases import Utterance, hint_phrase


def _text(d: Any) -> Text | None:
    if isinstance(d, Mapping) and isinstance(d.get("nl"), str) and isinstance(d.get("en"), str):
        return Text(d["nl"], d["en"])
    return None


def _list(d: Any) -> list[Any]:
    return d if isinstance(d, list) else []


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
    return out + _help(kind, old or {}, new, topo)


def _help(
    kind: str, old: Mapping[str, Any], new: Mapping[str, Any], topo: Topology
) -> list[Utterance]:
    """The hints asked since ``old`` (a puzzle's: the card, then the pawn), then the
    answer once shown."""
    had, hints = (_list(v.get("hints")) for v in (old, new))
    asked = [h for i, h in enumerate(hints) if i >= len(had) or had[i] != h]
    out = [hint_phrase(f"{kind}_hint", t, topo) for t in map(_text, asked) if t is not None]
    answer = _text(new.get("answer"))  # "Het antwoord: ..." says what it is
    if answer is not None and new.get("answer") != old.get("answer"):
        out.append(Utterance(f"{kind}_hint", spoken.words(topo, answer)))
    return out
