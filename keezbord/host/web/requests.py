"""A page's requests (docs/web.md, the messages a page sends): checked, then turned into
the referee's inputs and the simulator's actions on the running game (hub.py).

Every refusal is a ``HubError`` carrying the text the player sees, in both languages.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.text import Text
from keezbord.host.events import CardTap, Discard, HoleEvent, Penalty, TimeLimit
from keezbord.host.referee import Overrule
from keezbord.host.roles import NEW_GAME_ACTIONS, REFEREE_ACTIONS, Access, Role, may

from . import drawing, ending, remote
from .board_task import task_of
from .hub_error import HubError as HubError
from .instruction import MODE, Instruction
from .puzzle_play import PuzzlePlay
from .remarks import ask_card
from .setups import lesson_setup, set_up_setup
from .task_setups import puzzle_setup, retry_setup

if TYPE_CHECKING:
    from .hub import Hub


NOT_SIM = Text(
    "dit is een echt bord: verzet de pionnen op het bord zelf",
    "this is a real board: move the pawns on the board itself",
)
NEED_REFEREE = Text(
    "hiervoor is de link van de scheidsrechter nodig", "this needs the referee's link"
)
WATCH_ONLY = Text(
    "alleen kijken: met deze link kun je niet spelen (vraag de link voor spelers)",
    "watching only: this link cannot play (ask for the players' link)",
)
BOT_BUSY = Text("wacht even: een bot is aan zet", "wait: a bot is playing")
NO_PAWN = Text("daar staat geen pion", "there is no pawn there")
HOLE_TAKEN = Text("daar staat al een pion", "there is already a pawn there")
EMPTY_HAND = Text("je hebt geen pion in de hand", "you hold no pawn")
NOT_YOUR_CARD = Text(
    "die kaart zit niet in de hand van wie aan zet is",
    "that card is not in the hand of the player to play",
)
NOT_HUMAN = Text("deze stoel wordt door een bot gespeeld", "a bot plays this seat")
UNKNOWN_HOLE = Text("onbekend gat", "unknown hole")
GIVE_FIRST = Text("geef eerst een kaart aan je partner", "pass a card to your partner first")
NK_ONLY = Text("alleen bij het NK-profiel", "only with the nk profile")
GONE = Text("die zet is al teruggenomen", "that move was taken back already")
TOO_FAR = Text(
    "zo ver terug kan niet: hooguit een ronde (op een echt bord: alleen de laatste zet)",
    "cannot go back that far: a round at most (on a real board: the last move only)",
)
TAKING_BACK = Text(
    "De scheidsrechter neemt een zet terug: de bots wachten",
    "The referee is taking back a move: the bots wait",
)
HOLD_S = 60  # a takeback dialog left open holds the bots this long at most

FULL_ONLY = Text("alleen bij hulp 'volledig'", "only with hints 'full'")
NOT_REMOTE = Text(
    "met de link van een stoel op afstand speel je alleen die stoel",
    "a remote seat's link plays its own seat only",
)
AWAY = Text(
    "deze stoel speelt op afstand: zijn eigen link speelt zijn kaarten",
    "this seat plays far away: its own link plays its cards",
)

NOT_LINKED = Text("niet in een spel op twee borden", "not in a game played on two boards")
NOT_IN_STEP = Text("wacht tot het andere bord bij is", "wait until the other board is in step")

SIM_ONLY = ("lift", "place", "card", "discard", "fix", "give", "ask_card")
BOARD_ONLY = ("lift", "place", "fix")  # the simulator's pawns (a real board has its own)


def handle(hub: Hub, msg: Mapping[str, Any], access: Access) -> dict[str, Any] | None:
    """One message from a page whose link gives it ``access`` (roles.py says who may);
    a question's answer, if it asked one."""
    kind = msg.get("type")
    role = access.role
    if not may(role, str(kind)):
        if kind in REFEREE_ACTIONS:
            raise HubError(NEED_REFEREE)
        raise HubError(NOT_REMOTE if role is Role.REMOTE else WATCH_ONLY)
    if role is Role.REMOTE or kind in remote.REMOTE_ONLY:
        return remote.handle_remote(hub, msg, access)
    if kind in remote.LINKS:
        return remote.handle_links(hub, msg)
    if kind in SIM_ONLY:
        if hub.sim is None or (kind in BOARD_ONLY and hub.opts.mode != "sim"):
            raise HubError(NOT_SIM)
        if hub.bot_busy is not None:
            raise HubError(BOT_BUSY)
        if kind in ("card", "discard") and hub.sim.waiting:
            raise HubError(GIVE_FIRST)
    if kind in ("penalty", "time_limit") and hub.session.state.pos.profile.scoring != "nk":
        raise HubError(NK_ONLY)
    if hub.away.peer is not None:  # a linked game (host/club/linked_board.py)
        if kind in ("penalty", "time_limit", "overrule"):
            raise HubError(NOT_LINKED)
        if kind in ("undo", "discard") and not hub.away.peer.in_step():
            raise HubError(NOT_IN_STEP)
    if kind in NEW_GAME_ACTIONS:  # a players' link never ends a game in progress unasked
        ending.check(hub, msg, access)
    if kind == "lift" or kind == "place":
        _hole(hub, kind, msg)
    elif kind == "card":
        seat = _human_to_play(hub)
        card = msg.get("card")
        assert hub.sim is not None
        if not isinstance(card, str) or card not in hub.sim.hand(seat):
            raise HubError(NOT_YOUR_CARD)
        hub.tap_hand = (seat, hub.sim.hand(seat))
        hub.feed(CardTap(hub.now(), card))
    elif kind == "ask_card":  # which card to play? (remarks.py)
        seat = _human_to_play(hub)
        if hub.session.state.config.hints != "full":
            raise HubError(FULL_ONLY)
        ask_card(hub, seat)
    elif kind == "discard":
        seat = _human_to_play(hub)
        assert hub.sim is not None
        hub.feed(Discard(hub.now(), tuple(hub.sim.hand(seat))))
    elif kind == "fix":
        _fix(hub)
    elif kind == "give":
        _give(hub, msg)
    elif kind == "undo":
        _undo(hub, msg)
    elif kind == "hold":
        hold(hub, msg.get("on") is not False)
    elif kind == "penalty":
        offender = msg.get("seat")
        if (
            isinstance(offender, bool)
            or not isinstance(offender, int)
            or not 0 <= offender < hub.session.state.pos.seats
        ):
            raise HubError(Text("kies een stoel", "choose a seat"))
        hub.feed(Penalty(hub.now(), offender))
    elif kind == "time_limit":
        hub.feed(TimeLimit(hub.now()))
    elif kind == "overrule":
        reason, mv, correct = msg.get("reason"), msg.get("move") or None, msg.get("correct")
        if (
            not isinstance(reason, str)
            or not reason.strip()
            or (mv is not None and not isinstance(mv, str))
            or not isinstance(correct if correct is not None else False, bool)
        ):
            raise HubError(
                Text(
                    "geef een reden op (en eventueel de zet)",
                    "give a reason (and, if need be, the move)",
                )
            )
        hub.feed(Overrule(hub.now(), reason.strip(), mv, bool(correct)))
    elif kind == "new_game":
        if hub.away.peer is not None:
            refused = hub.away.peer.new_game(msg)  # the host of record's, for both boards
            if refused is not None:
                raise HubError(refused)
        else:
            hub.new_game(msg)
    elif kind == "set_up":
        hub.new_game(msg, set_up_setup(hub, msg))
    elif kind == "lesson":
        hub.new_game(msg, lesson_setup(hub, msg))
    elif kind == "puzzle":
        hub.new_game(msg, puzzle_setup(hub, msg))
    elif kind == "puzzle_card":
        _puzzle_card(hub, msg)
    elif kind == "puzzle_help":
        _puzzle_help(hub, msg)
    elif kind == "retry_board":
        hub.new_game(msg, retry_setup(hub, msg, role))
    else:
        raise HubError(Text(f"onbekend bericht {kind!r}", f"unknown message {kind!r}"))
    return None


