"""What the page draws (docs/web.md, the ``state`` message), as a pure function.

``page_state(view)`` turns a ``PageView`` (the referee's state and snapshot, the
simulator's table, the tracked pawns, the link's health, the time) into the JSON-able
dict the page renders. No asyncio, no I/O: the hub builds the view and caches the result
per version; tests build views by hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from keezbord.engine.describe import colour, describe_move
from keezbord.engine.scoring import TIME_LIMIT_MINUTES, nk_score
from keezbord.engine.text import Text
from keezbord.engine.topology import SEAT_COLOURS
from keezbord.host.referee import MoveRecord, RefereeState, setup_view
from keezbord.host.roles import Role
from keezbord.host.sim.table import SimTable

from .guidance import drawn_way, flag_view, no_reader
from .instruction import (
    Instruction,
    game_instruction,
    hold_instruction,
    pick,
    setup_instruction,
)
from .marks import last_moves, settling, seven_split


@dataclass(frozen=True)
class PageView:
    version: int
    mode: str  # "sim" or "run"
    snapshot: Mapping[str, Any]  # GameSession.snapshot("nl")
    state: RefereeState
    now: int  # the game clock (ms) for a running game's elapsed time
    pawn_seat: Mapping[str, int | None]  # sensed hole -> seat, for the drawing
    held: Sequence[int | None]  # pawns off the board
    last: Mapping[str, Any] | None = None  # the last lift or place
    sim: SimTable | None = None  # the simulator's table (hands), None on a real board
    bot_busy: int | None = None  # the seat of a bot that is playing
    health: Mapping[str, Any] | None = None  # sensors and link (run mode)
    coach: Mapping[str, Any] | None = None  # the coach's last remark (hints "coach")
    # The history's entries made so far (index -> entry), kept by the hub so an unchanged
    # entry is the same object from state to state (HistoryFeed sends only the new ones).
    entries: dict[int, dict[str, Any]] | None = None
    log: Sequence[Mapping[str, Any]] = ()  # every action (actions.py), append-only
    undone: Sequence[int] = ()  # the log entries of moves taken back
    remarks: Sequence[Mapping[str, Any]] = ()  # hints and the coach's, kept (remarks.py)
    exchange_cards: Mapping[int, Mapping[str, Any]] | None = None  # exchange entry -> card
    # Instructions posted by other parts of the host (Hub.instruct): source -> instruction.
    instructions: Mapping[str, Instruction] | None = None
    # The simulator's drawing and the referee differ, unflagged (web/drawing.py).
    mismatch: Mapping[str, Any] | None = None


def played_in_words(rec: MoveRecord) -> Text:
    """Who played which card, then the move in words: the player is named, not the
    pawn's owner (team play: "blauw speelt vijf: groen T5 → T10")."""
    who = colour(rec.seat)
    said = move_in_words(rec)
    if said.nl == rec.text:  # an overruled move with no words: the notation
        return Text(f"{who.nl}: {rec.text}", f"{who.en}: {rec.text}")
    return Text(f"{who.nl} speelt {_lower1(said.nl)}", f"{who.en} plays {_lower1(said.en)}")


def _lower1(s: str) -> str:
    return s[:1].lower() + s[1:]


def move_in_words(rec: MoveRecord) -> Text:
    """A move in words; a move the referee overruled may break every rule (even have no
    card): then its notation."""
    try:
        return describe_move(rec.before, rec.move)
    except (KeyError, ValueError, IndexError):
        return Text(rec.text, rec.text)


