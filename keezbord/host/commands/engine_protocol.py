"""The engine protocol: a bot as a process speaking lines on stdin and stdout, as chess
engines speak UCI (docs/engine-protocol.md, ``keezbord engine``).

The client sends the position (docs/formats.md's one-line text form, the seat to play
in it), the seat's hand and what it knows (``seen``, ``sizes``, ``passed``; ``hands``
for an engine that sees every hand), then ``go`` with a budget; the engine answers
``bestmove`` with the move in FORMATS.md notation, or ``bestmove none`` when no card of
the hand can be played. Bad input gets one line, ``error <why>``, and the engine reads
on: it never stops on a line, only on ``quit`` or the end of its input.

This module uses only engine names that every version of keezbord since the search bot
has (``Position.from_text``, ``Board``, ``Known``, ``analyse``, the bots): the ladder
(bench/bench_ladder.py) loads this file into a pinned worktree of an older commit to run
that commit's search through the same protocol (bench/engine_pinned.py). ``ceiling``
needs ``Known.hands`` (this version's).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from keezbord.engine.board import Board
    from keezbord.engine.position import Position
    from keezbord.engine.search import Analysis, Known

NAME = "keezbord"
BOTS = ("random", "greedy", "beginner", "search", "ceiling")
# What judges the search's unfinished playouts: the fitted leaf it plays with, or the
# judge's leaf (the hints' and the analysis's, whose chances are calibrated).
ENGINE_LEAVES = ("fitted", "judge")
DEFAULT_PLAYOUTS = 300
MAX_PLAYOUTS = 1_000_000
MAX_MS = 600_000.0


def _info(board: Board, a: Analysis, *, calibrate: bool = True) -> str:
    """The ``info`` line of a search: with the judge's leaf (``leaf judge``) ``win`` the
    team's chance after the best move as a person is shown it (calibrated,
    engine/calibration.py, as the hint and the analysis say it) and ``rawwin`` the
    playouts' own; with the fitted leaf (``calibrate`` False) ``win`` the playouts' own
    (the leaf is itself fitted to who won; the calibration is the judge leaf's) and no
    ``rawwin``; neither when the only candidate was not played out. The ladder's pinned
    b80f2dd has no calibration: there ``win`` is the raw chance."""
    best = a.best
    assert best is not None
    head = f"info playouts {a.playouts} candidates {len(a.ranked)}"
    if not best.playouts:  # the only candidate: not played out, no chance to tell
        return head
    if not calibrate:
        return f"{head} win {best.win:.4f}"
    try:
        from keezbord.engine.calibration import calibrated_analysis
    except ImportError:
        return f"{head} win {best.win:.4f}"
    shown = calibrated_analysis(board, a).of_move(best.card, best.move)
    win = best.win if shown is None else shown.win
    return f"{head} win {win:.4f} rawwin {best.win:.4f}"


class ProtocolError(ValueError):
    """A line the engine cannot take: answered with ``error <message>``."""


@dataclass
class Seat:
    """What the client told the engine since the last ``position``."""

    pos: Position | None = None
    hand: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    sizes: tuple[int, ...] | None = None
    passed: list[str] = field(default_factory=list)
    hands: tuple[tuple[str, ...], ...] | None = None
    played: list[tuple[str, Position]] = field(default_factory=list)


def _cards(words: Iterable[str]) -> list[str]:
    from keezbord.engine.cards import parse_card

    out = []
    for w in words:
        for c in w.split(","):
            if c and c != "-":
                try:
                    out.append(parse_card(c))
                except ValueError as e:
                    raise ProtocolError(str(e)) from None
    return out


def _int(text: str, what: str, lo: float, hi: float) -> int:
    try:
        v = int(text)
    except ValueError:
        raise ProtocolError(f"{what} must be a whole number, not {text!r}") from None
    if not lo <= v <= hi:
        raise ProtocolError(f"{what} must be from {lo:g} to {hi:g}, not {v}")
    return v


class Engine:
    """One engine: ``bot`` by name, ``playouts`` its default budget. ``handle(line)``
    returns the lines to answer (none for most commands)."""

    def __init__(
        self,
        bot: str = "search",
        playouts: int = DEFAULT_PLAYOUTS,
        *,
        infer: bool = False,
        leaf: str = "fitted",
    ) -> None:
        if bot not in BOTS:
            raise ProtocolError(f"unknown bot {bot!r} ({', '.join(BOTS)})")
        if leaf not in ENGINE_LEAVES:
            raise ProtocolError(f"unknown leaf {leaf!r} ({', '.join(ENGINE_LEAVES)})")
        self.bot = bot
        self.playouts = playouts
        self.infer = infer  # the search weighs its deals by the ``played`` lines
        self.leaf = leaf  # the playouts' judge: the fitted leaf, or the judge's (hints)
        self.seat = Seat()
        self.done = False
        self.commands: dict[str, Callable[[list[str]], list[str]]] = {
            "keezbord": self._hello,
            "isready": lambda _a: ["readyok"],
            "newgame": self._newgame,
            "setoption": self._setoption,
            "position": self._position,
            "hand": self._hand,
            "seen": self._seen,
            "sizes": self._sizes,
            "passed": self._passed,
            "hands": self._hands,
            "played": self._played,
            "go": self._go,
            "give": self._give,
            "quit": self._quit,
        }

    def handle(self, line: str) -> list[str]:
        words = line.split()
        if not words:
            return []
        fn = self.commands.get(words[0])
        if fn is None:
            return [f"error unknown command {words[0][:40]!r}"]
        try:
            return fn(words[1:])
        except ProtocolError as e:
            return [f"error {' '.join(str(e).split())}"]
        except ValueError as e:  # the engine's refusals (a bad position, a bad card)
            return [f"error {' '.join(str(e).split())}"]

    # -- the commands ----------------------------------------------------------------

    def _hello(self, _args: list[str]) -> list[str]:
        return [
            f"id name {NAME} {self.bot}",
            "id author the keezbord project",
            f"option name playouts type spin default {self.playouts} min 1 max {MAX_PLAYOUTS}",
            f"option name bot type combo default {self.bot} " + " ".join(f"var {b}" for b in BOTS),
            f"option name infer type check default {'true' if self.infer else 'false'}",
            f"option name leaf type combo default {self.leaf} "
            + " ".join(f"var {v}" for v in ENGINE_LEAVES),
            "keezbordok",
        ]

    def _newgame(self, _args: list[str]) -> list[str]:
        self.seat = Seat()
        return []

    def _setoption(self, args: list[str]) -> list[str]:
        if len(args) != 4 or args[0] != "name" or args[2] != "value":
            raise ProtocolError("setoption name <playouts|bot|infer|leaf> value <v>")
        name, value = args[1], args[3]
        if name == "playouts":
            self.playouts = _int(value, "playouts", 1, MAX_PLAYOUTS)
        elif name == "infer":
            if value not in ("true", "false"):
                raise ProtocolError("infer is true or false")
            self.infer = value == "true"
        elif name == "leaf":
            if value not in ENGINE_LEAVES:
                raise ProtocolError(f"unknown leaf {value!r} ({', '.join(ENGINE_LEAVES)})")
            self.leaf = value
        elif name == "bot":
            if value not in BOTS:
                raise ProtocolError(f"unknown bot {value!r} ({', '.join(BOTS)})")
            self.bot = value
        else:
            raise ProtocolError(f"unknown option {name!r} (playouts, bot, infer, leaf)")
        return []

    def _position(self, args: list[str]) -> list[str]:
        from keezbord.engine.position import Position

        self.seat = Seat()  # a refused position leaves none: nothing stale is searched
        if not args:
            raise ProtocolError("position needs the one-line position text")
        self.seat = Seat(Position.from_text(" ".join(args)))
        return []

    def _need_pos(self) -> Position:
        if self.seat.pos is None:
            raise ProtocolError("no position yet: send position first")
        return self.seat.pos

    def _hand(self, args: list[str]) -> list[str]:
        self._need_pos()
        self.seat.hand = []
        hand = _cards(args)
        if not hand or len(hand) > 6:
            raise ProtocolError("hand needs 1 to 6 cards")
        self.seat.hand = hand
        return []

    def _seen(self, args: list[str]) -> list[str]:
        self._need_pos()
        self.seat.seen = _cards(args)
        return []

    def _sizes(self, args: list[str]) -> list[str]:
        pos = self._need_pos()
        seats = pos.seats
        if len(args) != seats:
            raise ProtocolError(f"sizes needs one count a seat ({seats})")
        self.seat.sizes = tuple(_int(a, "a hand size", 0, 6) for a in args)
        return []

    def _passed(self, args: list[str]) -> list[str]:
        self._need_pos()
        cards = _cards(args)
        if len(cards) > 1:
            raise ProtocolError("passed takes one card")
        self.seat.passed = cards
        return []

    def _hands(self, args: list[str]) -> list[str]:
        pos = self._need_pos()
        seats = pos.seats
        groups = " ".join(args).split("/")
        if len(groups) != seats:
            raise ProtocolError(f"hands needs one group a seat ({seats}), '/' between")
        self.seat.hands = tuple(tuple(_cards(g.split())) for g in groups)
        return []

    def _played(self, args: list[str]) -> list[str]:
        """``played CARD POSITION``: another seat's decision this round (the position
        before it, its turn that seat), in order, sent after ``position``."""
        from keezbord.engine.position import Position

        self._need_pos()
        if len(args) < 2:
            raise ProtocolError("played CARD POSITION (the position before it)")
        [card] = _cards(args[:1])
        before = Position.from_text(" ".join(args[1:]))
        if before.seats != self._need_pos().seats:
            raise ProtocolError("played: the position has another number of seats")
        self.seat.played.append((card, before))
        return []

    def _budget(self, args: list[str]) -> tuple[int, int]:
        """``go [playouts N | movetime MS] [seed S]``: (playouts, seed)."""
        playouts, seed = self.playouts, 0
        it = iter(args)
        for key in it:
            value = next(it, None)
            if value is None:
                raise ProtocolError(f"go: {key} needs a value")
            if key == "playouts":
                playouts = _int(value, "playouts", 1, MAX_PLAYOUTS)
            elif key == "movetime":
                ms = _int(value, "movetime", 1, MAX_MS)
                pos = self._need_pos()
                from keezbord.host.search_budget import playouts_for_ms

                playouts = playouts_for_ms(ms, pos.seats, pos.profile.name)
            elif key == "seed":
                seed = _int(value, "seed", 0, 2**63)
            else:
                raise ProtocolError(f"go: unknown {key!r} (playouts, movetime, seed)")
        return playouts, seed

    def _go(self, args: list[str]) -> list[str]:
        from keezbord.engine.board import Board

        pos = self._need_pos()
        st = self.seat
        if not st.hand:
            raise ProtocolError("no hand yet: send hand first")
        playouts, seed = self._budget(args)
        if self.bot == "ceiling" and st.hands is None:
            raise ProtocolError("the ceiling sees every hand: send hands first")
        board = Board(pos)
        seat = pos.turn
        rng = random.Random(seed)
        info: list[str] = []
        if self.bot == "beginner":  # a level (engine/levels.py): only this version has it
            from keezbord.engine.beginner import BeginnerBot

            choice = BeginnerBot(rng).pick(board, seat, st.hand)
        elif self.bot in ("random", "greedy"):
            from keezbord.engine.bots import GreedyBot, RandomBot

            bot = RandomBot(rng) if self.bot == "random" else GreedyBot(rng)
            choice = bot.pick(board, seat, st.hand)
        else:
            from keezbord.engine import search

            # The playing length (the judge keeps its own); the ladder's pinned b80f2dd
            # search, served by this module (bench/engine_pinned.py), has none.
            play = getattr(search, "play_horizon", None)
            # The playing policy (the fitted leaf) unless asked for the judge's leaf; the
            # pinned b80f2dd has neither the policy nor the option.
            how = getattr(search, "PLAY_POLICY", None) if self.leaf == "fitted" else None
            a = search.analyse(
                board,
                seat,
                st.hand,
                self._known(),
                playouts=playouts,
                rng=rng,
                single=False,
                horizon=None if play is None else play(board.seats),
                **({} if how is None else {"how": how}),
            )
            best = a.best
            choice = None if best is None else (best.card, best.move)
            if best is not None:
                info.append(_info(board, a, calibrate=how is None))
        if choice is None:
            return [*info, "bestmove none"]
        from keezbord.engine.board import to_move

        return [*info, f"bestmove {to_move(choice[1])}"]

    def _known(self) -> Known:
        from keezbord.engine.search import Known

        st = self.seat
        if self.bot == "ceiling":
            return Known(tuple(st.seen), st.sizes, tuple(st.passed), st.hands)
        if self.infer and st.played:
            from keezbord.engine.inference import Observed

            seen = tuple(Observed(p, c) for c, p in st.played)
            return Known(tuple(st.seen), st.sizes, tuple(st.passed), None, seen)
        return Known(tuple(st.seen), st.sizes, tuple(st.passed))

    def _give(self, _args: list[str]) -> list[str]:
        from keezbord.engine.bots import GreedyBot, RandomBot

        pos = self._need_pos()
        if not self.seat.hand:
            raise ProtocolError("no hand yet: send hand first")
        bot = RandomBot(random.Random(0)) if self.bot == "random" else GreedyBot(random.Random(0))
        return [f"givecard {bot.give(pos, self.seat.hand)}"]

    def _quit(self, _args: list[str]) -> list[str]:
        self.done = True
        return []


def serve(engine: Engine, inp: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    """Read commands until ``quit`` or the end of ``inp``; every answer flushed at once."""
    for line in inp:
        for answer in engine.handle(line):
            out.write(answer + "\n")
        out.flush()
        if engine.done:
            break
    return 0
