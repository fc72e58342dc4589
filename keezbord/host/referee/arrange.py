"""The set-up mode (issue 26 part 1): the board is guided to a target position before a
game, a lesson's step or a puzzle begins from it.

The switches sense presence only, so the mode follows every pawn through the hands as
the referee does in a game (hands.py): a pawn lifted and put down while nothing else is
in hand is the same pawn, with its colour. Pawns whose colour is not known (on the track
when the mode began, unless the board showed the position it was believed to) are asked
to the nest of their colour, which tells it; a pawn put in a nest while its colour was
in doubt is taken to be of that nest's colour, as a person puts it there. When two pawns
of different colours were in hand at once and the touches cannot tell which went where,
the mode asks (both holes lit): "which pawn is blue? lift it and put it back".

Each hole event updates what the touches know and the plan (arrange_plan.py); the first
task of the plan is the instruction (a ``setup_task`` decision when it changes, its
holes lit: the pawn to take ``source``, where it goes ``target``, a pawn put where it
does not belong ``error``). A pawn of a known colour put where the target wants another
is said at once (``setup_wrong``). The mode ends (``setup_done``) when the board shows
the target and every pawn's colour is known; the game then begins from the target.
Pure: the state is a value, every input gives a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from keezbord.engine.position import Position
from keezbord.host.events import HoleEvent, SwitchRead

from . import hands
from .arrange_plan import (
    DONE,
    HAND,
    OWN_NEST,
    UNKNOWN,
    Task,
    ask_text,
    is_nest,
    left_text,
    plan,
    task_text,
    wrong_text,
)
from .recognize import colours, nest_seat
from .state import BOUNCE_MS, Decision, Effect, World, Worlds


@dataclass(frozen=True, slots=True)
class Arranging:
    target: Position
    worlds: Worlds  # the pawns as the touches carried them (hands.py), UNKNOWN colours too
    sensed: frozenset[str]
    plan: tuple[Task, ...] = ()  # what is left; plan[0] is lit
    shown: Task | None = None  # the instruction in words (plan[0], or the task its pawn
    # in hand carries on: "put a red pawn from red's nest on T0" while it is carried)
    asking: tuple[int, tuple[str, ...]] | None = None  # which of these holes holds the seat?
    told: int = 0  # instructions and questions given so far
    errors: frozenset[str] = frozenset()  # holes where a pawn was put that does not belong
    bounce: tuple[str, int, Worlds] | None = None  # the last lift, while it may bounce back
    last_lift: str | None = None  # the hole lifted last, while that pawn is in hand alone


def begin(target: Position, sensed: frozenset[str], believed: Position | None) -> Arranging:
    """The mode for ``target`` on the board ``sensed``, believed to show ``believed``
    (None: nothing known beyond the nests): a pawn on a hole where ``believed`` has one
    is of that colour; a nest's pawns are of its colour; pawns missing from the board
    are in hand (of the colours ``believed`` has and the board lacks)."""
    known = colours(believed) if believed is not None else {}
    arr = _replan(Arranging(target, (_believe(target, sensed, known),), sensed))
    return replace(arr, told=1) if arr.plan or arr.asking else arr


def _carried(new: Task, old: Task | None) -> bool:
    """``new`` is ``old`` with its pawn in hand: the same instruction, carried on."""
    return (
        old is not None
        and new.frm == HAND
        and old.frm != HAND
        and (new.seat, new.to) == (old.seat, old.to)
    )


def opening(arr: Arranging, t: int) -> list[Effect]:
    """What the mode says as it begins: the first instruction (or that it is done)."""
    if arr.plan or arr.asking is not None:
        return [_said(arr, t)]
    return [Decision(t, "setup_done", {"position": arr.target.to_text()}, DONE)]


def _believe(target: Position, sensed: frozenset[str], known: Mapping[str, int]) -> World:
    """One world: ``known`` colours where the board has a pawn, the nests' own, and the
    pawns short of four a seat off the board (in hand)."""
    pairs = frozenset((h, _seat_on(h, known)) for h in sensed)
    per_seat = [0] * target.seats
    for _, s in pairs:
        if s != UNKNOWN:
            per_seat[s] += 1
    # Off the board: the colours short of four a seat, when the board's own pawns are
    # all known (else a pawn off the board may be of any colour an unknown one lacks).
    off = max(0, 4 * target.seats - len(sensed))
    short = [s for s in range(target.seats) for _ in range(max(0, 4 - per_seat[s]))]
    unsure = any(s == UNKNOWN for _, s in pairs) and len(set(short)) > 1
    hand = [UNKNOWN] * off if unsure else (short + [UNKNOWN] * off)[:off]
    return (pairs, frozenset((h, h) for h, _ in pairs), tuple(sorted((s, HAND) for s in hand)))


def _seat_on(hole: str, known: Mapping[str, int]) -> int:
    """The colour known on ``hole``, else its nest's, else UNKNOWN."""
    if hole in known:
        return known[hole]
    seat = nest_seat(hole)
    return UNKNOWN if seat is None else seat


