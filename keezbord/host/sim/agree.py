"""The drawing and the referee agree (issue 40, items 1 to 5).

In the simulator the page is the board: the pawns it draws (pawns.py, ``PawnTracker``)
are where the person believes them, colours included, while the referee reads presence
only and follows the colours as the touches carried them (referee/hands.py). Where the
two part (two pawns in hand put down the other way round, a swap read as put back), a
real board's LEDs would guide people to a wrong board. ``check`` compares them after
every input: a board at rest the referee believes in colours (its one certain world, or
the position when the switches show it) must be the drawn one, and a flag's guidance
followed on the drawing must give a board the referee takes (the position before, or a
legal move's). Where they differ, a ``Mismatch`` names the holes, says why (the engine's
explain of what the drawing shows, else the holes) and how to put the drawn board back
to the position (``put_right``: one pawn at a time by colour, then the rest down at
once). Pure: no time, no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from keezbord.engine.explain import explain
from keezbord.engine.position import NEST, Position
from keezbord.engine.text import Text
from keezbord.host.referee import (
    HAND,
    RefereeState,
    World,
    board_fix,
    board_sig,
    certain,
    colours,
    expected,
    guess_after,
    is_nest,
    landing,
    nest_seat,
    plan,
    pos_sig,
    shows,
    task_text,
)

Drawn = Mapping[str, "int | None"]
Steps = tuple[tuple[str, str, int], ...]  # (action, hole, seat of the pawn)
Lit = tuple[tuple[str, str], ...]  # (hole, LED role)
Move = tuple[str | None, str, int]  # (hole lifted, None from the hand; hole put on; seat)


@dataclass(frozen=True)
class Mismatch:
    holes: tuple[str, ...]  # where the drawing and the referee differ
    reason: Text
    guidance: tuple[Text, ...]  # how to put the drawn board back, pawn by pawn
    lit: Lit = ()  # the guidance's holes: a pawn to lift "error", where one goes "restore"

    def flag(self) -> dict[str, object]:
        """The page's flag (docs/web.md ``flag``) for a mismatch the referee has not
        flagged itself; ``lit``, the LEDs of its guidance, is page.py's to take out."""
        labels = sorted(h for h in self.holes if nest_seat(h) is None)
        return {
            "reason": self.reason.as_dict(),
            "holes": list(self.holes),
            "restore": [],
            "guidance": [g.as_dict() for g in self.guidance],
            "finish": [],
            "labels": labels,
            "drawing": True,
            "lit": dict(self.lit),
        }


def believed(state: RefereeState) -> dict[str, int] | None:
    """Hole -> seat as the referee believes a board at rest (None: it makes no claim)."""
    world = certain(state.worlds)
    if world is not None and not world[2]:
        return dict(world[0])
    pos = state.pos
    if board_sig(state.sensed, pos.seats) == pos_sig(pos):
        out = colours(pos)
        out.update({h: s for h in state.sensed if (s := nest_seat(h)) is not None})
        return out
    return None


def judged(state: RefereeState, drawn: Drawn, held: Sequence[int | None]) -> bool:
    """The drawing can be compared with the referee now: everything down, at rest, a
    game on, every pawn's colour known."""
    if held or not state.at_rest or state.arranging is not None or state.seat is None:
        return False
    return all(s is not None for s in drawn.values())


def check(state: RefereeState, drawn: Drawn, held: Sequence[int | None]) -> Mismatch | None:
    """The drawing against the referee after an input (None: they agree, or the
    drawing is mid-move, or the referee makes no claim)."""
    if not judged(state, drawn, held):
        return None
    pos = state.pos
    known = {h: s for h, s in drawn.items() if s is not None}
    if state.flag is not None:
        # The flag's pairs as the LEDs show them now (the board may have changed since
        # the referee last judged it).
        undone = state.undone if state.restoring else None
        pairs = board_fix(state, expected(state), state.flag.shown, undone).pairs
        after = _followed(known, pairs)
        if after is None or any(_same(after, p) for p in _takes(state)):
            return None
        return _mismatch(state, known, sorted(set(after.items()) ^ set(colours(pos).items())))
    want = believed(state)
    if want is None:
        return None
    diff = sorted({h for h in set(want) | set(known) if want.get(h) != known.get(h)})
    if not diff:
        return None
    return _mismatch(state, known, [(h, 0) for h in diff])


def _takes(state: RefereeState) -> list[Position]:
    """The boards a flagged board may be put right to: the position before, a legal
    move's, a 7's first part's."""
    out = [state.pos]
    for exp in expected(state):
        out.extend(after for _, after in exp.moves)
        for firsts in exp.firsts.values():
            out.extend(first for first, _ in firsts)
    return out


def _followed(
    known: Mapping[str, int], pairs: Sequence[tuple[str | None, str | None]]
) -> dict[str, int] | None:
    """The drawn pawns with the flag's guidance followed (None: it names a pawn the
    drawing lacks there, or one in hand)."""
    on = dict(known)
    for a, b in pairs:
        if a is None:
            return None  # a pawn in hand: nothing to follow yet
        seat = on.pop(a, None)
        if seat is None:
            return None
        if b is not None:
            on[b] = seat
    return on


def _same(on: Mapping[str, int], pos: Position) -> bool:
    return shows((frozenset(on.items()), frozenset(), ()), pos)


