"""A page's requests (docs/web.md, the messages a page sends): checked, then turned into
the referee's inputs and the simulator's actions on the running game (hub.py).

Every refusal is a ``HubError`` carrying the text the player sees, in both languages.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.position import InvalidPositionError, Position
from keezbord.engine.profiles import PROFILES
from keezbord.engine.text import Text
from keezbord.host.events import CardTap, Discard, HoleEvent, Penalty, TimeLimit
from keezbord.host.lessons import lesson, valid_name
from keezbord.host.referee import HINT_LEVELS, Overrule, arranged_setup, board_sig, pos_sig
from keezbord.host.roles import REFEREE_ACTIONS, Access, Role, may
from keezbord.host.sim.restore import put_back_on
from keezbord.host.sim.table import SimInfo, check_kinds, sim_setup

from . import remote
from .errors import HubError as HubError

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

SIM_ONLY = ("lift", "place", "card", "discard", "fix", "give")
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
    elif kind == "discard":
        seat = _human_to_play(hub)
        assert hub.sim is not None
        hub.feed(Discard(hub.now(), tuple(hub.sim.hand(seat))))
    elif kind == "fix":
        _fix(hub)
    elif kind == "give":
        _give(hub, msg)
    elif kind == "undo":
        if hub.bots is not None:
            hub.bots.cancel()  # a bot mid-move stops (its pawns are put back below)
        hub.undo()
        if hub.sim is not None and hub.opts.mode == "sim":
            put_back_on(hub)  # the simulated table puts the pawns back itself
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
    else:
        raise HubError(Text(f"onbekend bericht {kind!r}", f"unknown message {kind!r}"))
    return None


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


def new_setup(hub: Hub, msg: Mapping[str, Any]) -> tuple[dict[str, Any], SimInfo | None]:
    """A page's ``new_game``: the new game's setup and (simulator) its table's info."""
    pos = hub.session.state.pos
    seats, profile, teams, hints, kinds = new_game_options(
        msg,
        hub.opts.defaults,
        pos.seats,
        pos.profile.name,
        hub.session.setup_raw.get("hints", "targets"),
        hub.sim.info.kinds if hub.sim is not None else None,
    )
    if kinds is not None and hub.opts.mode == "sim":
        seed = msg.get("seed")
        if not isinstance(seed, int):
            seed = random.randrange(2**31)
        return sim_setup(seats, profile, seed, kinds, teams=teams, hints=hints)
    far = remote.seats_far(hub, msg, seats)
    # A real board's own setup (its reader, its tags), kept by the command: a virtual
    # deal's setup has them taken out.
    setup = dict(hub.opts.defaults.get("board_setup") or hub.session.setup_raw)
    for key in ("position", "turn", "arrange", "board", "lesson"):  # (set-ups, lessons)
        setup.pop(key, None)
    setup.update({"hints": hints})
    if teams is not None:
        setup["teams"] = teams
    if far:  # seats far away: a virtual deal, hints off unless asked for (remote.py)
        return remote.virtual_setup(hub, setup, msg, far, teams)
    if hub.opts.tokens is not None and hub.opts.tokens.seats:
        hub.away.set_tokens(hub.opts.tokens.for_seats(()))  # no seat far away: no such link
    return setup, None


AWAY_NO_SET_UP = Text(
    "een stelling klaarzetten kan niet met stoelen op afstand of een gekoppeld bord",
    "a position cannot be set up with remote seats or a linked board",
)
SIM_STARTS = Text(
    "de simulator begint een spel altijd bij het begin; een stelling klaarzetten kan op "
    "een bord (keezbord run)",
    "the simulator always starts a game from the beginning; set up a position on a "
    "board (keezbord run)",
)


