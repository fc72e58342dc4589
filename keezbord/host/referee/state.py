"""The referee's values: its configuration, its state, and the effects it produces.

Everything here is immutable; ``step`` (step.py) builds a new state for every event.
Decisions keep their reason in both languages; ``Decision.to_dict(lang)`` picks one for
the JSON lines of FORMATS.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from keezbord.engine.deal import Table
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.engine.search import Known
from keezbord.engine.text import Text
from keezbord.host.events import CardTap, Discard, Event, HoleEvent, SwitchRead

if TYPE_CHECKING:
    from .arrange import Arranging

# "coach": targets, and after a player's clearly worse move a remark (the web host's
# business: it knows which seats are bots; docs/hints.md).
HintLevel = Literal["off", "targets", "full", "coach"]
HINT_LEVELS: Final[tuple[HintLevel, ...]] = ("off", "targets", "full", "coach")

DEFAULT_SETTLE_MS: Final = 500
MAX_SETTLE_MS: Final = 800
MAX_HELD: Final = 8  # held lifts remembered in a turn (each a possible end of the move)
DEFAULT_PATIENCE_MS: Final = 3000
DEFAULT_MISSING_MS: Final = 10_000  # a pawn off the board this long is asked back
BOUNCE_MS: Final = 25  # a hole lifted and closed again quicker than a hand can: a bounce

# LED roles (FORMATS.md); one role a hole, the first of this order wins.
ROLE_ORDER: Final = (
    "error",
    "restore",
    "victim",
    "target",
    "hint",
    "source",
    "turn",
    "around",
)


# An RFID tag is hex: the same number in either case.
HEX_TAG: Final = re.compile(r"[0-9A-Fa-f]+")


def canonical_tag(tag: str) -> str:
    """A tag as the referee compares it (``Config.tags`` holds them so): hex is
    upper-cased, as readers report it; anything else is kept as read, to be refused as
    unknown (never folded into a real tag: "04\ufb00" upper-cases to "04FF" by
    Unicode's rules)."""
    return tag.upper() if HEX_TAG.fullmatch(tag) else tag


@dataclass(frozen=True, slots=True)
class Config:
    """What the setup line of a trace (or the host's configuration) fixes for a game."""

    hints: HintLevel = "targets"
    settle_ms: int = DEFAULT_SETTLE_MS
    patience_ms: int = DEFAULT_PATIENCE_MS
    tags: Mapping[str, str] = field(default_factory=dict)  # canonical RFID uid -> card
    reader: bool = True  # False: no card reader, moves are checked against every card
    missing_ms: int = DEFAULT_MISSING_MS  # 0: never ask for a missing pawn
    # A pawn may rest on the holes of its path while counted (a real board); False in
    # the simulator (setup mode "sim"), whose clicks put a pawn down for good: a pawn
    # resting short of a legal move's end is flagged at the settle time, not after the
    # patience (issue 40, item 17).
    counting: bool = True


@dataclass(frozen=True, slots=True)
class Decision:
    """One referee decision (FORMATS.md "Referee decisions"). ``data`` holds the
    type-specific JSON fields; ``reason`` is kept in both languages."""

    t: int
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    reason: Text | None = None

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        d: dict[str, Any] = {"t": self.t, "type": self.type, **self.data}
        if self.reason is not None:
            d["reason"] = self.reason.get(lang)
        return d

    def to_record(self) -> dict[str, Any]:
        """Both languages, for the journal and the web page."""
        d: dict[str, Any] = {"t": self.t, "type": self.type, **self.data}
        if self.reason is not None:
            d["reason"] = self.reason.as_dict()
        return d


@dataclass(frozen=True, slots=True)
class Leds:
    """An LED frame: hole name -> role; holes not listed are dark."""

    t: int
    holes: Mapping[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "type": "leds", "holes": dict(self.holes)}


@dataclass(frozen=True, slots=True)
class AdviceWanted:
    """Hints "full": the search's move is wanted for the card ``card`` that ``seat``
    tapped after ``n`` moves of the game. The step never searches (75 ms and more): the
    host computes it off the event loop (host/advisor.py) and feeds the answer back as
    an ``Advice`` input. Not journalled (the ``Advice`` is)."""

    t: int
    seat: int
    card: str
    n: int
    pos: Position  # the seat to play's position (pos.turn == seat)
    known: Known  # what the referee knows of the cards (played and shown this shuffle, hand sizes)


Effect = Decision | Leds | AdviceWanted

# A board as the switches can tell it: occupied track and home holes, pawns per nest.
Sig = tuple[frozenset[str], tuple[int, ...]]

# The pawns as the touches carried them (hands.py): on the holes as (hole, seat) and
# (hole, origin: where the pawn stood when the turn began), and in hand as (seat,
# origin); one world for each reading, () when lost.
World = tuple[frozenset[tuple[str, int]], frozenset[tuple[str, str]], tuple[tuple[int, str], ...]]
Worlds = tuple[World, ...]


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown on an accepted discard: what every seat has seen of the cards (the
    search's ``Known.seen``, like the cards played) until the next shuffle."""

    seat: int
    cards: tuple[str, ...]
    shuffle: int  # the table's shuffle_no when it was shown
    moves: int  # moves in the history when it was shown (it came after them)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """An accepted move, for the history (and for undoing it)."""

    t: int
    seat: int
    card: str
    move: Move
    text: str
    before: Position
    after: Position
    table_before: Table
    table_after: Table
    cards_before: tuple[tuple[str, str | None], ...] = ()  # cards played this deal before
    overruled: str | None = None  # the referee's reason when a person overruled the machine


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last accepted move (a host input, journalled like an event)."""

    t: int


@dataclass(frozen=True, slots=True)
class Overrule:
    """A person with the control token overrules the machine, with a reason (a host
    input, journalled like an event). ``correct`` False: the board as it stands (a
    flagged move, or ``move`` when given, which must be what the board shows) counts as
    played. ``correct`` True: the last recorded move is replaced by ``move``."""

    t: int
    reason: str
    move: str | None = None
    correct: bool = False


@dataclass(frozen=True, slots=True)
class Advice:
    """The search's move for the card ``seat`` tapped after ``n`` moves (a host input
    answering ``AdviceWanted``, journalled like an event, so a replay shows the same hint
    without searching). The referee shows it only while that turn and card still stand."""

    t: int
    seat: int
    card: str
    n: int
    move: str  # notation
    holes: tuple[str, ...]  # pawns to move and their targets (LED role "hint")
    win: float
    reason: Text  # the hint in words, both languages


@dataclass(frozen=True, slots=True)
class Lit:
    """The move of the seat to play, chosen far away (a remote seat, the linked board):
    lit for the people at the table to carry out, the board read against it only (a host
    input, journalled like an event; lit.py)."""

    t: int
    move: str  # notation


@dataclass(frozen=True, slots=True)
class Hold:
    """While ``reason`` stands the table may not play (the seat to play is far away and
    its move has not come, a linked board is out of step): the board is read against no
    move but a lit one. None lets go (a host input, journalled like an event; lit.py)."""

    t: int
    reason: Text | None


Input = Event | Undo | SwitchRead | Overrule | Advice | Lit | Hold


@dataclass(frozen=True, slots=True)
class Flag:
    """A board at rest that no legal move explains: what is wrong and how to fix it."""

    reason: Text
    error: tuple[str, ...]  # holes with a pawn that should be empty
    restore: tuple[str, ...]  # holes that must get a pawn back
    pairs: tuple[tuple[str | None, str | None], ...]  # (from, to): nearest pairing
    # The legal move's board the board showed at rest before a pawn of it was lifted
    # (a held lift): a knocked pawn goes back there, the move stands (wins a tie).
    shown: Sig | None = None
    # Why from far away, if so (lit.not_lit: a move lit, or the table held): once that
    # changes (the hold let go, a move lit), the board still wrong is flagged afresh.
    far: Text | None = None


# What the last judgement of a board at rest found.
Outcome = Literal["none", "before", "partial", "patient", "ambiguous", "illegal", "accepted"]


@dataclass(frozen=True, slots=True)
class RefereeState:
    config: Config
    pos: Position  # the position at the start of this turn; pos.turn is the seat to play
    table: Table
    sensed: frozenset[str]  # occupied holes as the switches report them
    total: int  # pawns on the board
    now: int = 0
    since: int = 0  # the board (with the current card) has been unchanged since
    stage: int = 0  # 0: not judged yet, 1: judged at settle time, 2: judged at patience
    outcome: Outcome = "none"
    card: str | None = None
    touched: frozenset[str] = frozenset()  # holes lifted or filled this turn
    lifted: tuple[str, ...] = ()  # holes in the order first lifted this turn (a 7's parts)
    co_empty: frozenset[tuple[str, str]] = frozenset()  # lifted holes empty at once
    flag: Flag | None = None
    missing: tuple[str, ...] = ()  # holes whose pawn is off the board too long (flagged)
    ambiguous: tuple[tuple[Move, Position], ...] = ()
    amb_touched: frozenset[str] = frozenset()  # holes touched since the ambiguity
    partial: Sig | None = None  # the legal first part of a 7 on the board
    winner: tuple[int, ...] | None = None
    stopped: bool = False  # ended by the time limit (no winner)
    history: tuple[MoveRecord, ...] = ()
    leds: Mapping[str, str] = field(default_factory=dict)  # the last frame sent
    hint: tuple[str, ...] = ()  # holes of the suggested move (hints "full"), this turn
    # The last lift, while its hole may still bounce back: (hole, t, co-empty pairs it
    # added, since, stage, worlds and lift order before it). A place on the same hole
    # within BOUNCE_MS, nothing between, undoes it for judging: the board never changed.
    bounce: (
        tuple[str, int, frozenset[tuple[str, str]], int, int, Worlds, tuple[str, ...]] | None
    ) = None
    worlds: Worlds = ()  # which colour stands where, as the touches tell (hands.py)
    restoring: bool = False  # a flag (or an undo, a penalty) asks for the board back
    # The board of the move just taken back (an undo): while it is put back, no board to
    # restore to, though it is a legal move's (without a reader every card's moves are).
    undone: Sig | None = None
    # The flagged board was put back exactly (the touches say so): what follows is a
    # new attempt; the flag's "resolved" is still to be said (at the settle time or tap).
    put_right: bool = False
    multi_hand: bool = False  # since then, a pawn was placed with two or more in hand
    ask: tuple[str, ...] = ()  # holes of a swap-or-restore question (lit "source")
    card_tag: str | None = None  # the RFID tag of the turn's card
    second_card: str | None = None  # a second card tapped in the turn (flagged)
    cards_played: tuple[tuple[str, str | None], ...] = ()  # (card, tag) tapped this deal
    shown: tuple[ShownHand, ...] = ()  # the hands shown on discards, the game long
    # A lift that closes the move on the board, held back for BOUNCE_MS in case the
    # switch merely bounced: (the state before the lift, the lift's hole and time).
    pending: tuple[RefereeState, str, int] | None = None
    # Lifts of a pawn the move on the board may still use (a swapped pawn, the moved
    # pawn), in order: the state before each and the hole events since, so that
    # the next card (or, without a reader, a board only the next turn explains) can
    # close that move there.
    held: tuple[tuple[RefereeState, tuple[HoleEvent | CardTap | Discard, ...]], ...] = ()
    lit: Move | None = None  # the move chosen far away, lit for the table (lit.py)
    lit_part: int = 0  # the lit 7's part being carried out (1: its first is on the board)
    hold: Text | None = None  # why the table may not play now (lit.py)
    # The set-up mode (arrange.py): the board is being guided to ``pos``; the game
    # begins when it shows it with every pawn's colour known.
    arranging: Arranging | None = None

    @property
    def seat(self) -> int | None:
        """The seat to play, or None once the game is won or stopped."""
        return None if self.winner is not None or self.stopped else self.table.turn

    @property
    def over(self) -> bool:
        return self.winner is not None or self.stopped

    @property
    def flagged(self) -> bool:
        """A flag stands and its board is not yet put right."""
        return self.flag is not None and not self.put_right

    @property
    def at_rest(self) -> bool:
        return len(self.sensed) >= self.total
