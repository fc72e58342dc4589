"""What the set-up mode asks for next (issue 26 part 1): the tasks that turn a board, as
the touches know it, into a target position, and each task in words.

A *task* moves one pawn: of a colour (``UNKNOWN`` when the touches do not know it),
from a hole, from a seat's nest (``N<s>``: any of its pawns) or from off the board
(``HAND``: a pawn held, or never put on the board), to a hole, to a seat's nest
(``N<s>``), to the nest of its own colour (``OWN_NEST``: the person sees the colour,
the switches do not) or off the board (``OFF``: a pawn too many). ``plan`` lists them in
the order asked, from a world of hands.py (the pawns by colour on the holes and in
hand); the first is the instruction shown, the rest are what is left.

The order: pawns whose colour is unknown first (each goes to the nest of its colour,
which tells the switches its colour), then pawns in hand, then pawns straight to where
the target wants them, pawns in another seat's nest, pawns that are in the way to
their nest, pawns from the nests, and last a pawn of a ring of pawns blocking each
other (it goes to its nest, the others follow).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from keezbord.engine.position import NEST, Position
from keezbord.engine.text import Text
from keezbord.engine.topology import SEAT_COLOURS

from .recognize import colours, nest_seat
from .state import World

UNKNOWN: Final = -1  # a pawn whose colour the touches do not know
HAND: Final = "hand"
OWN_NEST: Final = "N?"
OFF: Final = "off"
MAX_TASKS: Final = 200  # a plan never needs more than a few per pawn


@dataclass(frozen=True, slots=True)
class Task:
    seat: int  # the pawn's colour, or UNKNOWN
    frm: str  # a hole, "N<s>" (a pawn of that nest) or HAND
    to: str  # a hole, "N<s>", OWN_NEST or OFF

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": None if self.seat == UNKNOWN else self.seat,
            "from": self.frm,
            "to": self.to,
        }


def is_nest(where: str) -> bool:
    """``N<s>``: any hole of seat s's nest (a nest hole itself is ``N<s>.<k>``)."""
    return where[0] == "N" and where != OWN_NEST and "." not in where


def landing(to: str, on: Mapping[str, int]) -> str | None:
    """The hole a task's pawn goes to with ``on`` (hole -> seat) as the board is: a nest's
    first free hole for ``N<s>``, the hole itself, None when it goes off the board (or the
    nest is full)."""
    if is_nest(to):
        seat = int(to[1:])
        return next((f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in on), None)
    return None if to == OFF else to


def plan(world: World, target: Position) -> tuple[Task, ...]:
    """The tasks, in order, that bring ``world`` to ``target``; () when it shows it.
    A task for a pawn of unknown colour ends the list: where it goes next is known once
    it is down."""
    want = colours(target)
    nest_want = [sum(1 for loc in locs if loc == NEST) for locs in target.pawns]
    on: dict[str, int] = dict(world[0])
    held = sorted((s for s, _ in world[2]), reverse=True)  # known colours first
    tasks: list[Task] = []
    while len(tasks) < MAX_TASKS:
        task = _next(on, held, want, nest_want)
        if task is None:
            break
        tasks.append(task)
        if task.seat == UNKNOWN:
            break  # where it goes is known once it is down
        _apply(on, held, task)
    return tuple(tasks)


def _free(on: Mapping[str, int], seat: int) -> list[str]:
    return [f"N{seat}.{k}" for k in range(1, 5) if f"N{seat}.{k}" not in on]


def _next(
    on: dict[str, int], held: list[int], want: Mapping[str, int], nest_want: list[int]
) -> Task | None:
    wrong = sorted(
        (h for h, s in on.items() if nest_seat(h) is None and want.get(h) != s), key=_order
    )
    intruders = sorted(h for h, s in on.items() if (n := nest_seat(h)) is not None and n != s)
    empty = sorted((h for h in want if h not in on), key=_order)

    def wanted(seat: int) -> str | None:
        return next((g for g in empty if want[g] == seat), None)

    if held:  # a pawn in hand goes down first (two in hand: which is which is unknown)
        seat = held[0]
        if seat == UNKNOWN:
            return Task(UNKNOWN, HAND, OWN_NEST)
        g = wanted(seat)
        if g is not None:
            return Task(seat, HAND, g)
        return Task(seat, HAND, f"N{seat}" if _free(on, seat) else OFF)
    for h in wrong:  # colours the switches do not know: to the nest of their colour
        if on[h] == UNKNOWN:
            return Task(UNKNOWN, h, OWN_NEST)
    for h in wrong:
        g = wanted(on[h])
        if g is not None:
            return Task(on[h], h, g)
    for h in intruders:
        seat = on[h]
        g = wanted(seat)
        return Task(seat, h, g if g is not None else (f"N{seat}" if _free(on, seat) else OFF))
    # In the way, and needed nowhere else: to the nest (or off: a pawn too many).
    for h in wrong:
        seat = on[h]
        if not any(want[g] == seat for g in want if on.get(g) != seat):
            return Task(seat, h, f"N{seat}" if _free(on, seat) else OFF)
    for g in empty:
        seat = want[g]
        in_nest = sum(1 for h, s in on.items() if nest_seat(h) == seat and s == seat)
        if in_nest > nest_want[seat]:
            return Task(seat, f"N{seat}", g)
    if wrong:  # a ring of pawns in each other's way: one goes to its nest first
        seat = on[wrong[0]]
        return Task(seat, wrong[0], f"N{seat}" if _free(on, seat) else OFF)
    return None


