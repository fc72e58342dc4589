"""A new game's setup from a page's request (docs/web.md): ``new_game`` (seats,
profile, teams, hints, the simulator's seat kinds), ``set_up`` (a game that begins by
setting the board up as a position, docs/setup.md), ``lesson`` (a lesson step's
position, docs/lessons.md); a puzzle's and a retry's are in task_setups.py. Checked
here; the hub starts the game (Hub.new_game)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from keezbord.engine.cards import ROUND_SIZES
from keezbord.engine.describe import colour
from keezbord.engine.position import InvalidPositionError, Position
from keezbord.engine.profiles import PROFILES
from keezbord.engine.text import Text
from keezbord.host.lessons import lesson, valid_name
from keezbord.host.referee import HINT_LEVELS, arranged_setup, board_sig, pos_sig
from keezbord.host.sim.table import SimInfo, check_kinds, sim_setup, sim_setup_at

from . import remote
from .hub_error import HubError
from .instruction import Instruction
from .tasks import SETUP_KEYS

if TYPE_CHECKING:
    from .hub import Hub


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
    for key in ("position", "turn", "arrange", "board", "cards_left", *SETUP_KEYS):
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
# The simulator's table of a game set up (sim mode), handed from ``_arranged_here`` to
# Hub.new_game with the setup and taken out of it there (never journalled: web_sim keeps
# it).
SIM_INFO = "_sim_info"
AT_ONCE = Text(
    "Het gesimuleerde bord staat meteen klaar in de stelling: {who} is aan de beurt.",
    "The simulated board shows the position at once: {who} to play.",
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
    if target.topology != hub.session.state.pos.topology and hub.opts.mode != "sim":
        raise HubError(  # (the simulated board takes any shape)
            Text(
                f"die stelling is voor een ander bord ({target.seats} stoelen)",
                f"that position is for another board ({target.seats} seats)",
            )
        )
    return _arranged_here(hub, target)


def _arranged_here(hub: Hub, target: Position, hand: Sequence[str] | None = None) -> dict[str, Any]:
    """A new game's setup that sets this board up as ``target`` from what it shows;
    ``hand``: the cards the seat on turn holds (the others a full round). In the
    simulator the simulated board shows ``target`` at once (no set-up mode: the page is
    the board) and the table deals from a new seed, the hand given to the seat on turn;
    the setup then carries the table's info (``SIM_INFO``) for Hub.new_game."""
    if hub.away.peer is not None or (hub.sim is not None and hub.opts.mode == "run"):
        # A linked game's position is the host of record's; remote seats play a virtual
        # deal from the beginning.
        raise HubError(AWAY_NO_SET_UP)
    if hub.sim is not None:
        hints = hub.session.setup_raw.get("hints", "targets")
        try:
            setup, info = sim_setup_at(
                target, random.randrange(2**31), hub.sim.info.kinds, hand=hand, hints=hints
            )
        except ValueError as e:
            raise HubError(Text(f"die hand kan niet: {e}", f"that hand cannot be: {e}")) from None
        setup[SIM_INFO] = info
        return setup
    st = hub.session.state
    at_rest = st.arranging is None and board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos)
    setup = arranged_setup(hub.session.setup_raw, target, st.pos if at_rest else None)
    setup["board"] = sorted(st.sensed)  # what the switches show now
    for key in SETUP_KEYS:
        setup.pop(key, None)
    if hand is not None:  # the referee counts the cards held as they are
        setup["cards_left"] = [ROUND_SIZES[0]] * target.seats
        setup["cards_left"][target.turn] = len(hand)
    return setup


class AtOnce:
    """The instruction line of a simulator game just set up: the simulated board shows
    the position at once (no set-up mode); said until the game's first decision."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        who = colour(hub.session.state.pos.turn)
        text = Text(AT_ONCE.nl.format(who=who.nl), AT_ONCE.en.format(who=who.en))
        hub.instruct("setup", Instruction(text, "setup", hub.session.state.pos.turn))

    def __call__(self, records: list[dict[str, Any]]) -> None:
        if any(r.get("type") != "turn" for r in records):
            self.hub.instruct("setup", None)
            self.hub.observers.remove(self)


def note_at_once(hub: Hub) -> None:
    """A new simulator game begun at a position (its setup names one): say the board is
    set up at once, unless a lesson's task says what to do (web/lesson_play.py)."""
    hub.observers[:] = [o for o in hub.observers if not isinstance(o, AtOnce)]
    hub.instruct("setup", None)
    raw = hub.session.setup_raw
    if hub.opts.mode == "sim" and "position" in raw and not any(k in raw for k in SETUP_KEYS):
        hub.observers.append(AtOnce(hub))


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
    if target.topology != hub.session.state.pos.topology and hub.opts.mode != "sim":
        raise HubError(NOT_FOUR)
    st = les.steps[n - 1]
    setup = _arranged_here(hub, target, st.hand or ((st.card,) if st.card else ()))
    setup["lesson"] = {"id": les.id, "step": n - 1, "learner": name}
    plays_alone(setup, target)
    return setup


def plays_alone(setup: dict[str, Any], target: Position) -> None:
    """In the simulator a lesson's learner or a puzzle's solver plays the seat on turn,
    greedy bots the rest (on a real board the people at the table do)."""
    info = setup.get(SIM_INFO)
    if isinstance(info, SimInfo):
        info.kinds = ["greedy"] * target.seats
        info.kinds[target.turn] = "human"


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
