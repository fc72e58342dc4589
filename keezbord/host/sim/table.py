"""The simulator's card table: an engine ``Game`` beside the referee, holding real hands.

The referee only sees cards tapped and hands shown; the simulator must also deal them. The
``Game`` follows from its seed, so it is never stored: it is rebuilt from the seed and the
referee's journalled decisions (accepted moves, accepted discards, undos). The only other
thing to remember is what partners passed each other (profile ``partner_exchange``:
human seats choose on the page, ``give``; bots choose when every human has), kept per
deal with the seed and the seat kinds in a small table of the journal's file (``web_sim``;
the journal's own tables are untouched). Penalties move the game's position as the
referee's.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from keezbord.engine.bots import Bot
from keezbord.engine.cards import ROUND_SIZES
from keezbord.engine.game import Game
from keezbord.engine.levels import BOT_NAMES, named_bot
from keezbord.engine.movegen import playable_cards
from keezbord.engine.notation import parse_move
from keezbord.engine.position import Position
from keezbord.engine.scoring import front_pawn_penalty

HUMAN: Final = "human"
TABLE: Final = "table"  # a seat at this board (SimInfo.where)
REMOTE: Final = "remote"  # a seat played far away through this board's page
# A bot by kind (random, greedy, search) or by level (beginner, casual, club, strong).
SEAT_KINDS: Final = (HUMAN, *BOT_NAMES)

_SCHEMA = "CREATE TABLE IF NOT EXISTS web_sim (game INTEGER PRIMARY KEY, data TEXT NOT NULL)"


@dataclass
class SimInfo:
    """What the simulator remembers of a game beside the referee's journal."""

    seed: int
    kinds: list[str]
    teams: str | None = None
    exchanges: dict[str, list[str]] = field(default_factory=dict)  # "shuffle.round" -> given
    # A real board's virtual deal (issue 28): where each seat plays, "table" (at this
    # board), "remote" (a phone, through this board) or a linked board's name. Empty:
    # every seat at the table (the simulator).
    where: list[str] = field(default_factory=list)
    # A game begun at a position (sim --setup, a lesson, a puzzle): its one-line text,
    # the dealer (the seat before the one on turn), the cards each seat holds and the
    # hands given (seat -> cards; the rest dealt from the seed's deck). None: the start.
    start: str | None = None
    dealer: int | None = None
    cards_left: list[int] | None = None
    hands: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> str:
        begun = {"start": self.start, "dealer": self.dealer, "cards_left": self.cards_left}
        return json.dumps(
            {
                "seed": self.seed,
                "kinds": self.kinds,
                "teams": self.teams,
                "exchanges": self.exchanges,
                **({"where": self.where} if self.where else {}),
                **({**begun, "hands": self.hands} if self.start is not None else {}),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> SimInfo:
        d = json.loads(text)
        return cls(
            int(d["seed"]),
            list(d["kinds"]),
            d.get("teams"),
            dict(d["exchanges"]),
            [str(w) for w in d.get("where", [])],
            d.get("start"),
            d.get("dealer"),
            d.get("cards_left"),
            {str(k): list(v) for k, v in d.get("hands", {}).items()},
        )


class SimStore:
    """The ``web_sim`` table in the journal's SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(Path(path), isolation_level=None)
        self.db.execute(_SCHEMA)

    def save(self, game: int, info: SimInfo) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO web_sim (game, data) VALUES (?, ?)", (game, info.to_json())
        )

    def load(self, game: int) -> SimInfo | None:
        row = self.db.execute("SELECT data FROM web_sim WHERE game = ?", (game,)).fetchone()
        return None if row is None else SimInfo.from_json(row[0])

    def close(self) -> None:
        self.db.close()


def check_kinds(kinds: Sequence[str], seats: int) -> list[str]:
    """Seat kinds for ``seats`` seats: missing seats become greedy bots."""
    out = [k.strip().lower() for k in kinds][:seats]
    for k in out:
        if k not in SEAT_KINDS:
            raise ValueError(f"unknown player {k!r} (one of {', '.join(SEAT_KINDS)})")
    return out + ["greedy"] * (seats - len(out))


class _Giver:
    """Gives a remembered card, or asks a bot (and remembers its choice)."""

    def __init__(self, table: SimTable, seat: int) -> None:
        self.table, self.seat = table, seat
        self.name = "giver"

    def choose(self, pos: Position, hand: Sequence[str]) -> None:  # never asked to play
        return None

    def give(self, pos: Position, hand: Sequence[str]) -> str:
        return self.table._give(self.seat, pos, hand)


class SimTable:
    """Hands and bots of a simulated game. ``sync(decisions)`` brings the hands in line
    with what the referee decided (each decision given once, in order)."""

    def __init__(
        self,
        info: SimInfo,
        seats: int,
        profile: str,
        store: SimStore | None,
        game_id: int,
        start: Position | None = None,
    ) -> None:
        self.info = info
        if start is None and info.start is not None:
            start = Position.from_text(info.start)
        self.start = start  # a game set up from a position: the hands' game too
        self.seats, self.profile = seats, profile
        self.store, self.game_id = store, game_id
        self._deal_key = ""  # the deal whose exchange is under way (see _give)
        self.waiting: list[int] = []  # human seats still to pass a card this deal
        self.bots: list[Bot] = [
            named_bot(k if k != HUMAN else "greedy", random.Random(info.seed * 31 + s))
            for s, k in enumerate(info.kinds)
        ]
        self.game = self._fresh()
        self._actions: list[tuple[str, Any]] = []

    def _fresh(self) -> Game:
        teams: Any = self.info.teams
        # No record: the table takes a move back by replaying its actions (sync), and the
        # referee's history has the positions.
        info = self.info
        game = Game(
            self.seats, self.profile, info.seed, teams=teams, dealer=info.dealer, record=False
        )
        if self.start is not None and info.start is not None:  # begun at a position
            given = {int(s): cards for s, cards in info.hands.items()}
            game.begin_at(self.start, info.cards_left, given)
        elif self.start is not None:
            game.position = self.start
        self._exchange(game)
        return game

    @property
    def dealer(self) -> int:
        return Game(self.seats, self.profile, self.info.seed).table.dealer

    def is_bot(self, seat: int) -> bool:
        return self.info.kinds[seat] != HUMAN

    def where(self, seat: int) -> str:
        """Where ``seat`` plays: "table", "remote" or a linked board's name."""
        where = self.info.where
        return where[seat] if 0 <= seat < len(where) else TABLE

    # -- following the referee --------------------------------------------------------

    def sync(self, decisions: Iterable[Mapping[str, Any]]) -> None:
        """Apply the referee's decisions made since the last call (actions.for_sim's)."""
        rebuild = False
        for d in decisions:
            kind = d.get("type")
            if kind == "move":
                self._actions.append(("move", d["move"]))
                if not rebuild:
                    self._apply(self.game, "move", d["move"])
            elif kind == "discard" and d.get("ok"):
                self._actions.append(("discard", None))
                if not rebuild:
                    self._apply(self.game, "discard", None)
            elif kind == "penalty" and d.get("ok"):
                self._actions.append(("penalty", d["seat"]))
                if not rebuild:
                    self._apply(self.game, "penalty", d["seat"])
            elif kind == "undo" and d.get("ok") and d.get("move"):
                # (An undo with a card and no move took back a second card: no move.)
                while self._actions and self._actions[-1][0] != "move":
                    self._actions.pop()  # the referee only undoes a move
                if self._actions:
                    self._actions.pop()
                rebuild = True
        if rebuild:
            self.game = self._fresh()
            for kind, arg in self._actions:
                self._apply(self.game, kind, arg)

    def _apply(self, game: Game, kind: str, arg: Any) -> None:
        if kind == "penalty":  # the referee's position changed: the hands' game follows
            game.position = front_pawn_penalty(game.position, arg)
            return
        if kind == "move":
            assert arg is not None
            move = parse_move(arg, game.position.topology)
            game.play(move.card, move)
        else:
            # The referee accepted the discard; the hand is thrown in whatever it held.
            game.discard()
        self._exchange(game)

    def _exchange(self, game: Game) -> None:
        if game.over:
            return
        self._deal_key = f"{game.table.shuffle_no}.{game.table.round_no}"
        self.waiting = []
        if game.exchange_pending:
            given = self.info.exchanges.get(self._deal_key, [])
            self.waiting = [
                s
                for s in range(self.seats)
                if not self.is_bot(s) and (s >= len(given) or given[s] not in game.hands[s])
            ]
            if self.waiting:
                return  # the human seats choose on the page first (``give``)
        game.exchange([_Giver(self, s) for s in range(self.seats)])

    def give(self, seat: int, card: str) -> None:
        """A human seat passes ``card`` to its partner; when every human seat has chosen,
        the exchange is made (bots choose theirs then)."""
        if seat not in self.waiting:
            raise ValueError(f"seat {seat} has nothing to pass now")
        if card not in self.game.hands[seat]:
            raise ValueError(f"seat {seat} holds no {card}")
        self.info.exchanges.setdefault(self._deal_key, [""] * self.seats)[seat] = card
        if self.store is not None:
            self.store.save(self.game_id, self.info)
        self._exchange(self.game)

    def gave(self, seat: int) -> str | None:
        """The card ``seat`` passed its partner this deal (partner_exchange), if any."""
        given = self.info.exchanges.get(self._deal_key)
        return given[seat] or None if given is not None and not self.waiting else None

    def partner(self, seat: int) -> int | None:
        return self.game.position.partner(seat)

    def _give(self, seat: int, pos: Position, hand: Sequence[str]) -> str:
        # Called during a Game's exchange: this deal's key comes from its own table.
        key = self._deal_key
        given = self.info.exchanges.get(key)
        if given is not None and given[seat] in hand:
            return given[seat]
        card = self.bots[seat].give(pos, hand)
        self.info.exchanges.setdefault(key, [""] * self.seats)[seat] = card
        if self.store is not None:
            self.store.save(self.game_id, self.info)
        return card

    # -- views ---------------------------------------------------------------------------

    def hand(self, seat: int) -> list[str]:
        return self.game.hand(seat)

    def playable(self, seat: int) -> list[str]:
        pos = self.game.position.replace(turn=seat)
        return playable_cards(pos, self.game.hands[seat])

    def counts(self) -> list[int]:
        return [len(h) for h in self.game.hands]


def deal_dealer(seats: int, profile: str, info: SimInfo) -> int:
    """The dealer of ``info``'s deck: a virtual deal's setup names it, so that its hands
    and the referee's turns follow one dealer (the setup's default, the last seat, would
    not)."""
    return Game(seats, profile, info.seed).table.dealer


def sim_setup(
    seats: int,
    profile: str,
    seed: int,
    kinds: Iterable[str],
    *,
    teams: str | None = None,
    hints: str = "targets",
) -> tuple[dict[str, Any], SimInfo]:
    """The referee's setup line and the simulator's info for a new game."""
    info = SimInfo(seed, check_kinds(list(kinds), seats), teams)
    game = Game(seats, profile, seed, teams=teams)  # type: ignore[arg-type]
    setup: dict[str, Any] = {
        "type": "setup",
        "seats": seats,
        "profile": profile,
        "dealer": game.table.dealer,
        "hints": hints,
        "mode": "sim",
    }
    if teams is not None:
        setup["teams"] = teams
    return setup, info


def sim_setup_at(
    pos: Position,
    seed: int,
    kinds: Iterable[str],
    *,
    hand: Sequence[str] | None = None,
    hints: str = "targets",
) -> tuple[dict[str, Any], SimInfo]:
    """A new simulator game begun at ``pos`` (its seat on turn leads the round: the
    dealer is the seat before it): the setup line and the table's info. ``hand``: the
    cards the seat on turn holds (the others hold a full first round, dealt from what is
    left of the seed's deck); ValueError for a hand the deck cannot give. The simulated
    board shows ``pos`` at once: no set-up mode (docs/setup.md)."""
    seats = pos.seats
    dealer = (pos.turn - 1) % seats
    info = SimInfo(seed, check_kinds(list(kinds), seats), pos.teams, start=pos.to_text())
    info.dealer = dealer
    setup: dict[str, Any] = {
        "type": "setup",
        "position": pos.to_text(),
        "dealer": dealer,
        "hints": hints,
        "mode": "sim",
    }
    if hand is not None:
        left = [ROUND_SIZES[0]] * seats
        left[pos.turn] = len(hand)
        info.cards_left, info.hands = left, {str(pos.turn): list(hand)}
        setup["cards_left"] = left
    SimTable(info, seats, pos.profile.name, None, 0)  # the deck can give the hand
    return setup, info