def _apply(on: dict[str, int], held: list[int], task: Task) -> None:
    """The task done, as far as the planner can tell (a pawn from a nest: its first)."""
    if task.frm == HAND:
        held.remove(task.seat)
    elif is_nest(task.frm):
        seat = int(task.frm[1:])
        hole = next(h for h in sorted(on) if nest_seat(h) == seat and on[h] == task.seat)
        del on[hole]
    else:
        del on[task.frm]
    if is_nest(task.to):
        on[_free(on, int(task.to[1:]))[0]] = task.seat
    elif task.to != OFF:
        on[task.to] = task.seat


def _order(hole: str) -> tuple[int, int, int]:
    """Track holes in ring order, then the homes."""
    if hole[0] == "T":
        return (0, int(hole[1:]), 0)
    return (1, int(hole[1 : hole.index(".")]), int(hole[hole.index(".") + 1 :]))


# -- in words --------------------------------------------------------------------------


def place_words(where: str) -> Text:
    """A hole as a player reads it: T12; hole 2 of blue's home; blue's nest."""
    if where[0] == "T":
        return Text(where, where)
    seat = int(where[1 : where.index(".")]) if "." in where else int(where[1:])
    c = SEAT_COLOURS[seat]
    if where[0] == "H":
        k = where[where.index(".") + 1 :]
        return Text(f"vak {k} van het thuishonk van {c.nl}", f"hole {k} of {c.en}'s home")
    return Text(f"het nest van {c.nl}", f"{c.en}'s nest")


def _on(where: str) -> Text:
    """ "op T12" / "on T12"; "in het nest van blauw" / "in blue's nest"."""
    w = place_words(where)
    if where[0] == "T":
        return Text(f"op {w.nl}", f"on {w.en}")
    return Text(f"in {w.nl}" if where[0] == "N" else f"op {w.nl}", f"in {w.en}")


def task_text(task: Task) -> Text:
    """The instruction, in words a child follows: which colour goes where."""
    if task.seat == UNKNOWN:
        if task.frm == HAND:
            return Text(
                "Zet de pion die je vasthoudt (of die naast het bord ligt) in het nest van "
                "zijn kleur",
                "Put the pawn you hold (or the one beside the board) in the nest of its colour",
            )
        return Text(
            f"Zet de pion van {task.frm} in het nest van zijn kleur",
            f"Take the pawn from {task.frm} to the nest of its colour",
        )
    c = SEAT_COLOURS[task.seat]
    own = task.to == f"N{task.seat}"
    if task.frm == HAND:
        nl_from = f"de {c.nl_adj} pion die je vasthoudt (of die naast het bord ligt)"
        en_from = f"the {c.en} pawn you hold (or the one beside the board)"
    elif is_nest(task.frm):
        nl_from = f"een {c.nl_adj} pion uit {'zijn nest' if own else place_words(task.frm).nl}"
        en_from = f"a {c.en} pawn from {c.en}'s nest"
    else:
        nl_from = f"de {c.nl_adj} pion van {place_words(task.frm).nl}"
        en_from = f"{c.en}'s pawn from {place_words(task.frm).en}"
    if task.to == OFF:
        return Text(
            f"Haal {nl_from} van het bord (een pion te veel)",
            f"Take {en_from} off the board (one pawn too many)",
        )
    if own:
        return Text(f"Zet {nl_from} terug in zijn nest", f"Put {en_from} back in its nest")
    to = _on(task.to)
    verb_en = "Move" if task.frm[0] in "TH" else "Put"
    return Text(f"Zet {nl_from} {to.nl}", f"{verb_en} {en_from} {to.en}")


def ask_text(seat: int, holes: Iterable[str]) -> Text:
    """Two pawns of different colours were in hand at once: which one is where?"""
    c = SEAT_COLOURS[seat]
    where = " of ".join(holes)
    where_en = " or ".join(holes)
    return Text(
        f"Welke pion is {c.nl}: {where}? Til de {c.nl_adj} pion op en zet hem terug",
        f"Which pawn is {c.en}: {where_en}? Lift the {c.en} pawn and put it back",
    )


def wrong_text(seat: int, hole: str, want: int | None) -> Text:
    """A pawn of a known colour put where the target wants another (or none)."""
    c = SEAT_COLOURS[seat]
    where = _on(hole)
    if want is None:
        return Text(
            f"Er hoort geen pion {where.nl}: de {c.nl_adj} pion moet daar weg",
            f"No pawn goes {where.en}: the {c.en} pawn must go",
        )
    w = SEAT_COLOURS[want]
    return Text(
        f"Dat is een {c.nl_adj} pion; {where.nl} hoort een {w.nl_adj}",
        f"That is a {c.en} pawn; a {w.en} one goes {where.en}",
    )


def left_text(n: int) -> Text:
    if n == 1:
        return Text("nog 1 stap", "1 step left")
    return Text(f"nog {n} stappen", f"{n} steps left")


DONE: Final = Text("Het bord staat klaar", "The board is set up")
