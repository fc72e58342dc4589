"""Sensor traces (FORMATS.md "Sensor trace"): the setup line and the events after it.

Our own optional setup fields, beside those of FORMATS.md: ``"card_reader": false`` (no
reader: every move is checked against every card), ``"patience_ms"``, ``"missing_ms"``
(how long a pawn may be off the board before it is asked back; 0: never), and ``"turn"``
(the seat to play when starting mid-game, default that of ``position``), and ``"mode"``
(``"run"``, ``"sim"`` or ``"simulated"``: which command played the game, so that each
resumes its own games from the journal they share; the referee ignores it; ``"lesson"``
and ``"puzzle"`` for the steps of a lesson and the puzzles played on the board). A game
that is a task on the board names it: ``"lesson"``, ``"puzzle"`` (the puzzle itself) or
``"retry"`` (``{"game", "n"}``: a reviewed game's decision tried again); the referee
ignores them (host/web/tasks.py).

The set-up mode (issue 26 part 1, arrange.py): ``"arrange"`` is ``true`` (the game
begins once the board shows ``position``, every pawn's colour known; the board is
believed to show the start, all pawns in their nests) or a position (the one the board
is believed to show: its pawns' colours are known where the board has them). ``"board"``
is the list of holes the switches read when the game began (default: the believed
position's board, nest pawns in the lowest holes).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from keezbord.engine.cards import RANKS, ROUND_SIZES
from keezbord.engine.position import Position
from keezbord.engine.text import Text
from keezbord.engine.topology import TopologyError
from keezbord.host.events import (
    EventFormatError,
    HoleEvent,
    SwitchRead,
    event_from_dict,
    event_to_dict,
)
from keezbord.host.jsontext import JsonTextError, loads

from .state import (
    DEFAULT_MISSING_MS,
    DEFAULT_PATIENCE_MS,
    HEX_TAG,
    HINT_LEVELS,
    MAX_SETTLE_MS,
    Advice,
    Config,
    HintLevel,
    Hold,
    Input,
    Lit,
    Overrule,
    Undo,
    canonical_tag,
)

MAX_MISSING_MS = 600_000
NL_EN = ("nl", "en")


class TraceError(ValueError):
    """A trace line that is not what FORMATS.md describes; the message names the line."""


@dataclass(frozen=True, slots=True)
class Setup:
    position: Position
    dealer: int
    config: Config
    turn: int | None = None
    raw: dict[str, Any] | None = None
    arrange: bool = False  # begins in the set-up mode (arrange.py)
    believed: Position | None = None  # what the board is believed to show then
    board: frozenset[str] | None = None  # the holes the switches read at the start
    cards_left: tuple[int, ...] | None = None  # cards each seat holds (a game set up)


MODES = ("run", "sim", "simulated", "lesson", "puzzle")


def setup_from_dict(d: Any) -> Setup:
    if not isinstance(d, dict) or d.get("type") != "setup":
        raise TraceError('the first line must be the setup: {"type": "setup", ...}')
    if "position" in d:
        # The JSON form, or the one-line text form (docs/formats.md) as a string.
        pos = (
            Position.from_text(d["position"])
            if isinstance(d["position"], str)
            else Position.from_dict(d["position"])
        )
        turn = d.get("turn", pos.turn)  # the position's (FORMATS.md: 0 if not written)
    else:
        pos = Position.from_dict(
            {k: d[k] for k in ("seats", "profile", "segment", "teams") if k in d}
            | {"pawns": _nests(d.get("seats"))}
        )
        turn = d.get("turn")
    for key in ("seats", "profile", "segment", "teams"):
        if key in d and "position" in d and d[key] != pos.to_dict(full=True)[key]:
            raise TraceError(f"setup {key!r} differs from the position's")
    seats = pos.seats
    dealer = d.get("dealer", seats - 1)
    if not _int(dealer) or not 0 <= dealer < seats:
        raise TraceError(f"'dealer' must be a seat from 0 to {seats - 1}, not {dealer!r}")
    if turn is not None and (not _int(turn) or not 0 <= turn < seats):
        raise TraceError(f"'turn' must be a seat from 0 to {seats - 1}, not {turn!r}")
    # Setup tags are written as hex; a card event's tag is the referee's to judge (an
    # unknown one gives card_rejected), so one odd tap never makes a game unreadable.
    tags = d.get("tags", {})
    if not isinstance(tags, dict) or not all(
        isinstance(k, str) and HEX_TAG.fullmatch(k) and v in RANKS for k, v in tags.items()
    ):
        raise TraceError(f"'tags' must map tag ids (hexadecimal) to cards ({' '.join(RANKS)})")
    # Hex is the same number in either case: "04a1b2c3" and "04A1B2C3" are one tag.
    canonical = {canonical_tag(k): v for k, v in tags.items()}
    if len(canonical) < len(tags):
        raise TraceError("'tags' names one tag twice (hex is the same in either case)")
    tags = canonical
    settle = d.get("settle_ms", 500)
    if not _int(settle) or not 0 <= settle <= MAX_SETTLE_MS:
        raise TraceError(f"'settle_ms' must be 0 to {MAX_SETTLE_MS}, not {settle!r}")
    patience = d.get("patience_ms", DEFAULT_PATIENCE_MS)
    if not _int(patience) or not settle <= patience <= DEFAULT_PATIENCE_MS:
        raise TraceError(f"'patience_ms' must be {settle} to {DEFAULT_PATIENCE_MS}")
    missing = d.get("missing_ms", DEFAULT_MISSING_MS)
    if not _int(missing) or not (missing == 0 or patience <= missing <= MAX_MISSING_MS):
        raise TraceError(f"'missing_ms' must be 0 (never) or {patience} to {MAX_MISSING_MS}")
    hints = d.get("hints", "targets")
    if hints not in HINT_LEVELS:
        raise TraceError(f"'hints' must be one of {', '.join(HINT_LEVELS)}, not {hints!r}")
    if d.get("mode", "run") not in MODES:
        raise TraceError(f"'mode' must be one of {', '.join(MODES)}, not {d['mode']!r}")
    reader = d.get("card_reader", True)
    if not isinstance(reader, bool):
        raise TraceError("'card_reader' must be true or false")
    level: HintLevel = hints
    counting = d.get("mode", "run") != "sim"  # the simulator's clicks count no holes
    config = Config(level, settle, patience, dict(tags), reader, missing, counting)
    arrange, believed = _arrange(d.get("arrange", False), pos)
    board = _board(d.get("board"), pos) if "board" in d else None
    left = _cards_left(d["cards_left"], seats, dealer, turn) if "cards_left" in d else None
    return Setup(pos, dealer, config, turn, dict(d), arrange, believed, board, left)


def _cards_left(value: Any, seats: int, dealer: int, turn: int | None) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != seats
        or not all(_int(n) and 0 <= n <= ROUND_SIZES[0] for n in value)
    ):
        raise TraceError(f"'cards_left' must be {seats} counts of 0 to {ROUND_SIZES[0]} cards")
    on_turn = turn if turn is not None else (dealer + 1) % seats
    if value[on_turn] == 0:
        raise TraceError(f"'cards_left': seat {on_turn} is on turn but holds no cards")
    return tuple(value)


def arranged_setup(
    setup: dict[str, Any], target: Position, believed: Position | None = None
) -> dict[str, Any]:
    """``setup`` (a setup line's fields) turned into one that begins by setting the board
    up as ``target``, the board believed to show ``believed`` (None: the start, every
    pawn in its nest). The position's own seats, profile, segment and teams replace the
    setup's; the rest (hints, tags, mode, ...) is kept."""
    out = {k: v for k, v in setup.items() if k not in _POSITION_KEYS}
    out["position"] = target.to_text()
    out["arrange"] = True if believed is None else believed.to_text()
    return out


_POSITION_KEYS = frozenset(
    {"seats", "profile", "segment", "teams", "turn", "position", "board", "cards_left"}
)


def _arrange(value: Any, pos: Position) -> tuple[bool, Position | None]:
    """The setup's ``arrange``: false, true, or the position the board is believed to
    show (on the same board as ``position``)."""
    if value is False or value is True:
        return value, None
    if not isinstance(value, str | dict):
        raise TraceError("'arrange' must be true, false or a position")
    believed = Position.from_text(value) if isinstance(value, str) else Position.from_dict(value)
    if believed.topology != pos.topology:
        raise TraceError("'arrange': the believed position is on another board")
    return True, believed


def _board(value: Any, pos: Position) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
        raise TraceError("'board' must be a list of hole names")
    try:
        holes = frozenset(pos.topology.parse_hole(h).name for h in value)
    except TopologyError as e:
        raise TraceError(f"'board': {e}") from None
    if len(holes) != len(value) or len(holes) > 4 * pos.seats:
        raise TraceError(f"'board': each hole once, at most {4 * pos.seats} pawns")
    return holes


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _nests(seats: Any) -> Any:
    return [["N"] * 4 for _ in range(seats)] if _int(seats) and 0 < seats <= 8 else None


def input_from_dict(d: Any) -> Input:
    """A trace event, or one of the host's own inputs (``undo``, ``board``, ``overrule``,
    ``advice``, ``lit``, ``hold``), which only journal exports contain."""
    if isinstance(d, dict) and d.get("type") == "overrule":
        return _overrule_from_dict(d)
    if isinstance(d, dict) and d.get("type") == "advice":
        return _advice_from_dict(d)
    if isinstance(d, dict) and d.get("type") in ("lit", "hold"):
        return _far_from_dict(d)
    if isinstance(d, dict) and d.get("type") in ("undo", "board"):
        t = d.get("t")
        if not isinstance(t, int) or isinstance(t, bool) or t < 0:
            raise EventFormatError(f"{d['type']} needs a time 't' in whole milliseconds")
        if d["type"] == "undo":
            return Undo(t)
        holes = d.get("holes")
        if not isinstance(holes, list) or not all(isinstance(h, str) for h in holes):
            raise EventFormatError(f"board at t={t} needs a list of 'holes'")
        return SwitchRead(t, frozenset(holes))
    return event_from_dict(d)


def _overrule_from_dict(d: dict[str, Any]) -> Overrule:
    t, reason, move, correct = d.get("t"), d.get("reason"), d.get("move"), d.get("correct", False)
    if not isinstance(t, int) or isinstance(t, bool) or t < 0:
        raise EventFormatError("overrule needs a time 't' in whole milliseconds")
    if (
        not isinstance(reason, str)
        or (move is not None and not isinstance(move, str))
        or not isinstance(correct, bool)
    ):
        raise EventFormatError(
            f"overrule at t={t} needs a 'reason' (text), an optional "
            "'move' (notation) and 'correct' (true or false)"
        )
    return Overrule(t, reason, move, correct)


def _far_from_dict(d: dict[str, Any]) -> Lit | Hold:
    t = d.get("t")
    if not isinstance(t, int) or isinstance(t, bool) or t < 0:
        raise EventFormatError(f"{d['type']} needs a time 't' in whole milliseconds")
    if d["type"] == "lit":
        move = d.get("move")
        if not isinstance(move, str):
            raise EventFormatError(f"lit at t={t} needs a 'move' (notation)")
        return Lit(t, move)
    reason = d.get("reason")
    if reason is None:
        return Hold(t, None)
    if not isinstance(reason, dict) or not all(
        isinstance(reason.get(k), str) for k in ("nl", "en")
    ):
        raise EventFormatError(f"hold at t={t} needs a 'reason' in nl and en, or null")
    return Hold(t, Text(reason["nl"], reason["en"]))


def _advice_from_dict(d: dict[str, Any]) -> Advice:
    t, seat, n = d.get("t"), d.get("seat"), d.get("n")
    card, move, holes, win, reason = (d.get(k) for k in ("card", "move", "holes", "win", "reason"))
    if not (isinstance(t, int) and isinstance(seat, int) and isinstance(n, int)) or (
        isinstance(t, bool) or isinstance(seat, bool) or isinstance(n, bool) or t < 0
    ):
        raise EventFormatError("advice needs a time 't', a 'seat' and a move count 'n'")
    if (
        card not in RANKS
        or not isinstance(move, str)
        or not isinstance(holes, list)
        or not all(isinstance(h, str) for h in holes)
        or not isinstance(win, int | float)
        or isinstance(win, bool)
        or not isinstance(reason, dict)
        or not all(isinstance(reason.get(k), str) for k in ("nl", "en"))
    ):
        raise EventFormatError(
            f"advice at t={t} needs a 'card', a 'move', its 'holes', a 'win' chance and a "
            "'reason' in nl and en"
        )
    return Advice(
        t, seat, card, n, move, tuple(holes), float(win), Text(reason["nl"], reason["en"])
    )


def input_to_dict(e: Input) -> dict[str, Any]:
    if isinstance(e, Advice):
        return {
            "t": e.t,
            "type": "advice",
            "seat": e.seat,
            "card": e.card,
            "n": e.n,
            "move": e.move,
            "holes": list(e.holes),
            "win": e.win,
            "reason": e.reason.as_dict(),
        }
    if isinstance(e, Overrule):
        return {
            "t": e.t,
            "type": "overrule",
            "reason": e.reason,
            "move": e.move,
            "correct": e.correct,
        }
    if isinstance(e, Undo):
        return {"t": e.t, "type": "undo"}
    if isinstance(e, Lit):
        return {"t": e.t, "type": "lit", "move": e.move}
    if isinstance(e, Hold):
        return {
            "t": e.t,
            "type": "hold",
            "reason": None if e.reason is None else e.reason.as_dict(),
        }
    if isinstance(e, SwitchRead):
        return {"t": e.t, "type": "board", "holes": sorted(e.holes)}
    return event_to_dict(e)


def parse_trace(lines: Iterable[str]) -> tuple[Setup, list[Input]]:
    """Parse and check a whole trace; a bad line raises TraceError naming its number."""
    setup: Setup | None = None
    events: list[Input] = []
    last_t = 0
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = loads(line)
        except JsonTextError as e:
            raise TraceError(f"line {no}: {e}") from None
        try:
            if setup is None:
                setup = setup_from_dict(d)
                continue
            ev = input_from_dict(d)
            if isinstance(ev, HoleEvent):
                setup.position.topology.parse_hole(ev.hole)
            elif isinstance(ev, SwitchRead):
                for h in ev.holes:
                    setup.position.topology.parse_hole(h)
            if ev.t < last_t:
                raise TraceError(f"time {ev.t} is before the previous event's {last_t}")
            last_t = ev.t
        except (EventFormatError, TopologyError, TraceError, ValueError) as e:
            raise TraceError(f"line {no}: {e}") from None
        events.append(ev)
    if setup is None:
        raise TraceError("empty trace: the first line must be the setup")
    return setup, events


def trace_lines(setup: dict[str, Any], events: Iterable[Input]) -> Iterator[str]:
    yield json.dumps(setup)
    for ev in events:
        yield json.dumps(input_to_dict(ev))
