"""A task played on a real board from the page (issue 26 parts 2 and 3, issue 27): a
game that begins by setting the board up (the set-up mode, docs/setup.md) as the task's
position, then the referee's decisions judged against the task: a lesson's step
(lesson_play.py), a puzzle (puzzle_play.py), a mistake tried again (retry_play.py).

The flow is one for all three: the task's instruction in the instruction line until it
is done; a move that does not do it is taken back (undo: the board shows where the pawns
go back) so the player tries again; a judgement that needs a search runs off the loop.
Which task a game is comes from its setup line (its key: ``lesson``, ``puzzle``,
``retry``), so a resumed host goes on judging it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

from keezbord.engine.movegen import successors
from keezbord.engine.notation import Move, parse_move
from keezbord.engine.position import Position
from keezbord.engine.text import Text, card_label
from keezbord.engine.topology import SEAT_COLOURS
from keezbord.host.sim.restore import put_drawn_back

from .actions import pawns_of
from .instruction import MODE, Instruction

if TYPE_CHECKING:
    from .hub import Hub

V = TypeVar("V")


class BoardTask:
    """One task on the board; the hub's observer of the referee's decisions."""

    key: ClassVar[str]  # the setup line's field, the page state's part, the source

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.done = False  # the task is done: what follows is the game going on
        self.judging = False  # a move is being judged (off the loop)

    @classmethod
    def of_setup(cls, hub: Hub, raw: Mapping[str, Any]) -> Self | None:
        """The task a game's setup line names (its field ``key``), if any."""
        d = raw.get(cls.key)
        if not isinstance(d, dict):
            return None
        try:
            return cls.from_field(hub, d)
        except (KeyError, ValueError, TypeError):
            return None

    @classmethod
    def from_field(cls, hub: Hub, d: Mapping[str, Any]) -> Self | None:
        """The task from its setup field (KeyError, ValueError, TypeError: none)."""
        raise NotImplementedError

    def __call__(self, records: list[dict[str, Any]]) -> None:
        """The referee's decisions on an input (the hub's observers)."""
        for r in records:
            if self.done:
                return
            self.judge(r)

    def judge(self, record: Mapping[str, Any]) -> None:
        """One decision of the referee (``Decision.to_record``) against the task."""
        raise NotImplementedError

    def task(self) -> Text:
        """What the instruction line says while the task stands."""
        raise NotImplementedError

    def instruction(self) -> Instruction | None:
        """The task in the instruction line (once the board is set up: the set-up's own
        instruction comes first) until it is done."""
        return None if self.done else Instruction(self.task(), self.key, rank=MODE)

    def settle(self, done: bool, take_back: bool) -> None:
        """A verdict reached (on the hub's loop): the task done, or the move taken back
        (if it is still the last one) to be tried again."""
        self.done, self.judging = done, False
        self.hub.instruct(self.key, self.instruction())
        if take_back and self.hub.session.state.history:
            self.hub.call_soon(self._take_back)
        self.hub.changed()

    def _take_back(self) -> None:
        """Undo the move; in the simulator the simulated table puts the pawns back
        itself (as the page's undo does there), on a real board the lights show how."""
        hub = self.hub
        if hub.bots is not None:
            hub.bots.cancel()  # the next seat's bot waits: the player tries again
        hub.undo()
        if hub.sim is not None and hub.opts.mode == "sim":
            put_drawn_back(hub)  # the drawn pawns back, colours and all

    def off_loop(self, work: Callable[[], V], then: Callable[[V], None]) -> None:
        """``work`` (a search) on a thread, ``then`` its result on the hub's loop."""
        self.judging = True
        self.hub.changed()
        hub = self.hub

        def run() -> None:
            try:
                got = work()
            except Exception as e:  # the host must keep running whatever one judging does
                print(f"keezbord: judging the {self.key} failed: {e!r}")

                def failed() -> None:
                    self.judging = False
                    hub.changed()

                hub.call_soon(failed)
                return
            hub.call_soon(lambda: then(got))

        threading.Thread(target=run, name=f"judge-{self.key}", daemon=True).start()


def move_of_hand(
    pos: Position,
    record: Mapping[str, Any],
    hand: tuple[str, ...],
    tapped: bool,
    prefer: tuple[str | None, ...] = (),
) -> Move | None:
    """The move of ``hand`` the referee's ``move`` decision made from ``pos``. With a
    reader (``tapped``) its card is the one tapped; without one the referee took any
    card that makes it, so the cards of ``prefer`` (the one chosen on the page, the
    solution's) are tried first, then the hand's. None: no card of the hand makes it."""
    made = parse_move(str(record["move"]), pos.topology)
    if tapped:
        return made if made.card in hand else None
    after = Position.from_dict(record["position"]).pawns
    for card in dict.fromkeys((*prefer, *hand)):
        if card is None or card not in hand:
            continue
        found = next((m for m, a in successors(pos, card) if a.pawns == after), None)
        if found is not None:
            return found
    return None


def hold_text(pos: Position, hand: tuple[str, ...], what: Text) -> Text:
    """ "Red to play, hold A, 7, K: ``what``" (a puzzle's or a retry's task)."""
    c = SEAT_COLOURS[pos.turn]
    nl = ", ".join(card_label(x).nl for x in hand)
    en = ", ".join(card_label(x).en for x in hand)
    return Text(
        f"{c.nl.capitalize()} is aan zet, met {nl} in de hand: {what.nl}",
        f"{c.en.capitalize()} to play, holding {en}: {what.en}",
    )


def move_holes(pos: Position, after: Position) -> dict[str, list[str]]:
    """The holes a move leaves and reaches (what the page lights for it)."""
    b = {p["hole"]: p["seat"] for p in pawns_of(pos)}
    a = {p["hole"]: p["seat"] for p in pawns_of(after)}
    return {
        "left": sorted(h for h in b if a.get(h) != b[h]),
        "reached": sorted(h for h in a if b.get(h) != a[h]),
    }


def holes_of(pos: Position, move: Move) -> dict[str, list[str]]:
    after = next(a for m, a in successors(pos, move.card) if m == move)
    return move_holes(pos, after)


T = TypeVar("T", bound=BoardTask)


def task_of(hub: Hub, kind: type[T]) -> T | None:
    """The task of ``kind`` the hub's game is, if it is one."""
    return next((o for o in hub.observers if isinstance(o, kind)), None)


def attach(hub: Hub, kinds: tuple[type[BoardTask], ...]) -> None:
    """The hub's game is a task (its setup names one): judge it; else no task."""
    hub.observers[:] = [o for o in hub.observers if not isinstance(o, BoardTask)]
    for kind in kinds:
        got = kind.of_setup(hub, hub.session.setup_raw)
        if got is not None:
            hub.observers.append(got)
        hub.instruct(kind.key, None if got is None else got.instruction())
