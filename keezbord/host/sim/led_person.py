"""A simulated person who does what the board's LEDs say, and nothing else (issue 28: the
people at the table carrying out a remote player's lit move; issue 26 builds the fuller
one that also reads the page's words, and this one's interface is what it replaces).

The interface: ``next_touch(frame, sensed, hand)`` is the person's next touch of the
board, given the LED frame (hole -> role, FORMATS.md roles), what the switches sense and
the pawns in the person's hand (each remembered with the role its hole had when it was
lifted: a person knows which pawn they hold). The caller makes the touch (a hole event
through the board), reads the new frame and asks again; None: nothing to do.

What the roles ask (docs/remote.md, "The lit move"): ``source`` a pawn to lift (both of
a jack's), ``target`` where it goes (a pawn standing there is the victim), ``victim``
the nest hole the victim goes to, ``error`` a pawn that must go, ``restore`` a hole that
needs a pawn back. Pure: no time, no randomness but the caller's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Touch = tuple[Literal["lift", "place"], str]


@dataclass(frozen=True)
class Held:
    """A pawn in the person's hand: where it came from and what its hole was lit as."""

    hole: str
    role: str | None


def lit(frame: Mapping[str, str], role: str) -> list[str]:
    return sorted(h for h, r in frame.items() if r == role)


def next_touch(
    frame: Mapping[str, str], sensed: frozenset[str], hand: Sequence[Held]
) -> Touch | None:
    """The next touch of a person following ``frame`` (see the module's docstring)."""

    def empty(holes: list[str]) -> list[str]:
        return [h for h in holes if h not in sensed]

    def full(holes: list[str]) -> list[str]:
        return [h for h in holes if h in sensed]

    sources, targets, victims = lit(frame, "source"), lit(frame, "target"), lit(frame, "victim")
    if full(sources):  # every pawn to lift first (a jack's two are in hand at once)
        return ("lift", full(sources)[0])
    holds_victim = any(p.role == "target" for p in hand)
    if holds_victim and empty(victims):
        return ("place", empty(victims)[0])
    if full(targets) and empty(victims) and not holds_victim:
        return ("lift", full(targets)[0])  # the victim off the hole the mover goes to
    movers = [p for p in hand if p.role == "source"]
    if movers:
        free = [h for h in empty(targets) if h != movers[-1].hole] or empty(targets)
        if free:
            return ("place", free[0])
    if full(lit(frame, "error")):
        return ("lift", full(lit(frame, "error"))[0])
    if hand and empty(lit(frame, "restore")):
        return ("place", empty(lit(frame, "restore"))[0])
    return None


def carry(hand: list[Held], touch: Touch, frame: Mapping[str, str]) -> Held | None:
    """The person's hand after ``touch``: a lifted pawn taken (remembering its hole's
    role), or the pawn put down returned: the victim on its nest, a moved pawn on its
    target, anything on a restore hole."""
    action, hole = touch
    if action == "lift":
        hand.append(Held(hole, frame.get(hole)))
        return None
    want = {"victim": "target", "target": "source"}.get(frame.get(hole, ""))
    pick = next(
        (i for i in range(len(hand) - 1, -1, -1) if want is None or hand[i].role == want),
        len(hand) - 1,
    )
    return hand.pop(pick)


def slip(hole: str, sensed: frozenset[str], frame: Mapping[str, str], names: Sequence[str],
         rng: random.Random) -> str:  # fmt: skip
    """A careless person's hole instead of ``hole``: one beside it on the track, free and
    not lit (else ``hole`` itself)."""
    if not hole.startswith("T"):
        return hole
    n = int(hole[1:])
    ring = sum(1 for h in names if h.startswith("T"))
    near = [f"T{(n + d) % ring}" for d in (1, -1, 2, -2)]
    free = [h for h in near if h not in sensed and h not in frame and h in names]
    return rng.choice(free[:2]) if free else hole
