"""The referee as a pure state machine: ``step(state, event) -> (state, effects)``.

Over 400 lines: one state machine; its handlers (holes, cards, discards, timers, undo,
penalties) share private helpers on the state. Reading a board is in recognize.py, the
LED frame in leds.py, the values in state.py.

Board events only change what is sensed and when; a board is judged once it has rested
(every pawn on a hole) for the settle time, again after the longer patience if it looked
like a move in progress, and at once when the next card is tapped or a hand discarded.
Timers are not threads: every event (a ``Tick`` when nothing else happens) first fires
the deadlines that have passed, at their own times.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from keezbord.engine.cards import RANKS
from keezbord.engine.deal import Table
from keezbord.engine.explain import explain, no_move_reason
from keezbord.engine.movegen import apply_part
from keezbord.engine.notation import InvalidMoveError, Move, Step, Swap, parse_move
from keezbord.engine.position import NEST, InvalidPositionError, Position, location_hole
from keezbord.engine.scoring import front_pawn_penalty, nk_score
from keezbord.engine.search import Known
from keezbord.engine.text import CARD_NAMES, Text
from keezbord.engine.topology import SEAT_COLOURS, TopologyError
from keezbord.host.events import (
    CardTap,
    Discard,
    HoleEvent,
    Penalty,
    SwitchRead,
    Tick,
    TimeLimit,
)

from . import hands
from .leds import frame
from .recognize import (
    Expectation,
    Judgement,
    board_of,
    board_sig,
    colours,
    expectation,
    expectations,
    guess_after,
    hole_key,
    judge,
    move_holes,
    pos_sig,
    references,
    repair,
)
from .state import (
    BOUNCE_MS,
    MAX_HELD,
    Advice,
    AdviceWanted,
    Config,
    Decision,
    Effect,
    Flag,
    Input,
    Leds,
    MoveRecord,
    Overrule,
    RefereeState,
    Undo,
    World,
)

TAP_CARD_FIRST = Text("leg eerst een kaart op de lezer", "tap a card on the reader first")
NO_CARD_FITS = Text("geen enkele kaart staat deze zet toe", "no card allows this move")
NOT_ONE_MOVE = Text(
    "de pionnen zijn niet verzet zoals één geldige zet dat doet",
    "the pawns were not moved the way one legal move moves them",
)
GAME_OVER = Text("het spel is afgelopen", "the game is over")
TWO_CARDS = Text(
    "twee kaarten gespeeld in één beurt: een getoonde kaart is gespeeld; "
    "neem de tweede kaart terug met 'ongedaan maken'",
    "two cards played in one turn: a card shown is a card played; take the "
    "second card back with 'undo'",
)
RESOLVE_FIRST = Text(
    "wijs eerst aan welke zet bedoeld is: til de bedoelde pion op",
    "first show which move was meant: lift the pawn you moved",
)


def new_game(
    pos: Position,
    dealer: int,
    config: Config | None = None,
    *,
    turn: int | None = None,
    board: frozenset[str] | None = None,
    t: int = 0,
) -> tuple[RefereeState, list[Effect]]:
    """The referee at the first deal (or mid-game from ``pos``). ``board`` is what the
    switches show (default: the position's own board)."""
    table = Table.first(pos.seats, dealer)
    if turn is not None:
        table = replace(table, turn=turn)
    assert table.turn is not None
    sensed = board if board is not None else board_of(pos)
    state = RefereeState(
        config or Config(),
        pos.replace(turn=table.turn),
        table,
        sensed,
        4 * pos.seats,
        now=t,
        since=t,
        worlds=hands.start(pos, sensed),
    )
    effects: list[Effect] = [Decision(t, "turn", {"seat": table.turn})]
    state, leds = _with_frame(state, t)
    return state, effects + leds


def step(state: RefereeState, event: Input) -> tuple[RefereeState, list[Effect]]:
    """Feed one event; returns the new state and what to show (decisions, LED frames)."""
    effects: list[Effect] = []
    t = max(event.t, state.now)
    if isinstance(event, HoleEvent) and not _on_board(state, event.hole):
        event = Tick(event.t)  # a switch the board does not have: noise, as time passing
    if state.pending is not None:
        state = _pending_lift(state, event, effects)
    state = _fire_timers(state, t, effects)
    state = replace(state, now=t)
    if isinstance(event, HoleEvent):
        state = _hole(state, event, t, effects)
    elif isinstance(event, CardTap):
        state = _keep_held(_card(state, event, t, effects), event)
    elif isinstance(event, Discard):
        state = _keep_held(_discard(state, event, t, effects), event)
    elif isinstance(event, Undo):
        state = _undo(state, t, effects)
    elif isinstance(event, Penalty):
        state = _penalty(state, event, t, effects)
    elif isinstance(event, TimeLimit):
        state = _time_limit(state, t, effects)
    elif isinstance(event, Overrule):
        state = _overrule(state, event, t, effects)
    elif isinstance(event, Advice):
        state = _advice(state, event, t, effects)
    elif isinstance(event, SwitchRead):
        changed = state.sensed ^ event.holes
        state = replace(
            state,
            sensed=event.holes,
            touched=state.touched | changed,
            since=t,
            stage=0,
            worlds=state.worlds if not changed else hands.start(state.pos, event.holes),
        )
    else:
        assert isinstance(event, Tick)
    if state.missing:
        state = _missing_back(state, t, effects)
    state, leds = _with_frame(state, t)
    return state, effects + leds


def _on_board(state: RefereeState, hole: str) -> bool:
    try:
        state.pos.topology.parse_hole(hole)
    except TopologyError:
        return False
    return True


def _keep_held(state: RefereeState, event: CardTap | Discard) -> RefereeState:
    """A reading that ends the turn at an earlier held lift replays this input too."""
    if not state.held:
        return state
    return replace(state, held=tuple((pre, (*evs, event)) for pre, evs in state.held))


def deadline(state: RefereeState) -> int | None:
    """When the board will next be judged (or a missing pawn asked back, or a lift that
    closes a move taken as no bounce) if nothing happens."""
    if state.pending is not None:
        return state.pending[2] + BOUNCE_MS
    return _deadline(state)


def _deadline(state: RefereeState) -> int | None:
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
        due = _deadline(state)
        if due is None or due > t:
            return state
        state = replace(state, now=due)
        if state.at_rest:
            state = _judge(state, due, effects, final=state.stage >= 1)
        else:
            state = _missing(state, due, effects)
        state, leds = _with_frame(state, due)
        effects.extend(leds)


def _judge(
    state: RefereeState, t: int, effects: list[Effect], *, final: bool, tap: bool = False
) -> RefereeState:
    """Judge the board at rest. ``final``: the patience is over; ``tap``: the next card
    was tapped or a hand shown, so a move that fits is taken without waiting."""
    stage = 2 if final or tap else 1
    if state.second_card is not None:
        return replace(state, stage=stage, outcome="illegal")  # until a card is taken back
    restored = _flag_restored(state, t, effects)
    if restored is not None:
        # (A swap whose knocked pawn was put back is taken: a new turn.)
        return restored if restored.history is not state.history else replace(restored, stage=stage)
    if state.put_right:
        state = _resolved(state, t, effects)
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    j = _judge_sensed(state, exps)
    partial = board_sig(state.sensed, pos.seats) if j.outcome == "partial" else None
    state = replace(state, stage=stage, partial=partial)
    if state.held and j.outcome != "before":
        # The other reading: the move before a held lift was complete and the next
        # player has started (a swapped pawn moved on; without a reader, a player who
        # plays again moving the same pawn). Taken when it needs no flag and the board
        # is wrong for this turn, or it completes the next turn's move while this turn
        # is merely in progress, or the next (other) player's whole move lies on the
        # board where this turn's move still looks right (a jack swap).
        wrong = j.outcome == "illegal" or (final and j.outcome == "patient")
        alt_pick = _better_alternative(state, t, wrong=wrong, in_progress=j.outcome != "accepted")
        if alt_pick is not None:
            effects.extend(alt_pick[1])
            return alt_pick[0]
    if j.outcome == "accepted":
        move, after = j.moves[0]
        # Without a reader a 7's first part may also be a whole move of a smaller card:
        # give the player the patience to go on before taking the smaller card.
        if j.also_partial and state.card is None and not (final or tap):
            return replace(state, outcome="patient", partial=board_sig(state.sensed, pos.seats))
        return _accept(state, move, after, t, effects)
    if j.outcome in ("ambiguous", "before", "partial"):
        state = replace(_resolved(state, t, effects), held=())
    if j.outcome == "ambiguous":
        if state.ambiguous != j.moves:
            topo = pos.topology
            effects.append(
                Decision(
                    t,
                    "ambiguous",
                    {"seat": state.seat, "moves": [m.text(topo) for m, _ in j.moves]},
                    Text(
                        "meer dan één zet past bij het bord: til de pion op die je bedoelde",
                        "more than one move fits the board: lift the pawn you meant",
                    ),
                )
            )
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
    if state.flagged and not state.missing:
        return state  # an illegal board or a penalty: its own guidance stands
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    in_play: set[str] = set()
    for exp in exps:
        in_play |= exp.departures.keys()
        if state.partial is not None:
            in_play |= exp.second_departures(state.partial).keys()
        for m in exp.legal:
            in_play |= move_holes(pos, m)
    fix = repair(pos.topology, state.sensed, references(pos, exps))
    gone = state.total - len(state.sensed)
    # Holes lifted this turn first (where the pawn came from), the latest first.
    holes = sorted(
        (h for h in fix.restore if hole_key(h) not in in_play),
        key=lambda h: -state.lifted.index(h) if h in state.lifted else 1,
    )[:gone]
    if not holes:
        return state
    missing = tuple(sorted(holes, key=fix.restore.index))
    flag = Flag(_missing_reason(missing), (), missing, tuple((None, h) for h in missing))
    if not state.missing:
        effects.append(
            Decision(t, "missing", {"seat": state.seat, "holes": list(missing)}, flag.reason)
        )
    return replace(state, flag=flag, missing=missing)


def _missing_reason(holes: tuple[str, ...]) -> Text:
    where = ", ".join(holes)
    if len(holes) == 1:
        return Text(
            f"een pion ontbreekt: zet hem terug op {where}",
            f"a pawn is missing: put it back on {where}",
        )
    return Text(
        f"er ontbreken pionnen: zet ze terug op {where}",
        f"pawns are missing: put them back on {where}",
    )


def _missing_back(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A missing pawn was put back: the flag clears once every pawn is on the board (or
    on the holes asked for); the board is then judged as usual."""
    left = tuple(h for h in state.missing if h not in state.sensed)
    if state.at_rest or not left:
        return replace(_resolved(state, t, effects), missing=())
    if left == state.missing or state.flag is None:
        return state
    return replace(
        state,
        missing=left,
        flag=replace(
            state.flag,
            reason=_missing_reason(left),
            restore=left,
            pairs=tuple((None, h) for h in left),
        ),
    )


def _resolved(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A flagged board was put right (it is the position, a legal move's board or part
    of one): say so, so hosts need not compare states."""
    if state.flag is None or state.second_card is not None:
        return state
    effects.append(Decision(t, "resolved", {"seat": state.seat}))
    return replace(state, flag=None, put_right=False)


def _flag(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    old = state.flag
    if old is not None:  # the same episode: the LEDs follow the board
        fix = repair(pos.topology, state.sensed, references(pos, exps, old.shown))
        flag = replace(old, error=fix.error, restore=fix.restore, pairs=fix.pairs)
        return replace(state, outcome="illegal", ambiguous=(), flag=flag)
    shown = _shown(state)
    ref = pos_sig(shown[1]) if shown is not None else None
    fix = repair(pos.topology, state.sensed, references(pos, exps, ref))
    state = replace(state, outcome="illegal", ambiguous=())
    reason = _illegal_reason(state, fix.pairs, shown)
    flag = Flag(reason, fix.error, fix.restore, fix.pairs, ref)
    effects.append(
        Decision(
            t,
            "illegal",
            {
                "seat": state.seat,
                "holes": list(_merge(fix.error, fix.restore)),
                "restore": [[a, b] for a, b in fix.pairs],
            },
            reason,
        )
    )
    return replace(state, flag=flag, restoring=True, multi_hand=False)


def _flag_restored(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState | None:
    """A flagged (or undone) board put back to the position before the move, as the
    switches see it. The restore clears what the flagged attempt touched, so lifting and
    putting back is never read as a jack swap (issue 11, item 3). The colours the
    touches carried decide what it is (issue 22, misreading 1): a jack swap whose
    knocked pawn was put back is the swap, taken; where pawns were put down with two or
    more in hand, a swap and a restore look the same: the referee asks instead of
    guessing (lights the holes, names which pawn goes where) and takes the board as put
    back; a swap meant is made again. None when this is not such a board."""
    if not state.restoring or state.missing or not state.at_rest:
        return None
    pos = state.pos
    sig = board_sig(state.sensed, pos.seats)
    if sig != pos_sig(pos):
        return None
    exps = expectations(pos, state.card, state.config.reader)
    worlds = state.worlds
    world = hands.certain(worlds)
    before = any(hands.shows(w, pos) for w in worlds)
    if worlds and not before:
        # The touches say the pawns do not stand as before: a legal move with these
        # colours stands (a jack swap whose knocked pawn was put back).
        if world is not None:
            for exp in exps:
                for m, after in exp.fitting(sig):
                    if hands.shows(world, after):
                        return _accept(state, m, after, t, effects)
        elif _judge_sensed(state, exps).outcome in ("accepted", "ambiguous"):
            return None  # judged as any board: the move, or which of the moves it is
    state = _resolved(state, t, effects)
    asked: tuple[str, ...] = ()
    if worlds and (world is None or not before):
        # Which pawn is where is unknown (or wrong): ask, naming the pawns' holes.
        holes = hands.disputed((*worlds, *hands.start(pos, state.sensed)))
        moves = [
            m
            for exp in exps
            for m, after in exp.fitting(sig)
            if any(hands.shows(w, after) for w in worlds)
        ]
        asked = _ask(state, t, effects, moves, holes)
    elif not worlds and state.multi_hand:
        # The colours were lost on the way: a legal move that fits is asked about.
        j = judge(pos, exps, state.sensed, state.touched, state.co_empty)
        if j.outcome in ("accepted", "ambiguous"):
            moves = [m for m, _ in j.moves]
            holes = frozenset().union(*(move_holes(pos, m) for m in moves))
            asked = _ask(state, t, effects, moves, holes)
    return replace(
        state,
        touched=frozenset(),
        lifted=(),
        co_empty=frozenset(),
        bounce=None,
        worlds=hands.start(pos, state.sensed),  # taken as put back
        restoring=False,
        multi_hand=False,
        outcome="before",
        ambiguous=(),
        amb_touched=frozenset(),
        partial=None,
        ask=asked,
    )


def _ask(
    state: RefereeState, t: int, effects: list[Effect], moves: list[Move], holes: frozenset[str]
) -> tuple[str, ...]:
    """Ask whether the pawns were swapped or put back: the holes lit, the colours named."""
    pos = state.pos
    order = sorted(holes, key=lambda h: int(h[1:]) if h[0] == "T" else -1)
    seat_of = colours(pos)
    nl = ", ".join(f"{SEAT_COLOURS[seat_of[h]].nl} op {h}" for h in order)
    en = ", ".join(f"{SEAT_COLOURS[seat_of[h]].en} on {h}" for h in order)
    if moves:
        # Taken as put back. A swap meant is made again with both pawns in hand at
        # once (what the switches read as a swap), put down swapped: from where they
        # stand if they stand swapped already.
        reason = Text(
            f"gewisseld of teruggezet? het bord telt ze als teruggezet ({nl}); bedoelde je "
            "de wissel, til dan beide pionnen tegelijk op en zet ze gewisseld neer",
            f"swapped or put back? the board counts them as put back ({en}); if you meant "
            "the swap, lift both pawns at once and put them down swapped",
        )
    else:
        reason = Text(
            f"zet de pionnen zoals voor de zet ({nl}): het bord ziet niet welke pion waar staat",
            f"set the pawns as before the move ({en}): the board cannot see which pawn "
            "stands where",
        )
    data = {"seat": state.seat, "moves": [m.text(pos.topology) for m in moves], "holes": order}
    effects.append(Decision(t, "ambiguous", data, reason))
    return tuple(order)


def _merge(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return a + tuple(h for h in b if h not in a)


def _illegal_reason(
    state: RefereeState,
    pairs: Sequence[tuple[str | None, str | None]],
    shown: tuple[Move, Position] | None,
) -> Text:
    world = hands.certain(state.worlds)
    knocked = _knocked(world, pairs, shown, state.pos) if world and shown else None
    if knocked is not None:
        return knocked
    after = guess_after(state.pos, state.sensed, hands.owners(world) if world else None)
    if state.card is None:
        taken = _not_part_of_last(state, after)
        if taken is not None:
            return taken
        return TAP_CARD_FIRST if state.config.reader else NO_CARD_FITS
    if after is None:
        return NOT_ONE_MOVE
    why = explain(state.pos, state.card, after)
    return NOT_ONE_MOVE if why is None else why.text


def _shown(state: RefereeState) -> tuple[Move, Position] | None:
    """The legal move the board showed at rest before its latest held lift."""
    for pre, _ in reversed(state.held):
        shown = _move_on_board(pre)
        if shown is not None:
            return shown
    return None


def _knocked(
    world: World,
    pairs: Sequence[tuple[str | None, str | None]],
    shown: tuple[Move, Position],
    pos: Position,
) -> Text | None:
    """A legal move lay on the board at rest (``shown``), then a pawn of it was lifted
    (a held lift) and the board went wrong: if putting it right along the restore pairs
    gives that move's position in the colours the touches carried, the pawn was knocked
    and the move counts. Says so, naming each pawn by its colour (issue 22,
    misreading 1)."""
    moves = [(a, b) for a, b in pairs if a is not None and b is not None]
    if not moves or len(moves) != len(pairs):
        return None
    carried = dict(world[0])
    for a, b in moves:
        if a not in carried:
            return None
        carried[b] = carried.pop(a)
    if not hands.shows((frozenset(carried.items()), ()), shown[1]):
        return None
    text = shown[0].text(pos.topology)
    seat_of = dict(world[0])
    nl = " en ".join(
        f"zet de {SEAT_COLOURS[seat_of[a]].nl_adj} pion van {a} terug op {b}" for a, b in moves
    )
    en = " and ".join(
        f"put the {SEAT_COLOURS[seat_of[a]].en} pawn from {a} back on {b}" for a, b in moves
    )
    return Text(f"de zet {text} telt: {nl}", f"the move {text} counts: {en}")


def _not_part_of_last(state: RefereeState, after: Position | None) -> Text | None:
    """No card yet, and only pawns of the seat that just moved were moved: that move was
    taken (often at once, by the next player's lift) and these pawns are not part of it
    (issue 22, misreading 4)."""
    if not state.history or after is None or state.history[-1].after is not state.pos:
        return None
    last = state.history[-1]
    pos = state.pos
    mover = last.before.controlled_seat(last.seat)
    moved = [s for s in range(pos.seats) if after.pawns[s] != pos.pawns[s]]
    if moved != [mover] or mover == pos.controlled_seat(pos.turn):
        return None
    n = sum((Counter(pos.pawns[mover]) - Counter(after.pawns[mover])).values())
    if n == 1:
        return Text(
            f"je zet {last.text} is al genomen; deze pion hoort er niet bij",
            f"your move {last.text} was taken; this pawn is not part of it",
        )
    return Text(
        f"je zet {last.text} is al genomen; deze pionnen horen er niet bij",
        f"your move {last.text} was taken; these pawns are not part of it",
    )


# -- accepting moves and passing the turn ------------------------------------------------


def _accept(
    state: RefereeState,
    move: Move,
    after: Position,
    t: int,
    effects: list[Effect],
    overruled: str | None = None,
) -> RefereeState:
    seat = state.table.turn
    assert seat is not None
    state = _resolved(state, t, effects)
    topo = after.topology
    text = move.text(topo)
    table = _advance(state.table.played(seat))
    winner = after.winner()
    new_pos = after.replace(
        turn=table.turn if winner is None and table.turn is not None else after.turn
    )
    data: dict[str, Any] = {"seat": seat, "move": text, "position": new_pos.to_dict()}
    if overruled is not None:
        data["overruled"] = overruled
    effects.append(Decision(t, "move", data))
    record = MoveRecord(
        t,
        seat,
        move.card,
        move,
        text,
        state.pos,
        new_pos,
        state.table,
        table,
        _without_turn_card(state),
        overruled,
    )
    # The colours now: the position the move leads to (the referee's reading), unless
    # the board does not show it (a corrected move: the players are guided back).
    worlds = hands.narrow(state.worlds, [new_pos]) or hands.start(new_pos, state.sensed)
    state = _new_turn(state, new_pos, table, history=(*state.history, record))
    state = replace(state, worlds=worlds or state.worlds)
    if winner is not None:
        effects.append(Decision(t, "win", {"seats": list(winner)}))
        return replace(state, winner=winner)
    effects.append(_turn_decision(t, state.table, table))
    return state


def _without_turn_card(state: RefereeState) -> tuple[tuple[str, str | None], ...]:
    """The cards played this deal before the turn's card (what an undo goes back to)."""
    played = state.cards_played
    mine = (state.card, state.card_tag)
    for i in range(len(played) - 1, -1, -1):
        if played[i] == mine:
            return played[:i] + played[i + 1 :]
    return played


def _advance(table: Table) -> Table:
    return table.next_round() if table.round_over else table


def _turn_decision(t: int, before: Table, after: Table) -> Decision:
    data: dict[str, Any] = {"seat": after.turn}
    if (after.round_no, after.shuffle_no) != (before.round_no, before.shuffle_no):
        data["deal"] = {"dealer": after.dealer, "cards": after.round_size}
    return Decision(t, "turn", data)


def _new_turn(
    state: RefereeState, pos: Position, table: Table, history: tuple[MoveRecord, ...] | None = None
) -> RefereeState:
    # A new deal (shuffle): every physical card is back in the deck.
    played = state.cards_played if table.shuffle_no == state.table.shuffle_no else ()
    if pos is not state.pos:
        state.pos.drop_caches()  # it joins the history, kept for the rest of the game
    return replace(
        state,
        pos=pos,
        table=table,
        card=None,
        touched=frozenset(),
        lifted=(),
        hint=(),
        co_empty=frozenset(),
        flag=None,
        missing=(),
        ambiguous=(),
        amb_touched=frozenset(),
        partial=None,
        outcome="accepted",
        stage=2,
        history=state.history if history is None else history,
        bounce=None,
        restoring=False,
        multi_hand=False,
        put_right=False,
        ask=(),
        card_tag=None,
        second_card=None,
        cards_played=played,
        held=(),
    )


def _next_player(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """A card tapped or a hand shown: with a held lift and no move on the board now, the
    move before that lift was complete (the lift was the next player's); then as
    ``_settle_pending``."""
    # Players in quick succession: each held lift may have been the next player's.
    while state.held and state.second_card is None:
        current_ok = state.at_rest and _move_on_board(state) is not None
        pick = _better_alternative(state, t, wrong=not current_ok, in_progress=False)
        if pick is None:
            break
        effects.extend(pick[1])
        state = pick[0]
    return _settle_pending(state, t, effects)


def _settle_pending(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """The next card or a shown hand: a move already on the board is taken at once, and
    a flagged board already put right is resolved at once (issue 11, item 5)."""
    if state.over or not state.at_rest or state.stage >= 2 or state.second_card is not None:
        return state
    restored = _flag_restored(state, t, effects)
    if restored is not None:
        return restored
    if state.put_right:
        state = _resolved(state, t, effects)
    exps = expectations(state.pos, state.card, state.config.reader)
    if not exps:
        return state
    j: Judgement = _judge_sensed(state, exps)
    if j.outcome == "accepted":
        return _accept(state, *j.moves[0], t, effects)
    if j.outcome in ("before", "partial", "ambiguous") and not state.missing:
        return _resolved(state, t, effects)
    return state


def _lift_verdict(state: RefereeState, hole: str) -> str | None:
    """What lifting ``hole`` does to the move on the board. "close": the board at rest
    shows a legal move and the pawn cannot be part of it (not a pawn it moves, not one
    it can capture, not a 7's next pawn): the next player does not wait for the settle
    time or a 7's patience (issue 11, items 6-7). "hold": the pawn may be part of it;
    remembered so the next card can still close the move. None: no move on the board."""
    if (
        state.over
        or not state.at_rest
        or state.stage >= 2
        or hole not in state.sensed
        or state.second_card is not None
        or state.flagged
    ):
        return None
    move = _move_on_board(state)
    if move is None:
        return None
    return "hold" if hole_key(hole) in _belongs(state, move[0]) else "close"


MAX_CHAIN = 2  # nested splits tried for one reading


def _better_alternative(
    state: RefereeState,
    t: int,
    *,
    wrong: bool,
    in_progress: bool,
    lifted: str | None = None,
    depth: int = 0,
) -> tuple[RefereeState, list[Effect]] | None:
    """The first held reading (earliest split first) that needs no flag and beats the
    current one: the current board is ``wrong`` for this turn; or the next turn's move
    is complete too while this turn is ``in_progress``; or the held events are a whole
    move of the next, other player (on the board, or taken) - and, for a ``lifted``
    hole, that lift closes it too."""
    for alt, alt_effects in _held_alternatives(state, t):
        if not _sound(alt, alt_effects):
            # A quick chain of three turns (a jack swap, the swap back by the next
            # player, a capture): the reading ends a turn at this split and again at
            # one of its own later splits. Kept until the evidence decides.
            sub = (
                _better_alternative(alt, t, wrong=True, in_progress=False, depth=depth + 1)
                if alt.held and depth < MAX_CHAIN
                else None
            )
            if sub is None:
                continue
            cut = min((e.t for e in sub[1]), default=t)
            alt, alt_effects = sub[0], [e for e in alt_effects if e.t < cut] + sub[1]
        n = len(state.history)
        split = alt.history[n] if len(alt.history) > n else None
        if split is None:
            continue
        took_next = len(alt.history) >= n + 2
        nxt = alt.history[n + 1].move if took_next else None
        if nxt is None and alt.at_rest:
            on_board = _move_on_board(alt)
            nxt = on_board[0] if on_board is not None else None
        # While this turn's own reading holds, the other one must move a pawn this seat
        # does not play (a partner playing on with the same pawn is one move).
        other = nxt is not None and _moves_other_pawns(state, nxt)
        if lifted is not None:
            # (Not when the next turn would only carry on with this seat's pawns: a
            # pawn counted slowly into its home is one move, not a partner's second.)
            ok = (
                split.table_after.turn != state.seat
                and other
                and _lift_verdict(alt, lifted) == "close"
            )
        else:
            ok = wrong or (
                split.table_after.turn != state.seat and ((in_progress and took_next) or other)
            )
        if ok:
            return alt, alt_effects
    return None


def _moves_other_pawns(state: RefereeState, move: Move) -> bool:
    ctrl = state.pos.controlled_seat(state.pos.turn)
    for part in move.parts:
        seats = (part.seat_a, part.seat_b) if isinstance(part, Swap) else (part.seat,)
        if any(s != ctrl for s in seats):
            return True
    return False


def _sound(state: RefereeState, effects: list[Effect]) -> bool:
    """No flag (now or on the way), and a board at rest that is not wrong (judged as at
    a tap)."""
    if (
        state.flagged
        or state.second_card is not None
        or any(
            isinstance(e, Decision) and e.type in ("illegal", "missing", "ambiguous")
            for e in effects
        )
    ):
        return False
    if not state.at_rest or state.over:
        return True
    exps = expectations(state.pos, state.card, state.config.reader)
    j = _judge_sensed(state, exps)
    return j.outcome != "illegal"


def _judge_sensed(state: RefereeState, exps: Sequence[Expectation]) -> Judgement:
    """The board as the state senses it, judged against ``exps`` (one call for every
    place that asks whether the move on the board is complete)."""
    worlds = state.worlds
    return judge(
        state.pos,
        exps,
        state.sensed,
        state.touched,
        state.co_empty,
        state.amb_touched,
        state.lifted,
        (lambda a: any(hands.shows(w, a) for w in worlds)) if worlds else None,
    )


def _held_alternatives(state: RefereeState, t: int) -> Iterator[tuple[RefereeState, list[Effect]]]:
    """The readings where the move on the board before a held lift was complete (the
    earliest lift first: the first end of the turn that fits; later ends are found by
    the replay itself): it is accepted at that lift, and the hole events since are
    replayed as the next turn's, up to ``t``."""
    for pre, evs in state.held:
        effects: list[Effect] = []
        move = _move_on_board(pre)
        if move is None or not evs:
            continue
        alt = _accept(pre, *move, evs[0].t, effects)
        alt = replace(alt, now=evs[0].t)
        for e in evs:
            alt, eff = step(alt, e)
            effects += eff
        if t > alt.now or alt.pending is not None:
            alt, eff = step(alt, Tick(max(t, alt.now)))
            effects += eff
        if state.flag is not None and pre.flag is None:  # (else the accept said it)
            effects.insert(0, Decision(evs[0].t, "resolved", {"seat": state.seat}))
        yield alt, effects


def _move_on_board(state: RefereeState) -> tuple[Move, Position] | None:
    exps = expectations(state.pos, state.card, state.config.reader)
    if not exps:
        return None
    j = _judge_sensed(state, exps)
    return j.moves[0] if j.outcome == "accepted" else None


def _pending_lift(state: RefereeState, event: Input, effects: list[Effect]) -> RefereeState:
    """Settle a held-back closing lift: a place on its hole within BOUNCE_MS was a
    bounce (the move stays open); anything else closes the move at the lift's time and
    the lift counts for the next turn."""
    assert state.pending is not None
    before, hole, t = state.pending
    if (
        isinstance(event, HoleEvent)
        and event.action == "place"
        and event.hole == hole
        and event.t - t < BOUNCE_MS
    ):
        return replace(state, pending=None)
    if isinstance(event, Tick | Advice) and event.t < t + BOUNCE_MS:
        return state
    move = _move_on_board(before)
    if move is None:
        return replace(state, pending=None)
    closed = _accept(before, *move, t, effects)
    closed, leds = _with_frame(closed, t)
    effects.extend(leds)
    return _hole(replace(closed, now=t), HoleEvent(t, "lift", hole), t, closes=False)


def _belongs(state: RefereeState, move: Move) -> set[str]:
    """Hole keys of pawns that may still be part of the move on the board: those it
    moves or captures, a 7's next pawns (and their victims) and, with a card reader,
    every pawn of the mover the tapped card could move (a player changing their mind)."""
    pos = state.pos
    exps = expectations(pos, state.card, state.config.reader)
    ctrl = pos.controlled_seat(pos.turn)
    seat_of = colours(pos)
    # Rested for the settle time already (only a 7's patience keeps it open): only a
    # 7's next pawn may still be part of it.
    rested = state.stage >= 1
    keys = set() if rested else set(move_holes(pos, move))
    for part in move.parts:
        if isinstance(part, Swap):
            # A swap on the board is whole: the other seat's pawn, now on the mover's
            # old hole, is its owner's to move next (the mover's own one may be adjusted).
            for hole, owner in ((f"T{part.b}", part.seat_a), (f"T{part.a}", part.seat_b)):
                if owner != ctrl:
                    keys.discard(hole)
    sig = board_sig(state.sensed, pos.seats)
    for exp in exps:
        if exp.card == "7":
            for key, tgts in exp.second_departures(sig).items():
                keys.add(key)
                keys.update(tg.hole for tg in tgts if tg.victim is not None)
        if state.config.reader and not rested:
            keys.update(k for k in exp.departures if seat_of.get(k) == ctrl or k == f"N{ctrl}")
    for part in move.parts:
        if not isinstance(part, Swap) and part.frm == NEST and not rested:
            keys.add(f"N{part.seat}")
    return keys


# -- events ------------------------------------------------------------------------------


def _hole(
    state: RefereeState,
    ev: HoleEvent,
    t: int,
    effects: list[Effect] | None = None,
    *,
    closes: bool = True,
) -> RefereeState:
    h = ev.hole
    while (
        effects is not None
        and ev.action == "lift"
        and state.held
        and state.at_rest
        and h in state.sensed
        and _lift_verdict(state, h) == "close"
    ):
        # Someone reaches for a pawn that is no part of either reading while the held
        # events lie on the board as a whole move of the next (other) player (a jack
        # swap keeps the board's look): that reading wins. Repeated: in a quick chain
        # (two jack swaps in a row) the taken reading holds a split of its own.
        pick = _better_alternative(state, t, wrong=False, in_progress=False, lifted=h)
        if pick is None:
            break
        effects.extend(pick[1])
        state = pick[0]
    bounce = None
    bounced = False
    worlds = state.worlds
    multi = state.multi_hand
    ask = state.ask
    held = state.held
    since, stage = t, 0
    if ev.action == "lift":
        verdict = _lift_verdict(state, h) if closes else None
        if verdict == "close":
            # Closes the move on the board unless the switch bounces back at once.
            state = replace(state, pending=(state, h, t))
        elif verdict == "hold" and t - state.since >= BOUNCE_MS:
            # (A pawn slid over a hole is lifted again at once: no hand let go of it.)
            if held and _one_pawn_path(held[-1][1], h):
                # The same pawn counted on from the last split's hole to this one: one
                # hand still moving it (another seat playing on with the same pawn is
                # read as one move anyway, docs/referee.md known limits). The later
                # split supersedes it, so counting never crowds out real ends.
                held = held[:-1]
            held = (*held, (replace(state, held=()), ()))
            if len(held) > MAX_HELD:  # keep the earliest and the latest splits
                held = held[: MAX_HELD // 2] + held[MAX_HELD // 2 + 1 :]
        sensed = state.sensed - {h}
        touched = state.touched | {h}
        pairs = {(min(h, x), max(h, x)) for x in touched if x != h and x not in sensed}
        co_empty = state.co_empty | pairs if pairs else state.co_empty
        lifted = state.lifted if h in state.lifted else (*state.lifted, h)
        if h in state.sensed:
            bounce = (h, t, frozenset(pairs) - state.co_empty, state.since, state.stage, worlds)
            worlds = hands.lift(worlds, h)
        if h in ask:
            ask = ()
    else:
        sensed = state.sensed | {h}
        touched = state.touched | {h}
        co_empty = state.co_empty
        b = state.bounce
        if b is not None and b[0] == h and t - b[1] < min(BOUNCE_MS, state.config.settle_ms):
            # The switch bounced (nothing happened between): the same pawn never left,
            # so its hole was never empty together with another (issue 11, item 4).
            co_empty = co_empty - b[2]
            since, stage, worlds = b[3], b[4], b[5]
            bounced = True
        elif h not in state.sensed:
            worlds = hands.place(worlds, h)
            if state.total - len(state.sensed) >= 2:
                multi = True  # placed with two or more pawns in hand: which one is unknown
        lifted = state.lifted
    amb = state.amb_touched | {h} if state.ambiguous and ev.action == "lift" else state.amb_touched
    if held:
        held = tuple((pre, (*evs, ev)) for pre, evs in held)
    state = replace(
        state,
        sensed=sensed,
        touched=touched,
        co_empty=co_empty,
        lifted=lifted,
        since=since,
        stage=stage,
        amb_touched=amb,
        bounce=bounce,
        worlds=worlds,
        multi_hand=multi,
        ask=ask,
        held=held,
    )
    if ev.action == "place" and state.at_rest and not bounced:
        state = _restore_point(state) if state.restoring else _read_colours(state)
    return state


def _read_colours(state: RefereeState) -> RefereeState:
    """All pawns down after two or more were in hand: the referee's reading of the board
    (a legal move, or the position before) says which pawn went where."""
    if len(state.worlds) < 2:
        return state
    j = _judge_sensed(state, expectations(state.pos, state.card, state.config.reader))
    readings = [a for _, a in j.moves] if j.outcome in ("accepted", "ambiguous") else []
    if j.outcome == "before":
        readings = [state.pos]
    worlds = hands.narrow(state.worlds, readings)
    return replace(state, worlds=worlds) if worlds else state


def _restore_point(state: RefereeState) -> RefereeState:
    """A flagged (or undone, or penalised) board put back exactly, as the touches tell
    (one pawn in hand at a time): what follows is a new attempt, not part of the flagged
    one (issue 22, misreading 3). The flag's "resolved" waits for the settle time or the
    next card, as for any board put right."""
    world = hands.certain(state.worlds)
    if state.missing or world is None or not hands.shows(world, state.pos):
        return state
    return replace(
        state,
        touched=frozenset(),
        lifted=(),
        co_empty=frozenset(),
        restoring=False,
        multi_hand=False,
        ambiguous=(),
        amb_touched=frozenset(),
        partial=None,
        ask=(),
        put_right=state.flag is not None,
    )


def _one_pawn_path(evs: tuple[Input, ...], hole: str) -> bool:
    """``evs`` are one pawn lifted and put down hole after hole, ending on ``hole``."""
    if not evs:
        return False
    at: str | None = None
    for i, e in enumerate(evs):
        if not isinstance(e, HoleEvent) or e.action != ("lift" if i % 2 == 0 else "place"):
            return False
        if i % 2 == 0 and i > 0 and e.hole != at:
            return False
        at = e.hole
    return len(evs) % 2 == 0 and at == hole


def _resolve_card(state: RefereeState, ev: CardTap) -> tuple[str | None, Text | None]:
    if ev.tag is not None and ev.card is None:
        card = state.config.tags.get(ev.tag)
        if card is None:
            return None, Text(
                f"onbekende kaart (tag {ev.tag}): leer de kaart eerst aan",
                f"unknown card (tag {ev.tag}): enroll the card first",
            )
    else:
        card = ev.card
    if card not in RANKS:  # names as FORMATS writes them, whole: "K\n" or "k" is no king
        return None, _unknown_card(card)
    return card, None


def _unknown_card(card: str | None) -> Text:
    return Text(f"onbekende kaart {card!r}", f"unknown card {card!r}")


def _card(state: RefereeState, ev: CardTap, t: int, effects: list[Effect]) -> RefereeState:
    card, problem = _resolve_card(state, ev)
    ident: dict[str, Any] = {"card": card if card is not None else ev.card}  # as read
    if ev.tag is not None:
        ident["tag"] = ev.tag
    if problem is not None:
        effects.append(Decision(t, "card_rejected", ident, problem))
        return state
    assert card is not None
    if state.over:
        effects.append(Decision(t, "card_rejected", ident, GAME_OVER))
        return state
    state = _next_player(state, t, effects)
    if state.winner is not None:
        effects.append(Decision(t, "card_rejected", ident, GAME_OVER))
        return state
    if state.ambiguous:
        effects.append(Decision(t, "card_rejected", ident, RESOLVE_FIRST))
        return state
    pos = state.pos
    if state.card is not None and (
        ev.tag == state.card_tag
        if ev.tag is not None
        else state.card_tag is None and card == state.card
    ):
        return state  # the turn's own card read again
    if ev.tag is not None and any(tag == ev.tag for _, tag in state.cards_played):
        name = CARD_NAMES[card]
        effects.append(
            Decision(
                t,
                "card_rejected",
                ident,
                Text(
                    f"{name.nl} (tag {ev.tag}) is deze deling al gespeeld: een kaart van de "
                    "aflegstapel telt niet",
                    f"{name.en} (tag {ev.tag}) was already played this "
                    "deal: a card from the discard pile does not count",
                ),
            )
        )
        return state
    if sum(1 for c, _ in state.cards_played if c == card) >= pos.seats:
        name = CARD_NAMES[card]
        effects.append(
            Decision(
                t,
                "card_rejected",
                ident,
                Text(
                    f"{name.nl}: alle {pos.seats} van deze soort zijn deze deling al gespeeld",
                    f"{name.en}: all {pos.seats} of this rank were already played this deal",
                ),
            )
        )
        return state
    exp = expectation(pos, card)
    if not exp.legal:
        effects.append(
            Decision(
                t, "card_rejected", {**ident, "seat": state.seat}, no_move_reason(pos, card).text
            )
        )
        return state
    if state.card is not None:
        # A card shown is a card played: a second card in the turn is flagged, the
        # first still holds; undo takes the second back (issue 11, item 8).
        if state.second_card is not None:
            effects.append(Decision(t, "card_rejected", ident, TWO_CARDS))
            return state
        flag = Flag(TWO_CARDS, (), (), ())
        effects.append(
            Decision(
                t,
                "illegal",
                {"seat": state.seat, "holes": [], "restore": [], "cards": [state.card, card]},
                TWO_CARDS,
            )
        )
        return replace(state, second_card=card, flag=flag, missing=(), since=t, stage=0)
    state = replace(
        state,
        card=card,
        card_tag=ev.tag,
        since=t,
        stage=0,
        outcome="none",
        cards_played=(*state.cards_played, (card, ev.tag)),
    )
    if state.config.hints == "full" and state.seat is not None:
        # The search's move for this card (the referee knows no other card of the hand):
        # asked of the host, which searches off the event loop and feeds the answer back
        # as an Advice input (seeded by the move number: the same game, the same hint).
        effects.append(
            AdviceWanted(
                t,
                state.seat,
                card,
                len(state.history),
                pos.replace(turn=state.seat),
                known_cards(state),
            )
        )
    return state


def _advice(state: RefereeState, ev: Advice, t: int, effects: list[Effect]) -> RefereeState:
    """The host's answer to AdviceWanted: shown (decision "hint", LED role "hint") if the
    turn and card it was asked for still stand and it is a legal move of that card;
    otherwise ignored (the player was quicker than the search)."""
    if (
        state.config.hints != "full"
        or state.seat != ev.seat
        or state.card != ev.card
        or len(state.history) != ev.n
        or state.hint
        or state.second_card is not None
    ):
        return state
    try:
        move = parse_move(ev.move, state.pos.topology)
    except InvalidMoveError:
        return state
    if move.card != ev.card or move not in expectation(state.pos, ev.card).legal:
        return state
    topo = state.pos.topology
    names = set(topo.hole_names)
    holes = tuple(h for h in ev.holes if h in names)
    effects.append(
        Decision(
            t,
            "hint",
            {"seat": ev.seat, "move": ev.move, "holes": list(holes), "win": round(ev.win, 3)},
            ev.reason,
        )
    )
    return replace(state, hint=holes)


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
    state = _next_player(state, t, effects)
    seat = state.seat
    if seat is None:
        effects.append(Decision(t, "discard", {"seat": None, "ok": False}, GAME_OVER))
        return state
    hand: list[str] = []
    for c in ev.cards:
        if c not in RANKS:
            effects.append(Decision(t, "discard", {"seat": seat, "ok": False}, _unknown_card(c)))
            return state
        hand.append(c)
    if state.card is not None:
        hand.insert(0, state.card)
    pos = state.pos
    for c in dict.fromkeys(hand):
        moves = expectation(pos, c).legal
        if moves:
            name = CARD_NAMES[c]
            effects.append(
                Decision(
                    t,
                    "discard",
                    {"seat": seat, "ok": False, "must_play": moves[0].text(pos.topology)},
                    Text(
                        f"{name.nl} kan gespeeld worden: je moet spelen",
                        f"{name.en} can be played: you must play",
                    ),
                )
            )
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
    guided by the restore LEDs once the board has rested. With a second card flagged,
    undo takes that card back instead."""
    if state.second_card is not None:
        card = state.second_card
        effects.append(Decision(t, "undo", {"ok": True, "seat": state.seat, "card": card}))
        state = replace(state, second_card=None)
        state = _resolved(state, t, effects)
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
    state = _new_turn(
        replace(state, winner=None), last.before, last.table_before, history=state.history[:-1]
    )
    effects.append(Decision(t, "turn", {"seat": last.seat}))
    return replace(
        state, since=t, stage=0, outcome="none", cards_played=last.cards_before, restoring=True
    )


def _penalty(state: RefereeState, ev: Penalty, t: int, effects: list[Effect]) -> RefereeState:
    """NK table penalty: the offender's front pawn goes back to its nest (else the
    partner's). The expected position changes at once; the flag's error and restore LEDs
    guide the players to carry the pawn, and play goes on once the board matches."""
    ident: dict[str, Any] = {"seat": ev.seat}
    if state.over:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, GAME_OVER))
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
    state = _settle_pending(state, t, effects)  # a move already on the board counts first
    if state.over:
        effects.append(Decision(t, "penalty", {**ident, "ok": False}, GAME_OVER))
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
        multi_hand=False,
        partial=None,
        since=t,
        stage=0,
        outcome="none",
    )


def _overrule(state: RefereeState, ev: Overrule, t: int, effects: list[Effect]) -> RefereeState:
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
        return refuse(GAME_OVER)
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
        base = _new_turn(
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
        state = _accept(base, move, after, t, effects, overruled=reason)
        # The board is judged afresh against the corrected position (restore LEDs).
        return replace(state, since=t, stage=0, outcome="none", restoring=True)
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
    return _accept(replace(state, second_card=None), move, after, t, effects, overruled=reason)


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


def _time_limit(state: RefereeState, t: int, effects: list[Effect]) -> RefereeState:
    """Stop the game at the time limit (NK): pawns home score, no win bonus."""
    if state.over or state.pos.profile.scoring != "nk":
        why = (
            GAME_OVER
            if state.over
            else Text(
                "alleen bij NK-scoring stopt de tijdslimiet het spel",
                "only NK scoring stops the game at the time limit",
            )
        )
        effects.append(Decision(t, "time_limit", {"ok": False}, why))
        return state
    state = _settle_pending(state, t, effects)
    if state.over:
        effects.append(Decision(t, "time_limit", {"ok": False}, GAME_OVER))
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


def _with_frame(state: RefereeState, t: int) -> tuple[RefereeState, list[Effect]]:
    holes = frame(state)
    if holes == state.leds:
        return state, []
    return replace(state, leds=holes), [Leds(t, holes)]
