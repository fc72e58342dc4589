"""A live table with trouble, for the referee's fuzzing (issue 22).

Bot games (engine ``Game``, ``RandomBot``) played at a table the referee watches live:
each move rendered as a person's hands make it (``sim/physical.events_for_move``), with
trouble mixed in by the game's ``Trouble``: physical noise (bounces on resting pawns,
switch names the board does not have, a card read twice), card trouble (unknown card
names and tags, a card with no legal move, a card from the discard pile, a second card
taken back with undo), illegal moves put right along the flag's restore pairs (one pawn
in hand at a time, or all at once), pawns knocked off their hole within the settle time
after a move and put back once flagged, and games without a card reader.

``fuzz_run.py`` plays a game and checks its end; it runs big seeded runs on demand.

The simulated players follow the documented ways out: put a flagged board back, undo a
second card, and after "swapped or put back?" lift both pawns at once and put them down
as they meant them. The table knows which colour stands where (it moved the pawns), so
beside the properties of fuzz_games.py (every accepted move legal by the independent
reading of RULES.md, the game accepted exactly) it checks the one that would have found
issue 22's first misreading: **after any flag is put right, the referee's position has
the colours the touches put on the board**. Every game's inputs are also written as a
trace and parsed back (no readable trace refused), and some replayed (same decisions).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from fuzz_games import _mutation, _noisy

from keezbord.engine.bots import RandomBot
from keezbord.engine.cards import RANKS
from keezbord.engine.game import Game
from keezbord.engine.movegen import has_legal_move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, Discard, Event, HoleEvent, Tick
from keezbord.host.referee.recognize import board_of, board_sig, colours, expectation, pos_sig
from keezbord.host.referee.state import Config, Decision, Input, Undo
from keezbord.host.referee.step import new_game, step
from keezbord.host.sim.physical import apply_events, events_for_move


@dataclass(frozen=True)
class Trouble:
    reader: bool = True
    noise: float = 0.0  # per event of a move: a bounce or a garbage switch name
    cards: float = 0.0  # per turn: odd cards tapped before the real one
    illegal: float = 0.0  # per turn: a wrong move first, flagged and put right
    knock: float = 0.0  # per turn: a pawn knocked after the move, put back once flagged
    tags: bool = False  # cards tapped by RFID tag (the setup's registry)


# A game's trouble follows from its seed (seed % len(KINDS)).
KINDS: dict[str, Trouble] = {
    "noise": Trouble(noise=0.1),
    "cards": Trouble(cards=0.35, noise=0.03, tags=True),
    "illegal": Trouble(illegal=0.3, knock=0.2, cards=0.1),
    "no_reader": Trouble(reader=False, noise=0.05, illegal=0.15),
}
ODD_CARDS = ("X", "Z9", "11", "k", "K\n", " 7", "", "joker")
SETTLE = 500
CLOSING = ("move", "turn", "win", "resolved")  # the previous move, taken by the next card
PATIENCE = 3000


@dataclass
class TableRun:
    seed: int
    kind: str
    setup: dict[str, Any]
    moves: int = 0
    flags: int = 0
    knocks: int = 0
    asks: int = 0
    true_asks: int = 0  # asked after pawns were put back several in hand at once
    rejected: int = 0
    problems: list[str] = field(default_factory=list)


class Table:
    """One game at the table: the engine game, the referee fed live, the true colours."""

    def __init__(self, seats: int, profile: str, seed: int, kind: str) -> None:
        self.rng = random.Random(seed)
        self.trouble = KINDS[kind]
        self.game = Game(seats, profile, seed)
        self.bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(seats)]
        self.tags: dict[str, str] = {}
        if self.trouble.tags:  # one tag a physical card: rank and copy
            self.tags = {f"{i:02X}{k:02X}": r for i, r in enumerate(RANKS) for k in range(seats)}
        setup: dict[str, Any] = {
            "type": "setup",
            "seats": seats,
            "profile": profile,
            "dealer": self.game.table.dealer,
            "card_reader": self.trouble.reader,
        }
        if self.tags:
            setup["tags"] = self.tags
        self.out = TableRun(seed, kind, setup)
        config = Config(tags=self.tags, reader=self.trouble.reader)
        self.state, effects = new_game(self.game.position, self.game.table.dealer, config)
        self.decisions = [e for e in effects if isinstance(e, Decision)]
        self.inputs: list[Input] = []
        self.true: dict[str, int] = {}  # hole -> the seat of the pawn standing there
        self._set_true(self.game.position, board_of(self.game.position))
        self.t = 1000
        self.used_tags: set[str] = set()
        self.last_tag = ""
        self.shuffle = self.game.table.shuffle_no

    # -- feeding the referee ---------------------------------------------------------------

    def feed(self, *evs: Input) -> list[Decision]:
        new: list[Decision] = []
        for e in evs:
            self.inputs.append(e)
            self.state, effects = step(self.state, e)
            new += [x for x in effects if isinstance(x, Decision)]
            self.t = max(self.t, e.t)
        self.decisions += new
        self.out.flags += sum(1 for d in new if d.type in ("illegal", "second_card"))
        self.out.asks += sum(1 for d in new if d.type == "ambiguous")
        return new

    def hands(self, *moves: tuple[str, str]) -> list[Decision]:
        """Pawns moved by hand, all lifted first (several in hand) when more than one."""
        evs: list[Event] = []
        t = self.t
        for a, _ in moves:
            t += self.rng.randint(60, 250)
            evs.append(HoleEvent(t, "lift", a))
        for _, b in moves:
            t += self.rng.randint(60, 250)
            evs.append(HoleEvent(t, "place", b))
        seats = [self.true.pop(a) for a, _ in moves]
        for (_, b), s in zip(moves, seats, strict=True):
            self.true[b] = s
        return self.feed(*evs)

    def wait(self, ms: int) -> list[Decision]:
        self.t += ms
        return self.feed(Tick(self.t))

    def _set_true(self, pos: Position, board: frozenset[str]) -> None:
        self.true = {h: int(h[1 : h.index(".")]) for h in board if h[0] == "N"}
        self.true.update(colours(pos))

    def problem(self, what: str) -> None:
        self.out.problems.append(f"game {self.out.seed} ({self.out.kind}) t={self.t}: {what}")

    # -- the property ----------------------------------------------------------------------

    def check_colours(self, when: str) -> bool:
        """The referee's position has the colours on the board (once nothing is pending)."""
        want = {h: s for h, s in self.true.items() if h[0] != "N"}
        if colours(self.state.pos) != want:
            self.problem(f"{when}: the referee's colours differ from the board's")
            return False
        return True

    def asked(self, ds: list[Decision], together: bool) -> None:
        """A question is a true ambiguity only when pawns went down several in hand at
        once: after a put-back one pawn at a time the touches tell (misreadings 1, 3)."""
        if any(d.type == "ambiguous" for d in ds):
            if together:
                self.out.true_asks += 1
            else:
                self.problem(f"asked after a put-back one pawn at a time: {ds[-1].to_dict()}")

    def follow_asks(self, new: list[Decision], meant: Position) -> list[Decision]:
        """The documented way out of an "ambiguous": lift both pawns at once and put
        them down as meant (the board already is), or lift the pawn of the move meant."""
        for _ in range(3):
            asks = [d for d in new if d.type == "ambiguous"]
            if not asks:
                return new
            holes = asks[-1].data.get("holes")
            ours, theirs = colours(meant), colours(self.state.pos)
            self.t += self.rng.randint(300, 1500)
            if holes and ours != theirs:
                new = self.hands(*((h, h) for h in holes))
            elif not holes:  # several moves fit: lift the pawn of the one meant
                diff = sorted(h for h in self.true if h[0] != "N" and ours.get(h) != theirs.get(h))
                if not diff:
                    return new
                new = self.hands((diff[0], diff[0]))
            else:
                return new  # put back was meant, and the referee took it so
            new += self.wait(SETTLE + 100)
        return new

    # -- one turn ----------------------------------------------------------------------------

    def play(self, max_turns: int) -> TableRun:
        game = self.game
        again = False
        while not game.over and len(game.history) < max_turns and not self.out.problems:
            game.exchange(self.bots)
            seat = game.table.turn
            assert seat is not None
            if game.table.shuffle_no != self.shuffle:
                self.shuffle, self.used_tags = game.table.shuffle_no, set()
            pos = game.position.replace(turn=seat)
            dead = [c for c in game.hand(seat) if not has_legal_move(pos, c)]
            turn = game.play_turn(self.bots[seat])
            pause = (600, 2500) if self.trouble.reader else (3100, 4500)
            self.t += self.rng.randint(*pause) if again else self.rng.randint(100, 800)
            if turn.move is None:
                again = False
                ds = self.feed(Discard(self.t, turn.discarded))
                if not any(d.type == "discard" and d.data.get("ok") for d in ds):
                    self.problem(f"discard {turn.discarded} refused: {[d.to_dict() for d in ds]}")
                continue
            assert turn.card is not None and turn.after is not None
            again = bool(game.history) and game.table.turn == seat
            self.turn(pos, turn.card, turn.move, turn.after, dead)
            self.out.moves += 1
        self.wait(PATIENCE + SETTLE)
        return self.out

    def turn(self, pos: Position, card: str, move: Any, after: Position, dead: list[str]) -> None:
        rng, tr = self.rng, self.trouble
        if tr.reader:
            if rng.random() < tr.cards:
                self.card_trouble(pos, dead)
            self.tap(card)
            if rng.random() < tr.noise:
                self.tap(card, again=True)
        quick = self.illegal(pos, card, move) if rng.random() < tr.illegal else None
        board = frozenset(self.true)
        evs: list[Event] = list(events_for_move(pos, move, after, rng, self.t + 100, board))
        if tr.noise:
            evs = _noisy(evs, board, rng, tr.noise)
        ds = self.feed(*evs)
        holes = set(pos.topology.hole_names)  # (not the garbage names of the noise)
        self._set_true(after, frozenset(h for h in apply_events(board, evs) if h in holes))
        if quick is not None:
            # The move made within the settle time of a restore: a new attempt. Only a
            # restore with several pawns in hand at once may leave a question.
            ds += self.wait(SETTLE + 100 if tr.reader else PATIENCE + SETTLE)  # (a 7's patience)
            self.asked(ds, quick == "all")
            self.follow_asks(ds, after)
            self.check_colours(f"{move} within the settle time of a restore")
        if tr.reader and not self.game.over and rng.random() < tr.knock:
            self.knock(pos, card, move, after)

    def tap(self, card: str, *, again: bool = False) -> list[Decision]:
        self.t += 1
        if not self.tags:
            return self.feed(CardTap(self.t, card))
        if again:
            tag = self.last_tag
        else:
            free = [
                t for t, r in sorted(self.tags.items()) if r == card and t not in self.used_tags
            ]
            if not free:
                return self.feed(CardTap(self.t, card))
            tag = free[0]
            self.used_tags.add(tag)
        self.last_tag = tag
        return self.feed(CardTap(self.t, tag=tag))

    def card_trouble(self, pos: Position, dead: list[str]) -> None:
        rng = self.rng
        options = ["odd_name"] + (["dead"] if dead else [])
        if self.tags:
            options += ["odd_tag"] + (["played_tag"] if self.used_tags else [])
        kind = rng.choice(options)
        self.t += rng.randint(50, 400)
        if kind == "odd_name":
            ds = self.feed(CardTap(self.t, rng.choice(ODD_CARDS)))
        elif kind == "odd_tag":
            ds = self.feed(CardTap(self.t, tag=rng.choice(["FFFF", "04zz", "0A0B\n", "DEADBEEF"])))
        elif kind == "played_tag":
            ds = self.feed(CardTap(self.t, tag=rng.choice(sorted(self.used_tags))))
        else:
            ds = self.tap(rng.choice(dead))
            if self.tags:
                self.used_tags.discard(self.last_tag)  # a rejected card never counted
        if [d.type for d in ds if d.type not in CLOSING] != ["card_rejected"]:
            self.problem(f"card trouble {kind}: {[d.to_dict() for d in ds]}")
        self.out.rejected += 1

    def illegal(self, pos: Position, card: str, move: Any) -> str | None:
        """A wrong move, flagged; maybe a second card (undone); put right by hand, one
        pawn at a time or all at once. Returns how ("one", "all") when the real move
        follows at once, within the settle time."""
        rng = self.rng
        if not self.trouble.reader:
            self.wait(PATIENCE + SETTLE)  # the move before is taken (a tap takes it)
        cards = [card] if self.trouble.reader else list(RANKS)
        legal = {s for c in cards for s in expectation(pos, c).by_sig}
        legal |= {s for c in cards for s in expectation(pos, c).firsts}
        kind = rng.choice(("wrong_hole", "off_by_one"))
        sensed = frozenset(self.true)
        wrong = _mutation(pos, sensed, move, legal | {pos_sig(pos)}, rng, kind)
        if wrong is None:
            return None
        src, dst = wrong
        self.t += rng.randint(50, 300)
        ds = self.hands((src, dst)) + self.wait(PATIENCE + SETTLE + 100)
        flags = [d for d in ds if d.type == "illegal"]
        if [d for d in ds if d.type == "move"] or len(flags) != 1:
            self.problem(f"{kind} {src}->{dst}: {[d.to_dict() for d in ds]}")
            return None
        if [dst, src] not in flags[0].data["restore"]:
            self.problem(f"{kind} {src}->{dst}: restore {flags[0].data['restore']}")
        if self.trouble.reader and rng.random() < 0.3:
            self.second_card(pos, card)
        pairs = [(a, b) for a, b in flags[0].data["restore"] if a and b]
        together = len(pairs) > 1 and rng.random() < 0.5
        self.t += rng.randint(200, 1500)
        ds = self.hands(*pairs) if together else [d for p in pairs for d in self.hands(p)]
        if rng.random() < 0.5:
            return "all" if together else "one"  # the real move follows at once
        ds += self.wait(SETTLE + 100)
        self.asked(ds, together)
        ds = self.follow_asks(ds, pos)
        if self.state.flag is not None or board_sig(frozenset(self.true), pos.seats) != pos_sig(
            pos
        ):
            self.problem(f"{kind}: not put right: {[d.to_dict() for d in ds]}")
        self.check_colours(f"{kind} {src}->{dst} put right")
        return None

    def second_card(self, pos: Position, card: str) -> None:
        played = [c for c, _ in self.state.cards_played]
        other = next(
            (
                c
                for c in RANKS
                if c != card and played.count(c) < pos.seats and has_legal_move(pos, c)
            ),
            None,
        )
        if other is None:
            return
        ds = self.tap(other)
        if [d.data.get("cards") for d in ds if d.type == "second_card"] != [[card, other]]:
            self.problem(f"second card {other}: {[d.to_dict() for d in ds]}")
        self.t += self.rng.randint(300, 1500)
        ds = self.feed(Undo(self.t))
        if [d.data.get("card") for d in ds if d.type == "undo"] != [other]:
            self.problem(f"undo of the second card: {[d.to_dict() for d in ds]}")
        if self.tags:
            self.used_tags.discard(self.last_tag)

    def knock(self, pos: Position, card: str, move: Any, after: Position) -> None:
        """A sleeve knocks a resting pawn to a free neighbouring hole before the move
        settles; once flagged, it is put back (rarely with its swap partner in hand)."""
        rng = self.rng
        topo = pos.topology
        ring = topo.ring
        track = sorted((h for h in self.true if h[0] == "T"), key=lambda h: int(h[1:]))
        moved = [h for h in track if colours(after).get(h) != colours(pos).get(h)]
        sources = moved if moved and rng.random() < 0.7 else track
        exp = expectation(pos, card)
        legal = set(exp.by_sig) | set(exp.firsts) | {pos_sig(pos)}
        options = []
        for src in sources:
            for d in (1, -1):
                dst = f"T{(int(src[1:]) + d) % ring}"
                board = (frozenset(self.true) - {src}) | {dst}
                if dst not in self.true and board_sig(board, pos.seats) not in legal:
                    options.append((src, dst))
        if not options:
            return
        src, dst = rng.choice(options)
        self.out.knocks += 1
        self.t += rng.randint(30, 350)
        ds = self.hands((src, dst))
        ds += self.wait(PATIENCE + SETTLE + 100)
        flags = [d for d in ds if d.type == "illegal"]
        if len(flags) != 1 or [dst, src] not in flags[0].data.get("restore", []):
            self.problem(f"knock {src}->{dst}: {[d.to_dict() for d in ds]}")
            return
        self.t += rng.randint(300, 3000)
        partner = [h for h in moved if h != src and h in self.true]
        both = bool(partner) and rng.random() < 0.2
        # Put back, rarely holding a pawn of the move too (both in hand: the touches
        # cannot tell which went where).
        ds = self.hands((dst, src), (partner[0], partner[0])) if both else self.hands((dst, src))
        ds += self.wait(SETTLE + 100)
        self.asked(ds, both)
        ds = self.follow_asks(ds, after)
        if self.state.flag is not None:
            self.problem(f"knock {src}->{dst} put back, still flagged: {[d.to_dict() for d in ds]}")
        elif (
            self.check_colours(f"knock {src}->{dst} put back")
            and self.state.pos.pawns != after.pawns
        ):
            self.problem(f"knock {src}->{dst}: the move {move} is not taken")