def step(arr: Arranging, ev: HoleEvent | SwitchRead, t: int) -> tuple[Arranging, list[Effect]]:
    """One switch event (or a full read) in the set-up mode."""
    effects: list[Effect] = []
    before = (arr.shown, arr.asking)
    if isinstance(ev, SwitchRead):
        # A full read (a restart, a link back): the colours stay where the pawns stayed.
        world = hands.certain(arr.worlds)
        known = {h: s for h, s in world[0] if h in ev.holes} if world is not None else {}
        world = _believe(arr.target, ev.holes, known)
        arr = replace(arr, worlds=(world,), sensed=ev.holes, bounce=None, last_lift=None)
    elif ev.action == "lift":
        arr = _lift(arr, ev.hole, t) if ev.hole in arr.sensed else arr
    elif ev.hole not in arr.sensed:
        arr = _place(arr, ev.hole, t, effects)
    arr = _replan(arr)
    if not arr.plan and arr.asking is None:
        if done(arr):
            effects.append(Decision(t, "setup_done", {"position": arr.target.to_text()}, DONE))
        return arr, effects
    if (arr.shown, arr.asking) != before:
        arr = replace(arr, told=arr.told + 1)
        effects.append(_said(arr, t))
    return arr, effects


def _lift(arr: Arranging, hole: str, t: int) -> Arranging:
    sensed = arr.sensed - {hole}
    worlds = _kept(arr, _plain(hands.lift(arr.worlds, hole)), sensed)
    held_before = len(arr.worlds[0][2])
    return replace(
        arr,
        worlds=worlds,
        sensed=sensed,
        bounce=(hole, t, arr.worlds),
        last_lift=hole if held_before == 0 else None,
        errors=arr.errors - {hole},
    )


def _plain(worlds: Worlds) -> Worlds:
    """The worlds without the pawns' origins (hands.py): setting up, only colours
    matter, and readings that differ in origins alone are one."""
    return hands.distinct(
        (pairs, frozenset((h, h) for h, _ in pairs), tuple(sorted((s, HAND) for s, _ in hand)))
        for pairs, _, hand in worlds
    )


def _kept(arr: Arranging, worlds: Worlds, sensed: frozenset[str]) -> Worlds:
    """``worlds``, or when they are too many to keep (several pawns in hand, again and
    again): one world with the colours every reading agreed on, the rest unknown."""
    if worlds:
        return worlds
    agreed = frozenset.intersection(*(w[0] for w in arr.worlds)) if arr.worlds else frozenset()
    known = {h: s for h, s in agreed if h in sensed and s != UNKNOWN}
    return (_believe(arr.target, sensed, known),)


