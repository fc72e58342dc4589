"""What people at the table decide beside the board: take the last move back (undo, or a
second card), a penalty (NK), overruling the machine (a flagged move accepted, the last
move corrected), and the time limit (NK). Each is an input journalled like an event."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from keezbord.engine.movegen import apply_part
from keezbord.engine.notation import InvalidMoveError, Move, Step, parse_move
from keezbord.engine.position import InvalidPositionError, Position, location_hole
from keezbord.engine.scoring import front_pawn_penalty, nk_score
from keezbord.engine.text import Text
from keezbord.engine.topology import SEAT_COLOURS
from keezbord.host.events import Penalty

from . import reasons
from .judgement import settle_pending
from .recognize import board_sig, expectations, guess_after, pos_sig, references, repair
from .state import Decision, Effect, Flag, Overrule, RefereeState
from .turns import accept, new_turn, resolved


def undo(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """Back to the position before the last move; the players put the pawns back,
    guided by the restore LEDs once the board has rested. With a second card flagged,
    undo takes that card back instead."""
    if state.second_card is not None:
        card = state.second_card
        effects.append(Decision(t, "undo", {"ok": True, "seat": state.seat, "card": card}))
        state = replace(state, second_card=None)
        state = resolved(state, t, effects)
        return replace(state, since=t, stage=0, outcome="none")
    if (
        state.stopped
        or not state.history
        or state.history[-1].table_after != state.table
        or state.history[-1].after != state.pos
    ):
        effects.append(
            Decision(
                t,
                "undo",
                {"ok": False},
                Text(
                    "er is geen zet om terug te nemen (of er is sindsdien gepast, gestraft of "
                    "gestopt)",
                    "there is no move to take back (or a hand was discarded, a "
                    "penalty given or the game stopped since)",
                ),
            )
        )
        return state
    last = state.history[-1]
    effects.append(Decision(t, "undo", {"ok": True, "seat": last.seat, "move": last.text}))
    state = new_turn(
        replace(state, winner=None), last.before, last.table_before, history=state.history[:-1]
    )
    effects.append(Decision(t, "turn", {"seat": last.seat}))
    return replace(
        state,
        since=t,
        stage=0,
        outcome="none",
        cards_played=last.cards_before,
        restoring=True,
        undone=pos_sig(last.after),
    )


def penalty(state: RefereeState, ev: Penalty, t: int, effects: list[Effect]) -> RefereeState:
    """NK table penalty: the offender's front pawn goes back to its nest (else the
    partner's). The expected position changes at once; the flag's error and restore LEDs
    guide the players to carry the pawn, and play goes on once the board matches."""
    ident: dict[str, Any] = {"seat": ev.seat}
    if state.over:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, reasons.GAME_OVER))
        return state
    if not 0 <= ev.seat < state.pos.seats:
        effects.append(
            Decision(
                t,
                "penalty",
                {**ident, "ok": False},
                Text(f"onbekende stoel {ev.seat}", f"unknown seat {ev.seat}"),
            )
        )
        return state
    state = settle_pending(state, t, effects)  # a move already on the board counts first
    if state.over:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, reasons.GAME_OVER))
        return state
    pos = state.pos
    after = front_pawn_penalty(pos, ev.seat)
    if after == pos:
        effects.append(
            Decision(
                t,
                "penalty",
                {**ident, "ok": False},
                Text(
                    "geen pion van deze stoel of zijn partner op de baan: geen straf",
                    "no pawn of this seat or its partner on the track: no penalty",
                ),
            )
        )
        return state
    owner = next(s for s in range(pos.seats) if pos.pawns[s] != after.pawns[s])
    loc = next(iter(Counter(pos.pawns[owner]) - Counter(after.pawns[owner])))
    hole = location_hole(pos.topology, owner, loc).name
    c = SEAT_COLOURS[owner]
    reason = Text(
        f"strafzet: zet de pion van {c.nl} op {hole} terug in het nest",
        f"penalty: put {c.en}'s pawn on {hole} back in its nest",
    )
    effects.append(
        Decision(t, "penalty", {**ident, "ok": True, "owner": owner, "pawn": hole}, reason)
    )
    exps = expectations(after, state.card, state.config.reader)
    fix = repair(after.topology, state.sensed, references(after, exps))
    flag = Flag(reason, fix.error, fix.restore, fix.pairs) if fix.pairs else None
    return replace(
        state,
        pos=after,
        flag=flag,
        missing=(),
        ambiguous=(),
        amb_touched=frozenset(),
        restoring=True,
        undone=None,
        multi_hand=False,
        partial=None,
        since=t,
        stage=0,
        outcome="none",
    )


def overrule(state: RefereeState, ev: Overrule, t: int, effects: list[Effect]) -> RefereeState:
    """The referee (a person with the control token) overrules the machine (issue 11,
    item 15): a flagged board accepted as played, or the last recorded move corrected.
    Journalled like any input; the move counts like any move (scores, history) and
    carries the reason."""
    kind = "correct" if ev.correct else "accept"
    reason = ev.reason.strip() if isinstance(ev.reason, str) else ""

    def refuse(why: Text) -> RefereeState:
        effects.append(Decision(t, "overrule", {"ok": False, "kind": kind}, why))
        return state

    if not reason:
        return refuse(Text("geef een reden op", "give a reason"))
    if state.over and not ev.correct:
        return refuse(reasons.GAME_OVER)
    if ev.correct:
        if (
            state.stopped
            or not state.history
            or state.history[-1].after != state.pos
            or state.history[-1].table_after != state.table
        ):
            return refuse(
                Text(
                    "er is geen zet om te verbeteren (of er is sindsdien gepast of gestraft)",
                    "there is no move to correct (or a hand was "
                    "discarded or a penalty given since)",
                )
            )
        if ev.move is None:
            return refuse(Text("geef de juiste zet op", "give the right move"))
        last = state.history[-1]
        base = new_turn(
            replace(state, winner=None), last.before, last.table_before, history=state.history[:-1]
        )
        base = replace(base, cards_played=last.cards_before, card=last.card)
        parsed = _overrule_move(base, ev.move)
        if isinstance(parsed, Text):
            return refuse(parsed)
        move, after = parsed
        effects.append(
            Decision(
                t,
                "overrule",
                {
                    "ok": True,
                    "kind": kind,
                    "seat": last.seat,
                    "move": move.text(after.topology),
                    "replaces": last.text,
                    "note": reason,
                },
            )
        )
        state = accept(base, move, after, t, effects, overruled=reason)
        # The board is judged afresh against the corrected position (restore LEDs).
        return replace(state, since=t, stage=0, outcome="none", restoring=True, undone=None)
    if not state.at_rest:
        return refuse(Text("zet eerst elke pion op een gat", "put every pawn on a hole first"))
    if ev.move is not None:
        parsed = _overrule_move(state, ev.move)
        if isinstance(parsed, Text):
            return refuse(parsed)
        move, after = parsed
        if pos_sig(after) != board_sig(state.sensed, after.seats):
            return refuse(Text("het bord toont die zet niet", "the board does not show that move"))
    else:
        guess = guess_after(state.pos, state.sensed)
        if guess is None or guess.pawns == state.pos.pawns:
            return refuse(
                Text(
                    "het bord toont geen zet om te aanvaarden", "the board shows no move to accept"
                )
            )
        after = guess
        move = _diff_move(state.pos, after, state.card or "?")
    effects.append(
        Decision(
            t,
            "overrule",
            {
                "ok": True,
                "kind": kind,
                "seat": state.seat,
                "move": move.text(after.topology),
                "note": reason,
            },
        )
    )
    return accept(replace(state, second_card=None), move, after, t, effects, overruled=reason)


def _overrule_move(state: RefereeState, text: str) -> tuple[Move, Position] | Text:
    """A move in notation applied without the rules (the referee has overruled them)."""
    pos = state.pos
    try:
        move = parse_move(text, pos.topology)
        after = pos
        for part in move.parts:
            after = apply_part(after, part)
        after.validate()
    except (InvalidMoveError, InvalidPositionError, ValueError) as e:
        return Text(
            f"die zet past niet op de stand: {e}", f"that move does not fit the position: {e}"
        )
    return move, after


def _diff_move(before: Position, after: Position, card: str) -> Move:
    """Notation for a board accepted as it is: each seat's pawns that left a location
    paired with the locations they arrived at."""
    parts: list[Step] = []
    for seat in range(before.seats):
        gone = sorted((Counter(before.pawns[seat]) - Counter(after.pawns[seat])).elements())
        came = sorted((Counter(after.pawns[seat]) - Counter(before.pawns[seat])).elements())
        parts.extend(Step(seat, a, b) for a, b in zip(gone, came, strict=False))
    return Move(card, tuple(parts))


def time_limit(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """Stop the game at the time limit (NK): pawns home score, no win bonus."""
    if state.over or state.pos.profile.scoring != "nk":
        why = (
            reasons.GAME_OVER
            if state.over
            else Text(
                "alleen bij NK-scoring stopt de tijdslimiet het spel",
                "only NK scoring stops the game at the time limit",
            )
        )
        effects.append(Decision(t, "time_limit", {"ok": False}, why))
        return state
    state = settle_pending(state, t, effects)
    if state.over:
        effects.append(Decision(t, "time_limit", {"ok": False}, reasons.GAME_OVER))
        return state
    score = [
        {"seats": list(team), "points": pts}
        for team, pts in nk_score(state.pos, timed_out=True).items()
    ]
    effects.append(
        Decision(
            t,
            "time_limit",
            {"ok": True, "score": score},
            Text(
                "de tijd is om: alleen de pionnen thuis tellen", "time is up: only pawns home count"
            ),
        )
    )
    return replace(state, stopped=True, card=None, flag=None, missing=(), ambiguous=())