def _puzzle_card(hub: Hub, msg: Mapping[str, Any]) -> None:
    """The card the solver of a puzzle plays, chosen on the page (no card reader)."""
    play = task_of(hub, PuzzlePlay)
    if play is None or play.done:
        raise HubError(Text("er is geen puzzel bezig", "no puzzle is being solved"))
    card = msg.get("card")
    if not isinstance(card, str) or card not in play.puzzle.hand:
        raise HubError(NOT_YOUR_CARD)
    play.choose(card)


def _puzzle_help(hub: Hub, msg: Mapping[str, Any]) -> None:
    """A hint (the next one) or the answer, asked by the solver of a puzzle."""
    play = task_of(hub, PuzzlePlay)
    if play is None or play.done:
        raise HubError(Text("er is geen puzzel bezig", "no puzzle is being solved"))
    what = msg.get("help")
    if what not in ("hint", "answer"):
        raise HubError(Text("help: 'hint' of 'answer'", "help: 'hint' or 'answer'"))
    play.help(str(what))


def _undo(hub: Hub, msg: Mapping[str, Any]) -> None:
    """Take back the last move, or with ``n`` every move from move ``n`` on (the move
    the page's dialog named, so a bot's move made meanwhile is not taken back in its
    place): at most a round back, on a real board only the last move."""
    history = hub.session.state.history
    if "n" not in msg and hub.session.state.second_card is not None:
        # A second card flagged: the plain takeback takes back that card only.
        hub.undo()
        hold(hub, False)
        return
    n = msg.get("n", len(history))
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise HubError(Text("welke zet?", "which move?"))
    if n > len(history):
        raise HubError(GONE)
    count = len(history) - n + 1
    real = hub.opts.mode != "sim"  # (a virtual deal's table is on a real board)
    if count > hub.session.state.pos.seats or (real and count > 1):
        raise HubError(TOO_FAR)
    if hub.bots is not None:
        hub.bots.cancel()  # a bot mid-move stops (its pawns are put back below)
    try:
        for _ in range(count + 1):  # + 1: a second card flagged is taken back first
            st = hub.session.state
            if len(st.history) < n:
                break
            hub.undo()
            if hub.sim is not None and not real:
                drawing.put_right(hub)  # the simulated table puts the pawns back itself
            after = hub.session.state
            if len(after.history) == len(st.history) and after.second_card == st.second_card:
                # The referee took nothing back (a hand was shown since, ...): its reason.
                raise HubError(_refusal(hub))
    finally:
        hold(hub, False)


