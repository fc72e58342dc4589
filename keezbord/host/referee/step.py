"""The referee as a pure state machine: ``step(state, event) -> (state, effects)``.

Board events only change what is sensed and when; a board is judged once it has rested
(every pawn on a hole) for the settle time, again after the longer patience if it looked
like a move in progress, and at once when the next card is tapped or a hand discarded.
Timers are not threads: every event (a ``Tick`` when nothing else happens) first fires
the deadlines that have passed, at their own times.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from keezbord.engine.advice import advise
from keezbord.engine.cards import UnknownCardError, parse_card
from keezbord.engine.deal import Table
from keezbord.engine.explain import explain, no_move_reason
from keezbord.engine.notation import Move
from keezbord.engine.position import Position, location_hole
from keezbord.engine.scoring import front_pawn_penalty, nk_score
from keezbord.engine.search import Known
from keezbord.engine.text import CARD_NAMES, Text
from keezbord.engine.topology import SEAT_COLOURS, TopologyError
from keezbord.host.events import CardTap, Discard, HoleEvent, Penalty, Tick, TimeLimit

from .leds import frame
from .recognize import (
    Judgement,
    board_of,
    board_sig,
    changed_holes,
    expectation,
    expectations,
    guess_after,
    hole_key,
    judge,
    references,
    repair,
)
from .state import (
    Board,
    Config,
    Decision,
    Effect,
    Flag,
    Input,
    Leds,
    MoveRecord,
    RefereeState,
    Undo,
)

TAP_CARD_FIRST = Text("leg eerst een kaart op de lezer", "tap a card on the reader first")
NO_CARD_FITS = Text("geen enkele kaart staat deze zet toe", "no card allows this move")
NOT_ONE_MOVE = Text("de pionnen zijn niet verzet zoals één geldige zet dat doet",
                    "the pawns were not moved the way one legal move moves them")
GAME_OVER = Text("het spel is afgelopen", "the game is over")
RESOLVE_FIRST = Text("wijs eerst aan welke zet bedoeld is: til de bedoelde pion op",
                     "first show which move was meant: lift the pawn you moved")


def new_game(pos: Position, dealer: int, config: Config | None = None, *,
             turn: int | None = None, board: frozenset[str] | None = None,
             t: int = 0) -> tuple[RefereeState, list[Effect]]:
    """The referee at the first deal (or mid-game from ``pos``). ``board`` is what the
    switches show (default: the position's own board)."""
    table = Table.first(pos.seats, dealer)
    if turn is not None:
        table = replace(table, turn=turn)
    assert table.turn is not None
    state = RefereeState(config or Config(), pos.replace(turn=table.turn), table,
                         board if board is not None else board_of(pos), 4 * pos.seats,
                         now=t, since=t)
    effects: list[Effect] = [Decision(t, "turn", {"seat": table.turn})]
    state, leds = _with_frame(state, t)
    return state, effects + leds


def step(state: RefereeState, event: Input) -> tuple[RefereeState, list[Effect]]:
    """Feed one event; returns the new state and what to show (decisions, LED frames)."""
    effects: list[Effect] = []
    t = max(event.t, state.now)
    state = _fire_timers(state, t, effects)
    state = replace(state, now=t)
    if isinstance(event, HoleEvent):
        state = _hole(state, event, t)
    elif isinstance(event, CardTap):
        state = _card(state, event, t, effects)
    elif isinstance(event, Discard):
        state = _discard(state, event, t, effects)
    elif isinstance(event, Undo):
        state = _undo(state, t, effects)
    elif isinstance(event, Penalty):
        state = _penalty(state, event, t, effects)
    elif isinstance(event, TimeLimit):
        state = _time_limit(state, t, effects)
    elif isinstance(event, Board):
        changed = state.sensed ^ event.holes
        state = replace(state, sensed=event.holes, touched=state.touched | changed, since=t,
                        stage=0)
    else:
        assert isinstance(event, Tick)
    if state.missing:
        state = _missing_back(state, t, effects)
    state, leds = _with_frame(state, t)
    return state, effects + leds


def deadline(state: RefereeState) -> int | None:
    """When the board will next be judged (or a missing pawn asked back) if nothing
    happens."""
    if state.over:
        return None
    if not state.at_rest:
        if state.stage == 0 and state.config.missing_ms > 0:
            return state.since + state.config.missing_ms
        return None
    if state.stage == 0:
        return state.since + state.config.settle_ms
    if state.stage == 1 and state.outcome == "patient":
        return state.since + state.config.patience_ms
    return None


# -- timers and judging ------------------------------------------------------------------


def _fire_timers(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    while True:
        due = deadline(state)
        if due is None or due > t:
            return state
        state = replace(state, now=due)
        if state.at_rest:
            state = _judge(state, due, effects, final=state.stage >= 1)
        else:
            state = _missing(state, due, effects)
        state, leds = _with_frame(state, due)
        effects.extend(leds)


def _judge(state: RefereeState, t: int, effects: list[Effect], *, final: bool,
           tap: bool = False) -> RefereeState:
    """Judge the board at rest. ``final``: the patience is over; ``tap``: the next card
    was tapped or a hand shown, so a move that fits is taken without waiting."""
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    j = judge(pos, exps, state.sensed, state.touched, state.co_empty, state.amb_touched,
              state.lifted)
    stage = 2 if final or tap else 1
    partial = board_sig(state.sensed, pos.seats) if j.outcome == "partial" else None
    state = replace(state, stage=stage, partial=partial)
    if j.outcome == "accepted":
        move, after = j.moves[0]
        # Without a reader a 7's first part may also be a whole move of a smaller card:
        # give the player the patience to go on before taking the smaller card.
        if j.also_partial and state.card is None and not (final or tap):
            return replace(state, outcome="patient", partial=board_sig(state.sensed,
                                                                       pos.seats))
        return _accept(state, move, after, t, effects)
    if j.outcome in ("ambiguous", "before", "partial"):
        state = _resolved(state, t, effects)
    if j.outcome == "ambiguous":
        if state.ambiguous != j.moves:
            topo = pos.topology
            effects.append(Decision(t, "ambiguous", {
                "seat": state.seat, "moves": [m.text(topo) for m, _ in j.moves]},
                Text("meer dan één zet past bij het bord: til de pion op die je bedoelde",
                     "more than one move fits the board: lift the pawn you meant")))
        return replace(state, outcome="ambiguous", ambiguous=j.moves, flag=None)
    if j.outcome in ("before", "partial"):
        return replace(state, outcome=j.outcome, flag=None, ambiguous=())
    if j.outcome == "patient" and not final:
        return replace(state, outcome="patient")
    return _flag(state, t, effects)


def _missing(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """The board has not been at rest for ``missing_ms``: a pawn is off the board. Holes
    whose pawn a legal move of the tapped card moves (or captures) are in a hand; any
    other empty hole the board should have a pawn on is asked back, once an episode."""
    state = replace(state, stage=1)
    if state.flag is not None and not state.missing:
        return state  # an illegal board or a penalty: its own guidance stands
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    in_play: set[str] = set()
    for exp in exps:
        in_play |= exp.departures.keys()
        if state.partial is not None:
            in_play |= exp.second_departures(state.partial).keys()
        for _, after in exp.moves:
            in_play |= changed_holes(pos, after)
    fix = repair(pos.topology, state.sensed, references(pos, exps))
    gone = state.total - len(state.sensed)
    # Holes lifted this turn first (where the pawn came from), the latest first.
    holes = sorted((h for h in fix.restore if hole_key(h) not in in_play),
                   key=lambda h: -state.lifted.index(h) if h in state.lifted else 1)[:gone]
    if not holes:
        return state
    missing = tuple(sorted(holes, key=fix.restore.index))
    flag = Flag(_missing_reason(missing), (), missing, tuple((None, h) for h in missing))
    if not state.missing:
        effects.append(Decision(t, "missing", {"seat": state.seat, "holes": list(missing)},
                                flag.reason))
    return replace(state, flag=flag, missing=missing)


def _missing_reason(holes: tuple[str, ...]) -> Text:
    where = ", ".join(holes)
    if len(holes) == 1:
        return Text(f"een pion ontbreekt: zet hem terug op {where}",
                    f"a pawn is missing: put it back on {where}")
    return Text(f"er ontbreken pionnen: zet ze terug op {where}",
                f"pawns are missing: put them back on {where}")


def _missing_back(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A missing pawn was put back: the flag clears once every pawn is on the board (or
    on the holes asked for); the board is then judged as usual."""
    left = tuple(h for h in state.missing if h not in state.sensed)
    if state.at_rest or not left:
        return replace(_resolved(state, t, effects), missing=())
    if left == state.missing or state.flag is None:
        return state
    return replace(state, missing=left, flag=replace(
        state.flag, reason=_missing_reason(left), restore=left,
        pairs=tuple((None, h) for h in left)))


def _resolved(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A flagged board was put right (it is the position, a legal move's board or part
    of one): say so, so hosts need not compare states."""
    if state.flag is None:
        return state
    effects.append(Decision(t, "resolved", {"seat": state.seat}))
    return replace(state, flag=None)


def _flag(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    fix = repair(pos.topology, state.sensed, references(pos, exps))
    state = replace(state, outcome="illegal", ambiguous=())
    if state.flag is not None:
        return replace(state, flag=replace(state.flag, error=fix.error, restore=fix.restore,
                                           pairs=fix.pairs))
    reason = _illegal_reason(state)
    flag = Flag(reason, fix.error, fix.restore, fix.pairs)
    effects.append(Decision(t, "illegal", {
        "seat": state.seat, "holes": list(_merge(fix.error, fix.restore)),
        "restore": [[a, b] for a, b in fix.pairs]}, reason))
    return replace(state, flag=flag)


def _merge(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return a + tuple(h for h in b if h not in a)


def _illegal_reason(state: RefereeState) -> Text:
    if state.card is None:
        return TAP_CARD_FIRST if state.config.reader else NO_CARD_FITS
    after = guess_after(state.pos, state.sensed)
    if after is None:
        return NOT_ONE_MOVE
    why = explain(state.pos, state.card, after)
    return NOT_ONE_MOVE if why is None else why.text


# -- accepting moves and passing the turn ------------------------------------------------


def _accept(state: RefereeState, move: Move, after: Position, t: int,
            effects: list[Effect]) -> RefereeState:
    seat = state.table.turn
    assert seat is not None
    state = _resolved(state, t, effects)
    topo = after.topology
    text = move.text(topo)
    table = _advance(state.table.played(seat))
    winner = after.winner()
    new_pos = after.replace(turn=table.turn if winner is None and table.turn is not None
                            else after.turn)
    effects.append(Decision(t, "move", {"seat": seat, "move": text,
                                        "position": new_pos.to_dict()}))
    record = MoveRecord(t, seat, move.card, move, text, state.pos, new_pos, state.table, table)
    state = _new_turn(state, new_pos, table, history=(*state.history, record))
    if winner is not None:
        effects.append(Decision(t, "win", {"seats": list(winner)}))
        return replace(state, winner=winner)
    effects.append(_turn_decision(t, state.table, table))
    return state


def _advance(table: Table) -> Table:
    return table.next_round() if table.round_over else table


def _turn_decision(t: int, before: Table, after: Table) -> Decision:
    data: dict[str, Any] = {"seat": after.turn}
    if (after.round_no, after.shuffle_no) != (before.round_no, before.shuffle_no):
        data["deal"] = {"dealer": after.dealer, "cards": after.round_size}
    return Decision(t, "turn", data)


def _new_turn(state: RefereeState, pos: Position, table: Table,
              history: tuple[MoveRecord, ...] | None = None) -> RefereeState:
    return replace(state, pos=pos, table=table, card=None, touched=frozenset(), lifted=(),
                   hint=(),
                   co_empty=frozenset(), flag=None, missing=(), ambiguous=(),
                   amb_touched=frozenset(),
                   partial=None, outcome="accepted", stage=2,
                   history=state.history if history is None else history)


def _settle_pending(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """The next card or a shown hand: a move already on the board is taken at once."""
    if state.over or not state.at_rest or state.stage >= 2:
        return state
    exps = expectations(state.pos, state.card, state.config.reader)
    if not exps:
        return state
    j: Judgement = judge(state.pos, exps, state.sensed, state.touched, state.co_empty,
                         state.amb_touched, state.lifted)
    if j.outcome == "accepted":
        return _accept(state, *j.moves[0], t, effects)
    return state


# -- events ------------------------------------------------------------------------------


def _hole(state: RefereeState, ev: HoleEvent, t: int) -> RefereeState:
    try:
        state.pos.topology.parse_hole(ev.hole)
    except TopologyError:
        return state  # a switch the board does not have: noise
    h = ev.hole
    if ev.action == "lift":
        sensed = state.sensed - {h}
        touched = state.touched | {h}
        pairs = {(min(h, x), max(h, x)) for x in touched if x != h and x not in sensed}
        co_empty = state.co_empty | pairs if pairs else state.co_empty
        lifted = state.lifted if h in state.lifted else (*state.lifted, h)
    else:
        sensed = state.sensed | {h}
        touched = state.touched | {h}
        co_empty = state.co_empty
        lifted = state.lifted
    amb = state.amb_touched | {h} if state.ambiguous and ev.action == "lift" else \
        state.amb_touched
    return replace(state, sensed=sensed, touched=touched, co_empty=co_empty, lifted=lifted,
                   since=t, stage=0, amb_touched=amb)


def _resolve_card(state: RefereeState, ev: CardTap) -> tuple[str | None, Text | None]:
    if ev.tag is not None and ev.card is None:
        card = state.config.tags.get(ev.tag)
        if card is None:
            return None, Text(f"onbekende kaart (tag {ev.tag}): leer de kaart eerst aan",
                              f"unknown card (tag {ev.tag}): enroll the card first")
    else:
        card = ev.card
    try:
        return parse_card(card or ""), None
    except UnknownCardError:
        return None, Text(f"onbekende kaart {card!r}", f"unknown card {card!r}")


def _card(state: RefereeState, ev: CardTap, t: int, effects: list[Effect]) -> RefereeState:
    card, problem = _resolve_card(state, ev)
    ident: dict[str, Any] = {"card": card}
    if ev.tag is not None:
        ident["tag"] = ev.tag
    if problem is not None:
        effects.append(Decision(t, "card_rejected", ident, problem))
        return state
    assert card is not None
    if state.over:
        effects.append(Decision(t, "card_rejected", ident, GAME_OVER))
        return state
    state = _settle_pending(state, t, effects)
    if state.winner is not None:
        effects.append(Decision(t, "card_rejected", ident, GAME_OVER))
        return state
    if state.ambiguous:
        effects.append(Decision(t, "card_rejected", ident, RESOLVE_FIRST))
        return state
    pos = state.pos
    exp = expectation(pos, card)
    if not exp.moves:
        effects.append(Decision(t, "card_rejected", {**ident, "seat": state.seat},
                                no_move_reason(pos, card).text))
        return state
    state = replace(state, card=card, since=t, stage=0, outcome="none")
    if state.config.hints == "full":
        # The search's move for this card (the referee knows no other card of the hand),
        # seeded by the move number: the same game gives the same hints on replay.
        hint = advise(pos, [card], known_cards(state), playouts=state.config.hint_playouts,
                      seed=len(state.history))
        if hint is not None:
            effects.append(Decision(t, "hint", {
                "seat": state.seat, "move": hint.text, "holes": list(hint.holes),
                "win": round(hint.win, 3)}, Text(hint.sentence("nl"), hint.sentence("en"))))
            state = replace(state, hint=hint.holes)
    return state


def known_cards(state: RefereeState) -> Known:
    """What the referee knows of the cards: those played since the shuffle, and how many
    each seat holds."""
    shuffle = state.table.shuffle_no
    seen = tuple(r.card for r in state.history if r.table_before.shuffle_no == shuffle)
    return Known(seen, state.table.cards_left)


def _discard(state: RefereeState, ev: Discard, t: int, effects: list[Effect]) -> RefereeState:
    if state.over:
        effects.append(Decision(t, "discard", {"seat": None, "ok": False}, GAME_OVER))
        return state
    state = _settle_pending(state, t, effects)
    seat = state.seat
    if seat is None:
        effects.append(Decision(t, "discard", {"seat": None, "ok": False}, GAME_OVER))
        return state
    hand: list[str] = []
    for c in ev.cards:
        try:
            hand.append(parse_card(c))
        except UnknownCardError:
            effects.append(Decision(t, "discard", {"seat": seat, "ok": False},
                                    Text(f"onbekende kaart {c!r}", f"unknown card {c!r}")))
            return state
    if state.card is not None:
        hand.insert(0, state.card)
    pos = state.pos
    for c in dict.fromkeys(hand):
        moves = expectation(pos, c).moves
        if moves:
            name = CARD_NAMES[c]
            effects.append(Decision(t, "discard", {
                "seat": seat, "ok": False, "must_play": moves[0][0].text(pos.topology)},
                Text(f"{name.nl} kan gespeeld worden: je moet spelen",
                     f"{name.en} can be played: you must play")))
            return state
    table = _advance(state.table.discarded(seat))
    assert table.turn is not None
    effects.append(Decision(t, "discard", {"seat": seat, "ok": True}))
    effects.append(_turn_decision(t, state.table, table))
    new = _new_turn(state, pos.replace(turn=table.turn), table)
    # The board is judged afresh for the next player (a stray pawn is still flagged).
    return replace(new, since=t, stage=0, outcome="none")


def _undo(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """Back to the position before the last move; the players put the pawns back,
    guided by the restore LEDs once the board has rested."""
    if state.stopped or not state.history or state.history[-1].table_after != state.table \
            or state.history[-1].after != state.pos:
        effects.append(Decision(t, "undo", {"ok": False}, Text(
            "er is geen zet om terug te nemen (of er is sindsdien gepast, gestraft of "
            "gestopt)", "there is no move to take back (or a hand was discarded, a "
            "penalty given or the game stopped since)")))
        return state
    last = state.history[-1]
    effects.append(Decision(t, "undo", {"ok": True, "seat": last.seat, "move": last.text}))
    state = _new_turn(replace(state, winner=None), last.before, last.table_before,
                      history=state.history[:-1])
    effects.append(Decision(t, "turn", {"seat": last.seat}))
    return replace(state, since=t, stage=0, outcome="none")


def _penalty(state: RefereeState, ev: Penalty, t: int, effects: list[Effect]) -> RefereeState:
    """NK table penalty: the offender's front pawn goes back to its nest (else the
    partner's). The expected position changes at once; the flag's error and restore LEDs
    guide the players to carry the pawn, and play goes on once the board matches."""
    ident: dict[str, Any] = {"seat": ev.seat}
    if state.over:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, GAME_OVER))
        return state
    if not 0 <= ev.seat < state.pos.seats:
        effects.append(Decision(t, "penalty", {**ident, "ok": False},
                                Text(f"onbekende stoel {ev.seat}", f"unknown seat {ev.seat}")))
        return state
    state = _settle_pending(state, t, effects)  # a move already on the board counts first
    if state.over:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, GAME_OVER))
        return state
    pos = state.pos
    after = front_pawn_penalty(pos, ev.seat)
    if after == pos:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, Text(
            "geen pion van deze stoel of zijn partner op de baan: geen straf",
            "no pawn of this seat or its partner on the track: no penalty")))
        return state
    owner = next(s for s in range(pos.seats) if pos.pawns[s] != after.pawns[s])
    loc = next(iter(Counter(pos.pawns[owner]) - Counter(after.pawns[owner])))
    hole = location_hole(pos.topology, owner, loc).name
    c = SEAT_COLOURS[owner]
    reason = Text(f"strafzet: zet de pion van {c.nl} op {hole} terug in het nest",
                  f"penalty: put {c.en}'s pawn on {hole} back in its nest")
    effects.append(Decision(t, "penalty", {**ident, "ok": True, "owner": owner,
                                           "pawn": hole}, reason))
    exps = expectations(after, state.card, state.config.reader)
    fix = repair(after.topology, state.sensed, references(after, exps))
    flag = Flag(reason, fix.error, fix.restore, fix.pairs) if fix.pairs else None
    return replace(state, pos=after, flag=flag, missing=(), ambiguous=(),
                   amb_touched=frozenset(),
                   partial=None, since=t, stage=0, outcome="none")


def _time_limit(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """Stop the game at the time limit (NK): pawns home score, no win bonus."""
    if state.over or state.pos.profile.scoring != "nk":
        why = GAME_OVER if state.over else Text(
            "alleen bij NK-scoring stopt de tijdslimiet het spel",
            "only NK scoring stops the game at the time limit")
        effects.append(Decision(t, "time_limit", {"ok": False}, why))
        return state
    state = _settle_pending(state, t, effects)
    if state.over:
        effects.append(Decision(t, "time_limit", {"ok": False}, GAME_OVER))
        return state
    score = [{"seats": list(team), "points": pts}
             for team, pts in nk_score(state.pos, timed_out=True).items()]
    effects.append(Decision(t, "time_limit", {"ok": True, "score": score}, Text(
        "de tijd is om: alleen de pionnen thuis tellen", "time is up: only pawns home count")))
    return replace(state, stopped=True, card=None, flag=None, missing=(), ambiguous=())


def _with_frame(state: RefereeState, t: int) -> tuple[RefereeState, list[Effect]]:
    holes = frame(state)
    if holes == state.leds:
        return state, []
    return replace(state, leds=holes), [Leds(t, holes)]
