"""The simulated person who follows the board's lights (issue 26, reused by issue 28 for
a remote player's or the linked board's lit move, and a flag's restore LEDs).

One reading of the LED roles (FORMATS.md, docs/remote.md "The lit move", docs/setup.md),
``asked``, is the only place that says what each role asks of a person:

- ``source``: a pawn to lift (one of them when a nest's pawns are lit, until one is
  lifted; both of a jack's);
- ``error``: a pawn that must go;
- ``target``: where the pawn in hand goes (a pawn standing there is the victim: it goes
  first);
- ``victim``: the nest hole the victim goes to (of the victim's colour);
- ``restore``: a hole that needs a pawn back.

Two front ends use it: ``next_touch`` here, the person's next touch given the frame,
what the switches sense and the pawns in hand (the live loop of sim/people.py, the lit
moves of tests/host/referee/test_lit.py), and follower.py's ``LedFollower``, one whole
instruction of the set-up mode with a person's pace and mistakes (it also sees colours
and reads the instruction line). Pure here: no time, no randomness but the caller's.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Touch = tuple[Literal["lift", "place"], str]
ROLES = frozenset({"source", "target", "victim", "error", "restore"})  # what a person follows


@dataclass(frozen=True, slots=True)
class Asked:
    """What a frame asks of a person at a board with pawns on ``sensed``, read once."""

    lift: tuple[str, ...]  # lit source holes with a pawn: to lift
    errors: tuple[str, ...]  # lit error holes with a pawn: must go
    to: tuple[str, ...]  # lit target holes free: where the pawn in hand goes
    victims: tuple[str, ...]  # lit target holes with a pawn: that pawn goes first
    nests: tuple[str, ...]  # lit victim holes free: where a victim goes
    back: tuple[str, ...]  # lit restore holes free: a pawn in hand goes back there


def lit(frame: Mapping[str, str], role: str) -> list[str]:
    return sorted(h for h, r in frame.items() if r == role)


def asked(frame: Mapping[str, str], sensed: Collection[str]) -> Asked:
    """The reading of ``frame`` (hole -> role) at a board with pawns on ``sensed``."""

    def split(role: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        holes = lit(frame, role)
        return tuple(h for h in holes if h in sensed), tuple(h for h in holes if h not in sensed)

    (lift, _), (errors, _) = split("source"), split("error")
    (victims, to), (_, nests), (_, back) = split("target"), split("victim"), split("restore")
    return Asked(lift, errors, to, victims, nests, back)


@dataclass(frozen=True)
class Held:
    """A pawn in the person's hand: where it came from and what its hole was lit as."""

    hole: str
    role: str | None


def next_touch(
    frame: Mapping[str, str], sensed: frozenset[str], hand: Sequence[Held]
) -> Touch | None:
    """The next touch of a person following ``frame``, given the pawns in ``hand`` (each
    remembered with the role its hole had when it was lifted). The caller makes the
    touch, reads the new frame and asks again; None: nothing to do."""
    a = asked(frame, sensed)
    if a.lift:  # every pawn to lift first (a jack's two are in hand at once)
        return ("lift", a.lift[0])
    holds_victim = any(p.role == "target" for p in hand)
    if holds_victim and a.nests:
        return ("place", a.nests[0])
    if a.victims and a.nests and not holds_victim:
        return ("lift", a.victims[0])  # the victim off the hole the mover goes to
    movers = [p for p in hand if p.role == "source"]
    if movers:
        free = [h for h in a.to if h != movers[-1].hole] or list(a.to)
        if free:
            return ("place", free[0])
    if a.errors:
        return ("lift", a.errors[0])
    if hand and a.back:
        return ("place", a.back[0])
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