def page_state(view: PageView) -> dict[str, Any]:
    """Everything the page draws (docs/web.md ``state``)."""
    snap = view.snapshot
    st = view.state
    pos = st.pos
    sim = view.sim
    players = []
    for s in range(pos.seats):
        c = SEAT_COLOURS[s]
        players.append(
            {
                "seat": s,
                "kind": sim.info.kinds[s] if sim is not None else "player",
                "colour": {"nl": c.nl, "en": c.en, "hex": c.hex, "symbol": c.symbol},
                "cards": sim.counts()[s] if sim is not None else None,
                "team": list(pos.team_of(s)),
                # Where the seat plays (issue 28): "table", "remote" (a phone, through
                # this board) or the name of the linked board it sits at.
                "where": sim.where(s) if sim is not None else "table",
            }
        )
    history = history_entries(st.history, view.entries)
    flag = snap["flag"]
    if flag is not None:
        flag = (
            flag_view(flag, st, view.pawn_seat, snap["decisions"], view.held)
            if st.flag is not None
            else {**flag, "guidance": []}
        )
    flag = no_reader(flag) if view.mode == "sim" else flag
    leds = snap["leds"]
    if view.mismatch is not None:  # the simulator's own: the drawing and the referee differ
        flag, leds = drawn_way(flag, view.mismatch, leds)
    nk = pos.profile.scoring == "nk"
    score = None
    if nk:
        score = [
            {"seats": list(team), "points": pts}
            for team, pts in nk_score(pos, timed_out=st.stopped).items()
        ]
    hand, exchange = _hand(view)
    split = seven_split(st)
    settle = [] if split is not None else settling(st)
    setup = None if st.arranging is None else setup_view(st.arranging)
    # Being set up, a pawn's colour is what the set-up's touches know (None: not yet).
    seats = view.pawn_seat if setup is None else setup["colours"]
    # The game begins once the board is set up: till then the set-up says what to do,
    # before a mode's instruction (a lesson's task waits for its board).
    game = (
        game_instruction(
            st, view.mode, view.held, sim, flag, split, hand, snap["decisions"], settle
        )
        if setup is None
        else None
    )
    arranging = None if setup is None else setup_instruction(setup)
    posted = list((view.instructions or {}).values())
    if game is not None and (st.card is not None or view.held):
        # A lesson's task stays in its box; the line says the move's next step ("3 steps
        # left", "put blue's pawn in its nest") once the move is begun (issue 40, item 8).
        posted = [i for i in posted if i.source != "lesson"]
    instruction = pick([arranging, hold_instruction(st), *posted, game])
    return {
        "type": "state",
        "version": view.version,
        "mode": view.mode,
        "game": snap["game"],
        "seats": pos.seats,
        "segment": pos.topology.segment,
        "profile": pos.profile.name,
        "teams": pos.teams,
        "hints": snap["hints"],
        "players": players,
        "turn": snap["turn"],
        "card": snap["card"],
        "table": snap["table"],
        "position": snap["position"],
        "pawns": [{"hole": h, "seat": seats.get(h)} for h in sorted(st.sensed)],
        "held": list(view.held),
        "expected_board": snap["expected_board"],
        "leds": leds,
        "flag": flag,
        "ambiguous": snap["ambiguous"],
        "history": history,
        "log": view.log,
        "undone": list(view.undone),
        "second_card": st.second_card,  # flagged: the takeback takes back this card
        "remarks": list(view.remarks),
        "exchange_cards": {str(i): dict(c) for i, c in (view.exchange_cards or {}).items()},
        "decisions": snap["decisions"],
        "winner": snap["winner"],
        "score": score,
        "hand": hand,
        "bot_busy": view.bot_busy,
        "last": None if view.last is None else dict(view.last),
        "health": None if view.health is None else dict(view.health),
        "clock": game_clock(st, view.now),
        "stopped": st.stopped,
        "exchange": exchange,
        "coach": None if view.coach is None else dict(view.coach),
        "last_moves": last_moves(st.history, pos.seats, st.sensed),  # board.js marks them
        "split": split,  # the rest of a 7 split
        "settling": settle,  # pawns put down, being checked
        # Each remote seat's own hand, for its own link only (for_role takes it out).
        PRIVATE: _remote_hands(view),
        # The set-up mode (docs/setup.md): the instruction, its holes, what is left.
        "setup": setup,
        "instruction": None if instruction is None else instruction.to_dict(),
    }


