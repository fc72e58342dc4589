"""A page's requests (docs/web.md, the messages a page sends): checked, then turned into
the referee's inputs and the simulator's actions on the running game (hub.py).

Every refusal is a ``HubError`` carrying the text the player sees, in both languages.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from keezbord.engine.position import InvalidPositionError, Position
from keezbord.engine.profiles import PROFILES
from keezbord.engine.text import Text
from keezbord.host.events import CardTap, Discard, HoleEvent, Penalty, TimeLimit
from keezbord.host.lessons import lesson, valid_name
from keezbord.host.referee import HINT_LEVELS, Overrule, arranged_setup, board_sig, pos_sig
from keezbord.host.roles import REFEREE_ACTIONS, Role, may
from keezbord.host.sim.restore import put_back_on
from keezbord.host.sim.table import SimInfo, check_kinds, sim_setup

from .instruction import MODE, Instruction
from .remarks import ask_card

if TYPE_CHECKING:
    from .hub import Hub


class HubError(ValueError):
    """A page's request that cannot be done; ``text`` is shown to the player."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


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
SIM_ONLY = ("lift", "place", "card", "discard", "fix", "give", "ask_card")


def handle(hub: Hub, msg: Mapping[str, Any], role: Role) -> None:
    """One message from a page whose link gives it ``role`` (roles.py says who may)."""
    kind = msg.get("type")
    if not may(role, str(kind)):
        raise HubError(NEED_REFEREE if kind in REFEREE_ACTIONS else WATCH_ONLY)
    if kind in SIM_ONLY:
        if hub.sim is None:
            raise HubError(NOT_SIM)
        if hub.bot_busy is not None:
            raise HubError(BOT_BUSY)
        if kind in ("card", "discard") and hub.sim.waiting:
            raise HubError(GIVE_FIRST)
    if kind in ("penalty", "time_limit") and hub.session.state.pos.profile.scoring != "nk":
        raise HubError(NK_ONLY)
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
        hub.new_game(msg)
    elif kind == "set_up":
        hub.new_game(msg, set_up_setup(hub, msg))
    elif kind == "lesson":
        hub.new_game(msg, lesson_setup(hub, msg))
    else:
        raise HubError(Text(f"onbekend bericht {kind!r}", f"unknown message {kind!r}"))


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
    if count > hub.session.state.pos.seats or (hub.sim is None and count > 1):
        raise HubError(TOO_FAR)
    if hub.bots is not None:
        hub.bots.cancel()  # a bot mid-move stops (its pawns are put back below)
    try:
        for _ in range(count + 1):  # + 1: a second card flagged is taken back first
            st = hub.session.state
            if len(st.history) < n:
                break
            hub.undo()
            if hub.sim is not None:
                put_back_on(hub)  # the simulated table puts the pawns back itself
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
    seat = msg.get("seat", sim.waiting[0] if sim.waiting else None)
    card = msg.get("card")
    if not isinstance(seat, int) or not isinstance(card, str):
        raise HubError(Text("kies een kaart", "choose a card"))
    try:
        sim.give(seat, card)
    except ValueError as e:
        raise HubError(
            Text(
                "die kaart kan nu niet doorgegeven worden", f"that card cannot be passed now ({e})"
            )
        ) from None
    hub.log.exchanges(sim, hub.session.state)  # the exchange may be made now
    hub.changed()


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
    if kinds is not None:
        seed = msg.get("seed")
        if not isinstance(seed, int):
            seed = random.randrange(2**31)
        return sim_setup(seats, profile, seed, kinds, teams=teams, hints=hints)
    setup = dict(hub.session.setup_raw)
    for key in ("position", "turn", "arrange", "board", "lesson"):  # (set-ups, lessons)
        setup.pop(key, None)
    setup.update({"hints": hints})
    if teams is not None:
        setup["teams"] = teams
    return setup, None


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