def _mismatch(
    state: RefereeState, known: Mapping[str, int], diff: Sequence[tuple[str, int]]
) -> Mismatch:
    pos = state.pos
    holes = tuple(sorted({h for h, _ in diff if nest_seat(h) is None} or {h for h, _ in diff}))
    reason: Text | None = None
    owners = {h: s for h, s in known.items() if nest_seat(h) is None}
    drawn_pos = guess_after(pos, frozenset(known), owners)
    if state.card is not None and drawn_pos is not None and drawn_pos.pawns != pos.pawns:
        why = explain(pos, state.card, drawn_pos)
        reason = why.text if why is not None else None
    if reason is None:
        where = ", ".join(holes)
        reason = Text(
            f"het getekende bord en de scheidsrechter zien de pionnen op {where} anders",
            f"the board drawn and the referee see the pawns on {where} differently",
        )
    world: World = (frozenset(known.items()), frozenset(), ())
    guidance = tuple(task_text(t) for t in plan(world, pos))
    if not guidance:  # drawn as the position, read otherwise: the board reads it afresh
        return Mismatch(holes, reason, (_REREAD,), tuple((h, "error") for h in holes))
    return Mismatch(holes, reason, guidance, lights(world, pos))


_REREAD = Text(
    "De pionnen staan goed, maar het bord leest ze anders: tik op 'Zet het bord recht'",
    "The pawns stand right, but the board reads them otherwise: tap 'Put the board right'",
)


def guide(pos: Position, drawn: Drawn, held: Sequence[int | None], was: Mismatch) -> Mismatch:
    """A difference being put right (a pawn in hand, a pawn settling): its reason kept,
    the way back and its lights from the drawing as it is now, the pawns in hand
    included (the referee's own lights follow its reading, not the drawn pawns)."""
    world: World = (
        frozenset((h, s) for h, s in drawn.items() if s is not None),
        frozenset(),
        tuple((s, HAND) for s in held if s is not None),
    )
    guidance = tuple(task_text(t) for t in plan(world, pos))
    return replace(was, guidance=guidance, lit=lights(world, pos))


def lights(world: World, pos: Position) -> Lit:
    """The LEDs of the way back from ``world`` to ``pos``, one pawn at a time as its
    first line says (the set-up mode's way): the pawn to move lit "error" where it
    stands, the hole it goes to "restore"."""
    moves = _moves(world, pos)[0]
    if not moves:
        return ()
    frm, to, _ = moves[0]
    return tuple(sorted({to: "restore", **({} if frm is None else {frm: "error"})}.items()))


def _moves(world: World, pos: Position) -> tuple[list[Move], bool]:
    """The set-up mode's plan as holes, one pawn in hand at a time: a nest's pawn is
    its last hole of that colour, a nest to go to its first free hole. False with the
    moves so far when a pawn would have to leave the board (its nest full of another
    colour's pawns)."""
    on = dict(world[0])
    moves: list[Move] = []
    for task in plan(world, pos):
        if task.seat < 0:
            break
        frm: str | None
        if task.frm == HAND:
            frm = None
        elif is_nest(task.frm):
            seat = int(task.frm[1:])
            frm = max(
                (h for h, s in on.items() if nest_seat(h) == seat and s == task.seat),
                default=None,
            )
            if frm is None:
                break
        else:
            frm = task.frm
        if frm is not None:
            del on[frm]
        to = landing(task.to, on)
        if to is None:
            return moves, False
        on[to] = task.seat
        moves.append((frm, to, task.seat))
    return moves, True


def put_right(
    pos: Position,
    drawn: Drawn,
    held: Sequence[int | None],
    together: bool,
    misread: Collection[str] = (),
) -> Steps:
    """The lifts and places that turn the drawn board (and the pawns in hand) into
    ``pos``, colours and all. One pawn in hand at a time (the set-up mode's plan) when
    the referee follows the colours already; ``together``, when it does not (it took two
    pawns put down as put back, or lost them): every pawn that stands wrong, or that the
    referee reads in another colour (``misread``), lifted, then each put where it
    belongs, so the referee reads the board afresh as the position."""
    on = {h: s for h, s in drawn.items() if s is not None}
    hand = [s for s in held if s is not None]
    if not together:
        one = _one_by_one(pos, dict(on), list(hand))
        if one is not None:
            return one
        # (a pawn with nowhere to go yet: its nest full of another colour's pawns)
    want = colours(pos)
    nest_want = [sum(1 for loc in locs if loc == NEST) for locs in pos.pawns]
    steps: list[tuple[str, str, int]] = []
    own = [0] * pos.seats
    for h, s in sorted(on.items()):
        n = nest_seat(h)
        if n is None and want.get(h) == s and h not in misread:
            continue
        if n == s and own[s] < nest_want[s]:
            own[s] += 1
            continue
        steps.append(("lift", h, s))
        hand.append(s)
        del on[h]
    for h in sorted(want):
        if h not in on and want[h] in hand:
            hand.remove(want[h])
            on[h] = want[h]
            steps.append(("place", h, want[h]))
    for seat in range(pos.seats):
        for k in range(1, 5):
            h = f"N{seat}.{k}"
            if own[seat] < nest_want[seat] and h not in on and seat in hand:
                hand.remove(seat)
                own[seat] += 1
                on[h] = seat
                steps.append(("place", h, seat))
    return tuple(steps)


def _one_by_one(pos: Position, on: dict[str, int], hand: list[int]) -> Steps | None:
    """The set-up mode's plan, one pawn in hand at a time; None when a pawn would have
    to leave the board (its nest full of another colour's pawns)."""
    world: World = (frozenset(on.items()), frozenset(), tuple((s, HAND) for s in hand))
    moves, ok = _moves(world, pos)
    if not ok:
        return None
    steps: list[tuple[str, str, int]] = []
    for frm, to, seat in moves:
        if frm is not None:
            steps.append(("lift", frm, seat))
        steps.append(("place", to, seat))
    return tuple(steps)
