"""The instruction line (docs/web.md, "The instruction line"): the one place where the
page tells a player what to do next, always in view at the top of the page.

An ``Instruction`` is a text in both languages with who it is for (a seat, or everyone
at the table), the holes it names and how urgent it is (``rank``). The game says its
own next step (``game_instruction``, a pure function of the referee's state and the
drawing); other parts of the host post theirs on the hub (``Hub.instruct``: an LED
set-up mode, a lesson, a remote seat), and the page shows the most urgent one
(``pick``). Texts made for the simulator's page may hold ``{tap}``: the page puts its
verb for pointing there ("tap" on a touch screen, "click" with a mouse).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from keezbord.engine.describe import colour
from keezbord.engine.text import Text, card_label
from keezbord.host.referee import RefereeState, board_sig, knocked_off, nest_seat, pos_sig
from keezbord.host.sim.table import SimTable

# How urgent an instruction is: the smallest rank is shown.
URGENT: Final = 0  # the board must be put right before anything else (a flag)
MODE: Final = 10  # a mode the table is in: the LED set-up, a lesson's step, a remote seat
TURN: Final = 20  # the game's next step for the seat to play

# How the page draws it: something to do, something to wait for, a board to put right.
Tone = Literal["do", "wait", "fix"]


@dataclass(frozen=True, slots=True)
class Instruction:
    text: Text  # what to do, one short sentence (may hold {tap}, see above)
    source: str = "game"  # who says it: "game", "flag", or the posting part's name
    seat: int | None = None  # the player it is for; None: everyone at the table
    holes: tuple[str, ...] = ()  # the holes it names (the board labels them)
    tone: Tone = "do"
    rank: int = TURN

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text.as_dict(),
            "source": self.source,
            "seat": self.seat,
            "holes": list(self.holes),
            "tone": self.tone,
        }


def pick(instructions: Iterable[Instruction | None]) -> Instruction | None:
    """The one to show: the lowest rank; of equal ranks, the first given."""
    best: Instruction | None = None
    for ins in instructions:
        if ins is not None and (best is None or ins.rank < best.rank):
            best = ins
    return best


def _played(card: str) -> Text:
    label = card_label(card)
    return Text(f"Gespeeld: {label.nl}", f"Played {label.en}")


def _then(first: Text, then: Text) -> Text:
    return Text(f"{first.nl} — {then.nl}", f"{first.en}: {then.en}")


def _capital(t: Text) -> Text:
    return Text(t.nl[:1].upper() + t.nl[1:], t.en[:1].upper() + t.en[1:])


# The words of each step, on the simulator's page (a pointer) and at a real board.
_LIT_PAWN = {
    "sim": Text("{tap} op een pion die oplicht", "{tap} a lit pawn"),
    "run": Text("pak een pion die oplicht", "lift a lit pawn"),
}
_ANY_PAWN = {
    "sim": Text("{tap} op de pion die je zet", "{tap} the pawn you move"),
    "run": Text("pak de pion die je zet", "lift the pawn you move"),
}
_LIT_HOLE = {
    "sim": Text("{tap} op een gat dat oplicht", "{tap} a lit hole"),
    "run": Text("zet de pion op een gat dat oplicht", "put the pawn on a lit hole"),
}
_ANY_HOLE = {
    "sim": Text("{tap} op het gat waar de pion heen gaat", "{tap} the hole the pawn goes to"),
    "run": Text("zet de pion waar hij heen gaat", "put the pawn where it goes"),
}
_TAP_CARD = {
    "sim": Text("{tap} op een kaart", "{tap} a card"),
    "run": Text("tik je kaart op de lezer", "tap your card on the reader"),
}
NO_CARD = Text("Geen kaart speelbaar: laat je hand zien", "No card can be played: show your hand")
CHECKING = Text("De zet wordt nagekeken…", "Checking the move…")


def game_instruction(
    st: RefereeState,
    mode: str,
    held: Sequence[int | None],
    sim: SimTable | None,
    flag: Mapping[str, Any] | None,
    split: Mapping[str, Any] | None,
    hand: Mapping[str, Any] | None,
    decisions: Sequence[Mapping[str, Any]] = (),
    settling: Sequence[str] = (),
) -> Instruction | None:
    """The game's next step: for the seat to play (tap a card, lift a lit pawn, put it
    on a lit hole, the rest of a 7, the second pawn of a jack, the victim home), for the
    table (put a flagged board right), or what everyone waits for (a bot, the check)."""
    if st.over:
        return _game_over(st)
    if flag is not None:
        lines = [Text(g["nl"], g["en"]) for g in flag.get("guidance") or []]
        text = (
            Text(
                "; ".join(x.nl for x in lines),
                "; ".join(x.en for x in lines),
            )
            if lines
            else Text(flag["reason"]["nl"], flag["reason"]["en"])
        )
        return Instruction(
            _capital(text), "flag", None, tuple(flag.get("labels") or ()), "fix", URGENT
        )
    seat = st.seat
    if seat is None:
        return None
    pointer = "sim" if mode == "sim" else "run"
    if sim is not None and sim.waiting:
        giver = sim.waiting[0]
        partner = sim.partner(giver)
        who = colour(partner) if partner is not None else Text("je partner", "your partner")
        return Instruction(
            Text(
                f"Kies een kaart voor je partner ({who.nl})",
                f"Choose a card for your partner ({who.en})",
            ),
            seat=giver,
        )
    if st.ambiguous or st.ask:
        reason = next(
            (d.get("reason") for d in reversed(decisions) if d.get("type") == "ambiguous"), None
        )
        text = (
            Text(reason["nl"], reason["en"])
            if isinstance(reason, Mapping)
            else Text(
                "Meerdere zetten mogelijk: pak de pion(nen) van de zet die je bedoelt",
                "More than one move fits: lift the pawn(s) of the move you meant",
            )
        )
        return Instruction(_capital(text), seat=seat, holes=tuple(sorted(st.ask)), tone="fix")
    if sim is not None and sim.is_bot(seat):
        who = colour(seat)
        if st.card is not None:
            label = card_label(st.card)
            return Instruction(
                Text(f"{who.nl} (bot) speelt {label.nl}", f"{who.en} (bot) plays {label.en}"),
                seat=seat,
                tone="wait",
            )
        return Instruction(
            Text(f"{who.nl} (bot) denkt na…", f"{who.en} (bot) is thinking…"),
            seat=seat,
            tone="wait",
        )
    lit = st.config.hints != "off"
    if st.card is None:
        if hand is not None and hand.get("active") and not hand.get("playable"):
            return Instruction(NO_CARD, seat=seat)
        if mode != "sim" and not st.config.reader:
            return Instruction(Text("Zet een pion", "Move a pawn"), seat=seat)
        return Instruction(_capital(_TAP_CARD[pointer]), seat=seat)
    played = _played(st.card)
    if held:
        return _in_hand(st, pointer, held, played, lit)
    if split is not None:
        left = int(split["left"])
        steps = Text(
            f"nog {left} {'stap' if left == 1 else 'stappen'}",
            f"{left} {'step' if left == 1 else 'steps'} left",
        )
        return Instruction(
            Text(
                f"{played.nl} — {steps.nl}: {_LIT_PAWN[pointer].nl}",
                f"{played.en}: {steps.en}, {_LIT_PAWN[pointer].en}",
            ),
            seat=seat,
            holes=tuple(split.get("sources") or ()),
        )
    if settling:  # the pawn is down: the referee waits for the board to settle
        return Instruction(CHECKING, seat=seat, holes=tuple(settling), tone="wait")
    return Instruction(_then(played, (_LIT_PAWN if lit else _ANY_PAWN)[pointer]), seat=seat)


def _game_over(st: RefereeState) -> Instruction:
    """The game is over: who won, and what next (the line was blank, issue 40, 19)."""
    if st.winner:
        names = [colour(s) for s in st.winner]
        nl = " en ".join(c.nl for c in names)
        en = " and ".join(c.en for c in names)
        won = Text(
            f"{nl.capitalize()} {'winnen' if len(names) > 1 else 'wint'}",
            f"{en.capitalize()} {'win' if len(names) > 1 else 'wins'}",
        )
    else:
        won = Text("Het spel is afgelopen", "The game is over")
    return Instruction(
        Text(
            f"{won.nl}! Begin een nieuw spel met 'Nieuw spel'.",
            f"{won.en}! Start a new game with 'New game'.",
        ),
        tone="wait",
    )


def _in_hand(
    st: RefereeState, pointer: str, held: Sequence[int | None], played: Text, lit: bool
) -> Instruction:
    """Pawns in hand: the victim of a capture goes home, the second pawn of a jack goes
    where the first left, any other pawn on a lit hole."""
    seat = st.seat
    victim_nests = {nest_seat(h) for h, role in st.leds.items() if role == "victim"}
    knocked = knocked_off(st.worlds, st.sensed)  # a victim, own colour too (issue 40, 5)
    victim = held[0] if len(held) == 1 else None
    if victim is not None and (
        (victim != seat and victim in victim_nests) or (knocked == [victim] and st.card)
    ):
        who = colour(victim)
        nest = tuple(sorted(h for h, r in st.leds.items() if r == "victim"))
        return Instruction(
            Text(
                f"Zet de pion van {who.nl} terug in zijn nest" + (" (dat oplicht)" if nest else ""),
                f"Put {who.en}'s pawn back in its nest" + (" (lit)" if nest else ""),
            ),
            seat=seat,
            holes=nest,
        )
    left = jack_hole_left(st, held)
    if left is not None:
        label = card_label("J")
        return Instruction(
            Text(
                f"{label.nl}: zet de tweede pion op {left}",
                f"Jack: put the second pawn on {left}",
            ),
            seat=seat,
            holes=(left,),
        )
    return Instruction(_then(played, (_LIT_HOLE if lit else _ANY_HOLE)[pointer]), seat=seat)


def jack_hole_left(st: RefereeState, held: Sequence[int | None]) -> str | None:
    """In the middle of a jack swap (both pawns lifted, one put down where the other
    stood): the hole the first left, where the second goes."""
    # The holes touched this turn (st.lifted keeps only the mover's first lift since
    # the referee follows the hands, issue 22).
    if st.card != "J" or len(held) != 1 or len(st.touched) < 2:
        return None
    track_now, nests_now = board_sig(st.sensed, st.pos.seats)
    track_pos, nests_pos = pos_sig(st.pos)
    track = sorted(h for h in st.touched if h in track_pos)
    empty = [h for h in track if h not in track_now]
    down = [h for h in track if h in track_now]
    if len(empty) == 1 and down and nests_now == nests_pos and track_now | {empty[0]} == track_pos:
        return empty[0]
    return None


def setup_instruction(setup: Mapping[str, Any]) -> Instruction:
    """The set-up mode's instruction (docs/setup.md; ``setup_view``): the pawn to move or
    the question, with the holes it lights; a pawn put where it does not belong first."""
    text = Text(setup["text"]["nl"], setup["text"]["en"])
    tone: Tone = "fix" if setup["errors"] or setup["kind"] == "ask" else "do"
    return Instruction(text, "setup", setup["seat"], tuple(setup["holes"]), tone, MODE)


def hold_instruction(st: RefereeState) -> Instruction | None:
    """Why the table waits while a seat far away plays (the referee's hold, web/away.py,
    docs/remote.md), before the game's own step (which would ask that seat to play here)."""
    if st.hold is None or st.over:
        return None
    return Instruction(_capital(st.hold), "remote", None, (), "wait", MODE)