def game_clock(st: RefereeState, now: int) -> dict[str, Any]:
    """Game time on the referee's clock, which continues over restarts (it starts at 0),
    at ``now``. The hub caches a state per version, so what a page is sent gets the clock
    at the moment it is sent (``with_clock``): a page opened later was shown the cached
    state's time (5:38 against 22:50)."""
    nk = st.pos.profile.scoring == "nk"
    return {
        "elapsed_ms": st.now if st.over else now,
        "running": not st.over,
        "limit_ms": TIME_LIMIT_MINUTES * 60_000 if nk else None,
        "stopped": st.stopped,
    }


def with_clock(state: Mapping[str, Any], st: RefereeState, now: int) -> dict[str, Any]:
    """``state`` with the game clock at ``now`` (the moment it is sent)."""
    return {**state, "clock": game_clock(st, now)}


def history_entries(
    history: Sequence[MoveRecord], cache: dict[int, dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """The history for the page, one entry per accepted move; an entry that did not
    change is the object ``cache`` already held (a move taken back or corrected is new).
    The words of a move are in its ``log`` entry (the page's move list), not here: a
    long game's first state carried them twice."""
    out = []
    cache = {} if cache is None else cache
    for i, rec in enumerate(history):
        entry = cache.get(i)
        if entry is None or entry["move"] != rec.text or entry["t"] != rec.t:
            entry = {
                "n": i + 1,
                "t": rec.t,
                "seat": rec.seat,
                "card": rec.card,
                "move": rec.text,
                "round": rec.table_before.round_no,
                "deal": rec.table_before.shuffle_no,
                "dealer": rec.table_before.dealer,
                **({"overruled": rec.overruled} if rec.overruled else {}),
            }
            cache[i] = entry
        out.append(entry)
    for k in [k for k in cache if k >= len(history)]:
        del cache[k]
    return out


PRIVATE = "_remote_hands"


def for_role(state: Mapping[str, Any], role: Role, seat: int | None = None) -> dict[str, Any]:
    """The state a page with ``role`` gets: spectators never see a hand (nor the cards of
    a partner exchange, nor the coach's remark on a player's hand); a remote seat's link
    (``seat``) sees its own seat's hand and exchange only; the players' and referee's
    links never see a remote seat's (the table must not know a remote hand)."""
    remote_hands: Mapping[int, Any] = state.get(PRIVATE) or {}
    out = {k: v for k, v in state.items() if k != PRIVATE}
    out["role"] = role.value
    away = {p["seat"] for p in state.get("players", ()) if p.get("where", "table") != "table"}
    exchange = out.get("exchange")
    if role is Role.REMOTE:
        out["hand"] = remote_hands.get(seat) if seat is not None else None
        out["coach"] = None
        out["exchange_cards"] = _cards_of(state, {seat} if seat is not None else set())
        out["remarks"] = [r for r in out.get("remarks", ()) if r.get("seat") == seat]
        if exchange is not None and exchange.get("seat") != seat:
            out["exchange"] = {**exchange, "cards": []}
    elif role is Role.SPECTATOR:
        out["hand"] = None
        out["coach"] = None
        # Remarks reveal hands (web/remarks.py): a spectator sees them once the game is over.
        if out.get("winner") is None and not out.get("stopped"):
            out["remarks"] = []
        out["exchange_cards"] = {}
        if exchange is not None:
            out["exchange"] = {**exchange, "cards": []}
    elif away:
        here = {p["seat"] for p in state.get("players", ())} - away
        out["exchange_cards"] = _cards_of(state, here, both=True)
        # A hint or a coach's remark reveals its seat's hand (remarks.py).
        out["remarks"] = [r for r in out.get("remarks", ()) if r.get("seat") not in away]
        if exchange is not None and exchange.get("seat") in away:
            out["exchange"] = {**exchange, "cards": []}
    return out


def _cards_of(state: Mapping[str, Any], seats: set[int], both: bool = False) -> dict[str, Any]:
    """The partner-exchange cards a page may see: those given or received by one of
    ``seats`` (``both``: only between two of them)."""
    cards: Mapping[str, Any] = state.get("exchange_cards") or {}
    log: Sequence[Mapping[str, Any]] = state.get("log") or ()
    out = {}
    for key, card in cards.items():
        i = int(key)
        entry = log[i] if 0 <= i < len(log) else {}
        ends = {entry.get("seat"), entry.get("to")}
        if (ends <= seats) if both else bool(ends & seats):
            out[key] = card
    return out


class HistoryFeed:
    """What one page has of the history, so a state message carries only what changed:
    ``history`` holds the entries from index ``history_from`` on (the page keeps the
    ones before it), ``log`` those from ``log_from`` on. With a long game this keeps each
    push small (docs/web.md)."""

    def __init__(self) -> None:
        self.sent: dict[str, list[Any]] = {}

    KEYS = ("history", "log")

    def message(self, state: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(state)
        for key in self.KEYS:
            now: Sequence[Any] = state[key]
            sent = self.sent.get(key, [])
            k, n = 0, min(len(sent), len(now))
            while k < n and sent[k] is now[k]:
                k += 1
            self.sent[key] = list(now)
            out[key] = list(now[k:])
            out[f"{key}_from"] = k
        return out


_ENCODER = json.JSONEncoder()  # ASCII: a text with one "→" would take 2 bytes a character


def to_json(message: Mapping[str, Any]) -> str:
    """``json.dumps(message)``, the same text, with the long lists (``HistoryFeed.KEYS``)
    encoded an entry at a time: a long game's whole state in one call held megabytes of
    pieces at its peak (a share of a Pi's memory budget, for a text of a few hundred
    kB); this holds the entries' texts and the result."""
    parts = []
    for key, value in message.items():
        if key in HistoryFeed.KEYS and isinstance(value, list):
            text = "[" + ", ".join(map(_ENCODER.encode, value)) + "]"
        else:
            text = _ENCODER.encode(value)
        parts.append(f"{_ENCODER.encode(key)}: {text}")
    return "{" + ", ".join(parts) + "}"


def _remote_hands(view: PageView) -> dict[int, dict[str, Any]]:
    """Each remote seat's hand, as ``hand`` below, for that seat's own link."""
    sim, st = view.sim, view.state
    if sim is None:
        return {}
    out = {}
    for seat in range(st.pos.seats):
        if sim.where(seat) != "remote":
            continue
        active = st.seat == seat and not sim.waiting
        out[seat] = {
            "seat": seat,
            "cards": sim.hand(seat),
            "playable": sim.playable(seat) if active else [],
            "active": active,
            "giving": seat in sim.waiting,
        }
    return out


def _hand(view: PageView) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The hand the page shows (the simulator's human to play, or its first human) and
    a pending partner exchange. With seats far away (a virtual deal on a real board) the
    board's page shows the hand of the seat at the table to play only, on its turn: the
    others at the table look away then, and a remote seat's hand is never shown."""
    sim, st = view.sim, view.state
    if sim is None:
        return None, None
    here = [s for s in range(st.pos.seats) if sim.where(s) == "table"]
    if sim.waiting:
        givers = [s for s in sim.waiting if s in here]
        if not givers:
            return None, None  # only far-away seats still to give: their links ask them
        giver = givers[0]
        exchange = {
            "seat": giver,
            "partner": sim.partner(giver),
            "cards": sim.hand(giver),
            "waiting": list(sim.waiting),
        }
        return {"seat": giver, "cards": sim.hand(giver), "playable": [], "active": False}, exchange
    seat = st.seat
    if len(here) < st.pos.seats and (seat is None or seat not in here):
        return None, None  # a seat far away plays: no hand of the table's on the screen
    if seat is None or sim.is_bot(seat):
        humans = [s for s in here if not sim.is_bot(s)]
        seat = humans[0] if humans else None
    if seat is None:
        return None, None
    active = st.seat == seat and view.bot_busy is None
    return {
        "seat": seat,
        "cards": sim.hand(seat),
        "playable": sim.playable(seat) if active else [],
        "active": active,
    }, None