def _place(arr: Arranging, hole: str, t: int, effects: list[Effect]) -> Arranging:
    b = arr.bounce
    if b is not None and b[0] == hole and t - b[1] < BOUNCE_MS:
        # The switch bounced as the magnet left: the pawn never left its hole.
        return replace(arr, worlds=b[2], sensed=arr.sensed | {hole}, bounce=None)
    alone = arr.last_lift
    worlds = tuple(
        w if w[2] else (w[0], w[1], ((UNKNOWN, HAND),)) for w in arr.worlds
    )  # a pawn from outside the hands: one that was never on the board
    worlds = _plain(hands.place(worlds, hole))
    owner = nest_seat(hole)
    task = arr.shown  # (the instruction its pawn carries on)
    if owner is not None and task is not None and task.to == OWN_NEST and task.frm == alone:
        # Asked to take this pawn, alone in hand, to the nest of its colour: the nest it
        # went to is its colour, whichever the touches thought it might be.
        told = tuple(w for w in worlds if dict(w[0]).get(hole) in (owner, UNKNOWN))
        worlds = (
            tuple(
                (w[0] - {(hole, s)} | {(hole, UNKNOWN)}, w[1], w[2])
                for w in told
                for s in [dict(w[0])[hole]]
            )
            or worlds
        )
    if owner is not None:
        # Put in a nest: a pawn whose colour the touches never knew is of the nest's
        # (the person sees it). A pawn whose colour is in doubt because two were in
        # hand is not read that way: a person who took the wrong pawn puts it where the
        # lights say, so the board asks instead.
        worlds = tuple(_in_nest(w, hole, owner) for w in worlds)
    if arr.asking is not None and alone == hole and hole in arr.asking[1]:
        # The answer: the pawn lifted and put back on its hole is of the colour asked.
        seat = arr.asking[0]
        answered = tuple(w for w in worlds if (hole, seat) in w[0])
        worlds = answered or worlds
        arr = replace(arr, asking=None)
    sensed = arr.sensed | {hole}
    worlds = _kept(arr, worlds, sensed)
    arr = replace(arr, worlds=worlds, sensed=sensed, bounce=None, last_lift=None)
    return _check(arr, hole, t, effects)


def _in_nest(w: World, hole: str, owner: int) -> World:
    if (hole, UNKNOWN) not in w[0]:
        return w
    return (w[0] - {(hole, UNKNOWN)} | {(hole, owner)}, w[1], w[2])


def _check(arr: Arranging, hole: str, t: int, effects: list[Effect]) -> Arranging:
    """A pawn of a known colour put where it does not belong: said at once."""
    world = hands.certain(arr.worlds)
    if world is None:
        return arr
    seat = dict(world[0]).get(hole, UNKNOWN)
    if seat == UNKNOWN:
        return arr
    owner = nest_seat(hole)
    want = colours(arr.target).get(hole) if owner is None else owner
    if want == seat:
        return arr
    if want is None and not _off_course(arr, hole):
        return arr  # put down on the way (a free hole): not yet wrong
    effects.append(
        Decision(t, "setup_wrong", {"hole": hole, "seat": seat}, wrong_text(seat, hole, want))
    )
    return replace(arr, errors=arr.errors | {hole})


def _off_course(arr: Arranging, hole: str) -> bool:
    """A pawn put on a free hole the target leaves empty, when the instruction said
    another hole: a miscount, said at once."""
    return bool(arr.plan) and arr.plan[0].to not in (hole, OWN_NEST)


def _replan(arr: Arranging) -> Arranging:
    world = hands.certain(arr.worlds)
    if world is None:
        # Which pawn went where is in doubt: first the pawns in hand down, then ask.
        held = arr.worlds[0][2]
        if held and arr.asking is not None and arr.last_lift in arr.asking[1]:
            return replace(arr, plan=(), shown=None)  # the answer is under way
        if held:
            task = Task(UNKNOWN, HAND, OWN_NEST)
        else:
            asking = _question(arr.worlds)
            if asking[1]:
                return replace(arr, plan=(), shown=None, asking=asking)
            # Not a question a lift can answer (a colour the touches never knew): that
            # pawn goes to the nest of its colour, which tells it.
            hole = sorted(hands.disputed(arr.worlds) | _disputed_nests(arr.worlds))[0]
            task = Task(UNKNOWN, hole, OWN_NEST)
        shown = arr.shown if _carried(task, arr.shown) else task
        return replace(arr, plan=(task,), shown=shown, asking=None)
    tasks = plan(world, arr.target)
    shown = None
    if tasks:
        shown = arr.shown if _carried(tasks[0], arr.shown) else tasks[0]
    return replace(arr, plan=tasks, shown=shown, asking=None)


