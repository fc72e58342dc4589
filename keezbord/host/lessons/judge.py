"""A lesson step judged (issue 26 part 2): the move the learner made, as the referee
accepted or refused it, against the move the step wants. A refused move is explained by
the rule it breaks (the engine's explain, through the referee's ``illegal`` reason); a
legal move that is not the task says what to look for; the right one says why."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from keezbord.engine.explain import explain
from keezbord.engine.movegen import has_legal_move, successor_positions
from keezbord.engine.position import Position
from keezbord.engine.text import Text
from keezbord.host.referee import Decision

from .course import LessonStep

TRY_AGAIN = Text("Probeer het nog eens.", "Try again.")
OTHER = Text(
    "Die zet mag, maar de les vraagt iets anders.",
    "That move is allowed, but the lesson asks for something else.",
)
MUST_PLAY = Text(
    "Je hebt een kaart die je kunt spelen, dus moet je spelen.",
    "You hold a card you can play, so you must play.",
)


@dataclass(frozen=True, slots=True)
class Verdict:
    result: Literal["right", "other", "wrong"]
    text: Text  # what the learner reads: why it is right, or what is wrong and why

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "text": self.text.as_dict()}


def wanted(step: LessonStep) -> Position | None:
    """The position the step's move leads to (None: the step is to show the hand)."""
    if step.move == "discard":
        return None
    assert step.card is not None
    found = successor_positions(Position.from_text(step.position), step.card)
    return next(after for after, move in found.items() if str(move) == step.move)


def judge(step: LessonStep, after: Position | None) -> Verdict:
    """The learner's move from the engine's side: ``after`` the position it left (None:
    the learner showed the hand)."""
    before = Position.from_text(step.position)
    if after is None:
        if step.move == "discard":
            return Verdict("right", step.why)
        return Verdict("wrong", _join(MUST_PLAY, TRY_AGAIN))
    if step.card is None:  # a sit-out step: every card is dead
        return Verdict("wrong", _join(MUST_PLAY, TRY_AGAIN))
    reason = explain(before, step.card, after)
    if reason is not None:
        return Verdict("wrong", _join(reason.text, TRY_AGAIN))
    if after.pawns == _pawns(wanted(step)):
        return Verdict("right", step.why)
    return Verdict("other", _join(step.hint or OTHER, TRY_AGAIN))


def judge_referee(step: LessonStep, decisions: Iterable[Decision]) -> Verdict | None:
    """The step judged from the referee's decisions on it (docs/lessons.md): its first
    ``move``, ``illegal`` (or ``second_card``) or ``discard``; None while there is none
    yet."""
    for d in decisions:
        if d.type == "move":
            return judge(step, Position.from_dict(d.data["position"]))
        if d.type in ("illegal", "second_card") and d.reason is not None:
            return Verdict("wrong", _join(d.reason, TRY_AGAIN))
        if d.type == "discard":
            if d.data.get("ok"):
                return judge(step, None)
            return Verdict("wrong", _join(d.reason or MUST_PLAY, TRY_AGAIN))
    return None


def judge_record(step: LessonStep, record: Mapping[str, Any]) -> Verdict | None:
    """``judge_referee`` for one decision as journalled (``Decision.to_record``)."""
    reason = record.get("reason")
    data = {k: v for k, v in record.items() if k not in ("t", "type", "reason")}
    text = Text(reason["nl"], reason["en"]) if isinstance(reason, dict) else None
    return judge_referee(step, [Decision(int(record.get("t", 0)), str(record["type"]), data, text)])


def step_setup(step: LessonStep) -> dict[str, Any]:
    """The referee's setup line for a step: its position, red to play, hints on (the
    lit targets help a learner); a lesson's game in the journal."""
    pos = Position.from_text(step.position)
    return {
        "type": "setup",
        "position": step.position,
        "dealer": pos.seats - 1,
        "hints": "targets",
        "mode": "lesson",
    }


def dead_hand(step: LessonStep) -> bool:
    """Every card of the step's hand has no legal move (a sit-out step)."""
    pos = Position.from_text(step.position)
    return not any(has_legal_move(pos, c) for c in step.hand)


def _pawns(pos: Position | None) -> Any:
    return None if pos is None else pos.pawns


def _join(a: Text, b: Text) -> Text:
    """Two sentences: the first begun with a capital and ended with a full stop (the
    referee's reasons are written as clauses)."""
    return Text(f"{_sentence(a.nl)} {b.nl}", f"{_sentence(a.en)} {b.en}")


def _sentence(s: str) -> str:
    s = s.strip()
    if not s:
        return s
    s = s[0].upper() + s[1:]
    return s if s[-1] in ".!?" else s + "."
