"""The LED frame a referee state shows: hole -> role (FORMATS.md roles).

Roles only; colours and blinking are the LED driver's business. One role a hole: the
first of ``ROLE_ORDER`` wins (an error outshines a hint).
"""

from __future__ import annotations

from . import hands
from .arrange import lit as arrange_lit
from .colour_fix import board_fix
from .lit import expected
from .lit import roles as lit_roles
from .recognize import (
    Target,
    board_sig,
    move_holes,
    nest_seat,
    pos_sig,
    repair,
)
from .state import ROLE_ORDER, RefereeState

_RANK = {role: i for i, role in enumerate(ROLE_ORDER)}


def frame(state: RefereeState) -> dict[str, str]:
    return uncover(_frame(state), state)


def uncover(roles: dict[str, str], state: RefereeState) -> dict[str, str]:
    """A lit target with a pawn on it (the pawn a capture knocks, a jack's other pawn) is
    hidden under that pawn: its free track neighbours light as ``around`` so that a
    person sees where it is (FORMATS.md allows roles beyond its own)."""
    covered = [h for h, r in roles.items() if r == "target" and h in state.sensed]
    if not covered:
        return roles
    ring = state.pos.topology.ring
    out = dict(roles)
    for h in covered:
        if h[0] != "T":
            continue
        i = int(h[1:])
        for n in (f"T{(i - 1) % ring}", f"T{(i + 1) % ring}"):
            if n not in out and n not in state.sensed:
                out[n] = "around"
    return out


def _frame(state: RefereeState) -> dict[str, str]:
    roles: dict[str, str] = {}

    def put(hole: str, role: str) -> None:
        old = roles.get(hole)
        if old is None or _RANK[role] < _RANK[old]:
            roles[hole] = role

    if state.arranging is not None:
        return arrange_lit(state.arranging)  # the set-up mode's instruction
    pos = state.pos
    topo = pos.topology
    if state.winner is not None:
        for seat in state.winner:
            for k in range(1, 5):
                put(f"H{seat}.{k}", "turn")
        return roles
    if state.stopped:
        return roles
    to_play = state.seat
    if to_play is not None:
        put(f"T{topo.start(to_play)}", "turn")
    exps = expected(state)
    if state.missing:
        for h in state.missing:
            put(h, "restore")
    elif state.flag is not None and state.flagged:
        undone = state.undone if state.restoring else None
        fix = board_fix(state, exps, state.flag.shown, undone)
        for h in fix.error:
            put(h, "error")
        for h in fix.restore:
            put(h, "restore")
        if undone is not None and (fix.error or fix.restore):
            return roles  # a move taken back: only how to put it back
    elif state.restoring and state.undone is not None and state.lit is None:
        # A move just taken back: the lights show how to put it back at once (a pawn
        # off its hole is no move in progress, whatever card could make one).
        fix = repair(topo, state.sensed, [pos_sig(pos)])
        for h in fix.error:
            put(h, "error")
        for h in fix.restore:
            put(h, "restore")
        if fix.error or fix.restore:
            return roles
    if state.lit is not None:  # a move chosen far away, in place of the hints
        if not state.missing and not state.flagged:
            for h, role in lit_roles(state).items():
                put(h, role)
        return roles
    for m, _ in state.ambiguous:
        for h in move_holes(pos, m):
            put(h, "source")
    for h in state.ask:
        put(h, "source")
    if state.config.hints == "off" or not exps:
        return roles
    # Where the pawns stood before the part now being played: the position, or for a 7
    # whose first part is on the board, that board.
    base_sig = state.partial if state.partial is not None else pos_sig(pos)
    departures: dict[str, list[Target]] = {}
    for exp in exps:
        deps = exp.second_departures(base_sig) if state.partial is not None else exp.departures
        for key, tgts in deps.items():
            departures.setdefault(key, []).extend(tgts)
    sth, snests = board_sig(state.sensed, pos.seats)
    lifted = [h for h in base_sig[0] if h not in sth]
    lifted += [f"N{s}" for s in range(pos.seats) if snests[s] < base_sig[1][s]]
    in_hand = [k for k in lifted if k in departures]
    world = hands.certain(state.worlds)
    # A capture half done: the mover stands on the target, the victim is in hand.
    landed = {o for _, o in world[2] if o in state.sensed} if world is not None else set()
    if state.card == "J" and len(in_hand) == 1:
        # A jack half done: a pawn put down on the hole the other left; the second
        # goes where the first stood (issue 40, item 3).
        down = [t.hole for t in departures[in_hand[0]] if t.hole in state.touched]
        if any(h in sth for h in down):
            landed |= set(down)
            put(in_hand[0], "target")
    for key in in_hand:
        for tgt in departures[key]:
            if tgt.hole not in landed:
                put(tgt.hole, "target")
            if tgt.victim is not None:
                free = [
                    f"N{tgt.victim}.{k}"
                    for k in range(1, 5)
                    if f"N{tgt.victim}.{k}" not in state.sensed
                ]
                if free:
                    put(free[0], "victim")
    # Once a card is tapped, the pawns that can move with it ("source", FORMATS.md) at
    # every level that lights targets, while the board waits for a lift (a question or a
    # flag lights its own holes); at `full` always, with the suggested move outshining it.
    full = state.config.hints == "full"
    asking = state.ambiguous or state.ask or state.flag is not None or state.missing
    if not in_hand and (full or not asking):
        if full:
            for h in state.hint:
                put(h, "hint")
        for key in departures:
            if key[0] == "N":
                s = int(key[1:])
                for h in sorted(state.sensed):
                    if nest_seat(h) == s:
                        put(h, "source")
            else:
                put(key, "source")
    return roles