def _question(worlds: Worlds) -> tuple[int, tuple[str, ...]]:
    """A colour to ask about and the holes that may hold it: two or more holes, and in
    every reading one of them holds that colour (so lifting it answers); else no holes."""
    disputed = sorted(hands.disputed(worlds) | _disputed_nests(worlds))
    maps = [dict(w[0]) for w in worlds]
    for seat in sorted({m[h] for m in maps for h in disputed if m.get(h, UNKNOWN) != UNKNOWN}):
        holes = tuple(h for h in disputed if any(m.get(h) == seat for m in maps))
        if len(holes) >= 2 and all(any(m.get(h) == seat for h in holes) for m in maps):
            return seat, holes
    return 0, ()


def _disputed_nests(worlds: Worlds) -> frozenset[str]:
    maps = [dict(w[0]) for w in worlds]
    nests = {h for m in maps for h in m if h[0] == "N"}
    return frozenset(h for h in nests if len({m.get(h) for m in maps}) > 1)


def done(arr: Arranging) -> bool:
    """The board shows the target and every pawn's colour is known."""
    world = hands.certain(arr.worlds)
    return (
        world is not None
        and all(s != UNKNOWN for _, s in world[0])
        and hands.shows(world, arr.target)
    )


def _said(arr: Arranging, t: int) -> Decision:
    view = setup_view(arr)
    data = {k: view[k] for k in ("kind", "seat", "holes", "left")}
    if arr.shown is not None:
        data["task"] = arr.shown.to_dict()
    return Decision(t, "setup_task", data, task_text(arr.shown) if arr.shown else _ask(arr))


def _ask(arr: Arranging) -> Any:
    assert arr.asking is not None
    return ask_text(*arr.asking)


def lit(arr: Arranging) -> dict[str, str]:
    """The LED frame: the instruction's holes (one instruction at a time)."""
    roles: dict[str, str] = {}
    if arr.asking is not None:
        return {h: "source" for h in arr.asking[1]}
    if not arr.plan:
        return roles
    task = arr.plan[0]
    world = hands.certain(arr.worlds)
    on = dict(world[0]) if world is not None else {}
    if is_nest(task.frm):
        seat = int(task.frm[1:])
        for h in sorted(arr.sensed):
            if nest_seat(h) == seat and on.get(h) == task.seat:
                roles[h] = "source"
    elif task.frm != HAND:
        roles[task.frm] = "error" if task.frm in arr.errors else "source"
    if is_nest(task.to):
        seat = int(task.to[1:])
        for k in range(1, 5):
            if f"N{seat}.{k}" not in arr.sensed:
                roles[f"N{seat}.{k}"] = "target"
    elif task.to[0] in "TH":
        roles[task.to] = "target"
    return roles


def setup_view(arr: Arranging) -> dict[str, Any]:
    """What the page shows of the set-up (docs/web.md ``setup``): the instruction in
    words (``text``), its kind (``move``, ``ask``, ``done``), the colour it names, the
    holes it lights, how many steps are left, the target and the colours known."""
    seat: int | None
    if arr.asking is not None:
        kind, seat, text = "ask", arr.asking[0], ask_text(*arr.asking)
    elif arr.shown is not None:
        task = arr.shown
        kind, seat = "move", (None if task.seat == UNKNOWN else task.seat)
        text = task_text(task)
    else:
        kind, seat, text = "done", None, DONE
    world = hands.certain(arr.worlds)
    return {
        "kind": kind,
        "seat": seat,
        "text": text.as_dict(),
        "holes": sorted(lit(arr)),
        "left": len(arr.plan) + (1 if arr.asking is not None else 0),
        "left_text": left_text(len(arr.plan)).as_dict() if arr.plan else None,
        "told": arr.told,
        "target": arr.target.to_text(),
        "errors": sorted(arr.errors),
    } | {"colours": {} if world is None else _colour_map(world)}


def _colour_map(world: World) -> dict[str, int | None]:
    return {h: None if s == UNKNOWN else s for h, s in world[0]}