def _refusal(hub: Hub) -> Text:
    for d in reversed(hub.session.snapshot("en", history=False)["decisions"]):
        if d.get("type") == "undo" and not d.get("ok") and isinstance(d.get("reason"), dict):
            return Text(d["reason"]["nl"], d["reason"]["en"])
    return Text("niets teruggenomen", "nothing was taken back")


def hold(hub: Hub, on: bool) -> None:
    """The referee's takeback dialog is open (``on``) or closed: the bots wait meanwhile
    (HOLD_S at most), and the instruction line says why."""
    hub.hold_until = time.monotonic() + HOLD_S if on else 0.0
    hub.instruct(
        "takeback", Instruction(TAKING_BACK, "takeback", tone="wait", rank=MODE) if on else None
    )


def holding(hub: Hub) -> bool:
    """The bots wait (a takeback dialog is open); a hold run out is taken back."""
    if hub.hold_until and time.monotonic() >= hub.hold_until:
        hold(hub, False)
    return time.monotonic() < hub.hold_until


def _hole(hub: Hub, kind: str, msg: Mapping[str, Any]) -> None:
    hole = msg.get("hole")
    topo = hub.session.state.pos.topology
    if not isinstance(hole, str) or hole not in topo.hole_names:
        raise HubError(UNKNOWN_HOLE)
    sensed = hub.session.state.sensed
    held = hub.pawns.held
    if kind == "lift":
        if hole not in sensed:
            raise HubError(NO_PAWN)
        ev = HoleEvent(hub.now(), "lift", hole)
        hub.track(ev)
    else:
        if hole in sensed:
            raise HubError(HOLE_TAKEN)
        if not held:
            raise HubError(EMPTY_HAND)
        pawn = msg.get("pawn")
        if isinstance(pawn, int) and 0 <= pawn < len(held):
            # The player chose which pawn in hand to put down: move it to the end.
            held.append(held.pop(pawn))
        ev = HoleEvent(hub.now(), "place", hole)
        hub.track(ev, held[-1])
    hub.feed(ev)


def _human_to_play(hub: Hub) -> int:
    seat = hub.session.state.seat
    if seat is None:
        raise HubError(Text("het spel is afgelopen", "the game is over"))
    assert hub.sim is not None
    if hub.sim.is_bot(seat):
        raise HubError(NOT_HUMAN)
    if hub.sim.where(seat) != "table":
        raise HubError(AWAY)
    return seat


def _fix(hub: Hub) -> None:
    """Simulator help: put a flagged board right as the restore guidance says."""
    flag = hub.session.state.flag
    if hub.opts.mode == "sim":
        drawing.put_right(hub)  # the drawn board, colours and all (issue 40)
        return
    if flag is None:
        return
    for frm, to in flag.pairs:
        if frm is not None and frm in hub.session.state.sensed:
            ev = HoleEvent(hub.now(), "lift", frm)
            hub.track(ev)
            hub.feed(ev)
        if to is not None and to not in hub.session.state.sensed:
            if not hub.pawns.held:
                hub.pawns.held.append(None)
            ev = HoleEvent(hub.now(), "place", to)
            hub.track(ev)
            hub.feed(ev)


def _give(hub: Hub, msg: Mapping[str, Any]) -> None:
    sim = hub.sim
    assert sim is not None
    here = [s for s in sim.waiting if sim.where(s) == "table"]
    seat = msg.get("seat", here[0] if here else None)
    if isinstance(seat, int) and not isinstance(seat, bool) and sim.where(seat) != "table":
        raise HubError(AWAY)
    remote.give(hub, seat, msg.get("card"))