def set_up_setup(hub: Hub, msg: Mapping[str, Any]) -> dict[str, Any]:
    """A page's ``set_up``: a new game that begins by setting the board up as the
    position given (docs/setup.md). The board is believed to show the game's position
    when it does (the referee knew every pawn's colour), else the start."""
    text = msg.get("position")
    try:
        if not isinstance(text, str):
            raise InvalidPositionError("no position")
        target = Position.from_text(text.strip())
    except InvalidPositionError as e:
        raise HubError(
            Text(f"geen geldige stelling ({e})", f"not a valid position ({e})")
        ) from None
    if target.topology != hub.session.state.pos.topology:
        raise HubError(
            Text(
                f"die stelling is voor een ander bord ({target.seats} stoelen)",
                f"that position is for another board ({target.seats} seats)",
            )
        )
    return _arranged_here(hub, target)


def _arranged_here(hub: Hub, target: Position) -> dict[str, Any]:
    """A new game's setup that sets this board up as ``target`` from what it shows."""
    if hub.away.peer is not None or (hub.sim is not None and hub.opts.mode == "run"):
        # A linked game's position is the host of record's; remote seats play a virtual
        # deal from the beginning.
        raise HubError(AWAY_NO_SET_UP)
    if hub.sim is not None:
        raise HubError(SIM_STARTS)
    st = hub.session.state
    at_rest = st.arranging is None and board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos)
    setup = arranged_setup(hub.session.setup_raw, target, st.pos if at_rest else None)
    setup["board"] = sorted(st.sensed)  # what the switches show now
    setup.pop("lesson", None)
    return setup


NOT_FOUR = Text(
    "de lessen zijn voor een bord met 4 stoelen (16 gaten per stoel)",
    "the lessons are for a board of 4 seats (16 holes a seat)",
)


def lesson_setup(hub: Hub, msg: Mapping[str, Any]) -> dict[str, Any]:
    """A page's ``lesson``: a new game that sets the board up as a lesson step's position
    and judges the learner's move (web/lesson_play.py, docs/lessons.md)."""
    try:
        les = lesson(str(msg.get("lesson")))
        n = msg.get("step", 1)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(les.steps):
            raise KeyError(n)
        learner = msg.get("learner")
        name = valid_name(learner) if learner not in (None, "") else None
    except KeyError:
        raise HubError(Text("kies een les en een stap", "choose a lesson and a step")) from None
    except ValueError as e:
        raise HubError(Text(f"naam: {e}", f"name: {e}")) from None
    target = Position.from_text(les.steps[n - 1].position)
    if target.topology != hub.session.state.pos.topology:
        raise HubError(NOT_FOUR)
    setup = _arranged_here(hub, target)
    setup["lesson"] = {"id": les.id, "step": n - 1, "learner": name}
    return setup


def new_game_options(
    msg: Mapping[str, Any],
    defaults: Mapping[str, Any],
    seats_now: int,
    profile_now: str,
    hints_now: str,
    kinds_now: list[str] | None,
) -> tuple[int, str, str | None, str, list[str] | None]:
    """A page's ``new_game`` message checked against the current game and the command's
    defaults: seats, profile, teams, hints and (simulator) the seat kinds."""
    seats = _int_in(msg.get("seats", defaults.get("seats", seats_now)), 2, 8, "seats")
    profile = msg.get("profile", defaults.get("profile", profile_now))
    if profile not in PROFILES:
        raise HubError(Text(f"onbekend profiel {profile!r}", f"unknown profile {profile!r}"))
    teams = msg.get("teams") or None
    if teams not in (None, "pairs", "none") or (teams == "pairs" and seats % 2):
        raise HubError(
            Text(
                "teams: 'pairs' (bij een even aantal stoelen) of 'none'",
                "teams: 'pairs' (with an even number of seats) or 'none'",
            )
        )
    hints = msg.get("hints", hints_now)
    if hints not in HINT_LEVELS:
        raise HubError(Text(f"onbekend hintniveau {hints!r}", f"unknown hint level {hints!r}"))
    kinds = None
    if kinds_now is not None:
        kinds_raw = msg.get("players", defaults.get("players", kinds_now))
        try:
            kinds = check_kinds(list(kinds_raw), seats)
        except (TypeError, ValueError) as e:
            raise HubError(Text(str(e), str(e))) from None
    return seats, profile, teams, hints, kinds


def _int_in(v: Any, lo: int, hi: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise HubError(Text(f"{name}: {lo} tot {hi}", f"{name}: {lo} to {hi}"))
    return v
