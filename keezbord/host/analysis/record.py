"""A refereed game read back as its players met it (engine/hand_record.py), with each
decision's hand.

On a real board keezbord never sees a hand: players tap only the card they play. But a
hand is known afterwards. By the end of a round every seat has tapped each of its cards
or shown the rest when it discarded, so a seat's hand at a decision is the cards it
tapped from then on in that round plus those it showed. Where that falls short of the
hand's size (the round the game was won in ended early; a card went unread, or the board
has no reader and the card is the referee's guess), the decision is marked
``hand_known`` False with the card played as all of the hand known: the analysis then
judges it among that card's moves only.

In the simulator the hands are known at once: a journal's simulator game (its
``web_sim`` record: seed and exchanges) is dealt again to read every hand exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from keezbord.engine.hand_record import GameRecord, TurnRecord
from keezbord.engine.search import Known
from keezbord.host.events import Discard, Tick
from keezbord.host.referee import (
    Decision,
    Input,
    MoveRecord,
    Setup,
    TraceError,
    input_from_dict,
    new_game,
    parse_trace,
    setup_from_dict,
    step,
)


@dataclass(frozen=True, slots=True)
class _Shown:
    """An accepted discard: who, the cards shown, and the game as it stood."""

    seat: int
    cards: tuple[str, ...]
    after_moves: int  # moves in the history when it came
    deal: tuple[int, int]
    pos: Any  # Position before it
    sizes: tuple[int, ...]


def refereed(setup: Setup, events: Iterable[Input]) -> tuple[list[MoveRecord | _Shown], Any]:
    """The game's turns in order (accepted moves as the history holds them at the end,
    undone and corrected moves gone; accepted discards where they came), and the final
    referee state."""
    state, _ = new_game(
        setup.position, setup.dealer, setup.config, turn=setup.turn, cards_left=setup.cards_left
    )
    shown: list[_Shown] = []
    last = 0
    for ev in [*events, None]:
        if ev is None:  # the end: the settle time passes, as ``keezbord replay`` lets it
            ev = Tick(max(last, state.now) + state.config.settle_ms)
        last = ev.t
        before = state
        state, effects = step(state, ev)
        for e in effects:
            if isinstance(e, Decision) and e.type == "discard" and e.data.get("ok"):
                cards = tuple(ev.cards) if isinstance(ev, Discard) else ()
                # A card tapped before the hand was shown is one of it, unless it was
                # the last player's, whose move this event settled first.
                settled = len(state.history) > len(before.history)
                if before.card is not None and not settled:
                    cards = (before.card, *cards)
                seat = int(e.data["seat"])
                pos, table = before.pos, before.table
                if settled:
                    pos, table = state.history[-1].after, state.history[-1].table_after
                shown.append(
                    _Shown(
                        seat,
                        cards,
                        len(state.history),
                        (table.shuffle_no, table.round_no),
                        pos.replace(turn=seat),
                        table.cards_left,
                    )
                )
    # A discard cannot be undone, nor a move before it: each discard stays where it came.
    turns: list[MoveRecord | _Shown] = []
    k = 0
    for d in shown:
        turns.extend(state.history[k : d.after_moves])
        k = max(k, d.after_moves)
        turns.append(d)
    turns.extend(state.history[k:])
    return turns, state


def game_record(
    setup: Setup,
    events: Sequence[Input],
    *,
    hands: Mapping[int, tuple[str, ...]] | None = None,
    source: str = "",
) -> GameRecord:
    """The game as a ``GameRecord``; ``hands``: the hand before each move, by its index
    in the history, where the host knows it (the simulator), else rebuilt."""
    turns, state = refereed(setup, events)
    reader = setup.config.reader
    if hands is not None and len(hands) != len(state.history):
        hands = None  # the host's record and the referee's differ: rebuild as on a board
    # What each seat played and showed per deal, in order, to rebuild the hands.
    later: dict[tuple[int, tuple[int, int]], list[str]] = {}
    for t in turns:
        if isinstance(t, _Shown):
            later.setdefault((t.seat, t.deal), []).extend(t.cards)
        else:
            deal = (t.table_before.shuffle_no, t.table_before.round_no)
            later.setdefault((t.seat, deal), []).append(t.card)
    used: Counter[tuple[int, tuple[int, int]]] = Counter()
    seen: list[str] = []
    shuffle = None
    out: list[TurnRecord] = []
    moves = 0
    for i, t in enumerate(turns):
        if isinstance(t, _Shown):
            deal, seat, pos, sizes = t.deal, t.seat, t.pos, t.sizes
        else:
            table = t.table_before
            deal, seat, sizes = (table.shuffle_no, table.round_no), t.seat, table.cards_left
            pos = t.before.replace(turn=seat)
        if deal[0] != shuffle:
            shuffle, seen = deal[0], []
        key = (seat, deal)
        rest = later.get(key, [])[used[key] :]
        known = Known(tuple(seen), sizes)
        if isinstance(t, _Shown):
            out.append(TurnRecord(i, seat, pos, t.cards, True, known, None, None, deal, t.cards))
            used[key] += len(t.cards)
            seen.extend(t.cards)
            continue
        given = hands.get(moves) if hands is not None else None
        if given is not None and t.card in given:
            hand, whole = given, True
        else:
            whole = reader and len(rest) == sizes[seat]
            hand = tuple(rest) if reader and rest[:1] == [t.card] else (t.card,)
        out.append(TurnRecord(i, seat, pos, hand, whole, known, t.card, t.move, deal))
        used[key] += 1
        seen.append(t.card)
        moves += 1
    return GameRecord(setup.position, tuple(out), state.winner, source)


def read_trace(path: str | Path) -> tuple[Setup, list[Input]]:
    """A sensor trace or an exported game (JSON lines); TraceError names a bad line."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise TraceError(f"{p}: not UTF-8 text ({e.reason})") from None
    return parse_trace(lines)


def journal_game(journal: Any, gid: int) -> tuple[Setup, list[Input], dict[str, Any]]:
    """A journal's game: its setup, inputs and raw setup."""
    raw = journal.setup(gid)
    setup = setup_from_dict(raw)
    return setup, [input_from_dict(d) for d in journal.inputs(gid)], raw


def sim_hands(journal: Any, gid: int) -> dict[int, tuple[str, ...]] | None:
    """The hand before each accepted move of a journal's simulator game (by its index
    in the final history), dealt again from the simulator's record (read, never
    written); None for a game that is not the simulator's."""
    import sqlite3

    from keezbord.host.sim.table import SimInfo, SimTable

    try:
        row = journal.db.execute("SELECT data FROM web_sim WHERE game = ?", (gid,)).fetchone()
    except sqlite3.OperationalError:  # no simulator ever wrote to this journal
        return None
    if row is None:
        return None
    info = SimInfo.from_json(row[0])
    raw = journal.setup(gid)
    pos = setup_from_dict(raw).position
    start = pos if "position" in raw else None
    table = SimTable(info, pos.seats, pos.profile.name, None, gid, start)
    hands: list[tuple[str, ...]] = []
    for d in journal.iter_decisions(gid):
        kind = d.get("type")
        if kind == "move" and isinstance(d.get("seat"), int):
            hands.append(tuple(table.hand(d["seat"])))
        elif kind == "undo" and d.get("ok") and d.get("move") and hands:
            hands.pop()
        table.sync([{k: d[k] for k in ("type", "move", "ok", "seat") if k in d}])
    return dict(enumerate(hands))


def record_of_journal(journal: Any, gid: int) -> GameRecord:
    """A journal game as a ``GameRecord``: a simulator game with its hands dealt again,
    any other with them rebuilt as on a board."""
    setup, events, _ = journal_game(journal, gid)
    try:
        hands = sim_hands(journal, gid)
    except (ValueError, KeyError):  # a record that does not fit: rebuild as on a board
        hands = None
    return game_record(setup, events, hands=hands, source=f"game {gid}")


__all__ = ["TraceError", "game_record", "read_trace", "record_of_journal", "refereed"]
