"""A flagged board put right by the lights: a capture undone by a person who follows only
the LEDs (host/sim/led_person.py) ends, and a flag raised because the table was held
says why the board is wrong once the hold is over (lit.py, flags.py, colour_fix.py).

Found by a linked game that stalled in the suite: a capture made at the table while the
link was out of step was flagged "waiting for the other board"; undone one pawn at a
time, the yellow pawn lifted from its nest was lit back onto the red pawn's hole, and the
flag kept saying "waiting" after the boards were in step."""

from __future__ import annotations

import random

from led_table import WAIT, Table, every_move, positions

from keezbord.engine.movegen import apply, successor_positions
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent
from keezbord.host.referee import Hold, Lit
from keezbord.host.referee.recognize import board_sig, pos_sig
from keezbord.host.sim.led_person import Held
from keezbord.host.sim.physical import events_for_move

CARDS = ("2", "3", "5", "6", "8", "9", "10", "Q", "K")  # one-pawn cards, none a 4 or 7
TOUCHES = 30  # a flag put right by the lights takes a handful: more is a loop


def made(table: Table, pos: Position, move: Move, seed: int) -> None:
    """``move`` made on the board by hand, as the simulated people make it."""
    after = apply(pos, move.card, move)
    for ev in events_for_move(pos, move, after, random.Random(seed), 0, table.state.sensed):
        if isinstance(ev, HoleEvent):
            table.touch(ev.action, ev.hole)


def captures(pos: Position) -> list[Move]:
    """The moves that send another seat's pawn to its nest."""
    out = []
    for move in every_move(pos):
        if "<>" in str(move):
            continue  # a jack swaps: nobody goes to a nest
        after = apply(pos, move.card, move)
        if any(after.pawns[s] != pos.pawns[s] for s in range(pos.seats) if s != pos.turn):
            out.append(move)
    return out


def put_right(table: Table) -> int:
    """The person follows the lights, the board let rest whenever they ask nothing; the
    touches made."""
    touches = table.follow(TOUCHES)
    table.rest()
    return touches + table.follow(TOUCHES)


def test_a_capture_undone_by_the_lights_ends_as_before() -> None:
    checked = 0
    for pos in positions(40, 11):
        for move in captures(pos)[:3]:
            for held in (True, False):
                table = Table(pos)
                if held:  # the move's own card, the table held
                    table.feed(CardTap(1, move.card))
                    table.feed(Hold(2, WAIT))
                else:  # a card that cannot make it
                    after = apply(pos, move.card, move)
                    card = next(c for c in CARDS if after not in successor_positions(pos, c))
                    table.feed(CardTap(1, card))
                made(table, pos, move, checked)
                table.rest()
                assert table.state.flag is not None, (str(move), held)
                put_right(table)  # raises after TOUCHES: the lights went round in a circle
                st = table.state
                assert st.flag is None, (str(move), held, st.flag)
                # Put back, or right as a legal move of the card (the lights lead to the
                # nearest), or, where the pawns were moved two in hand, the referee asks
                # which pawn stands where (a person who sees colours answers; this one
                # cannot).
                as_before = board_sig(st.sensed, st.pos.seats) == pos_sig(st.pos)
                asked = table.kinds("ambiguous")
                assert as_before or asked, (str(move), held, sorted(st.sensed))
                if held:  # nothing counts while the table is held
                    assert st.pos == pos and not table.kinds("move")
                checked += 1
    assert checked >= 40


def _red_took_yellow() -> tuple[Table, Position]:
    """Red's 4 back from its start takes yellow's pawn on T60, made while the table is
    held: flagged, to be undone."""
    pos = Position.from_text("NST37T63/NNNN/NNT26T60/NNNT42 0 standard")
    move = next(m for m in every_move(pos) if str(m) == "4 0:S-T60")
    table = Table(pos)
    table.feed(CardTap(1, "4"))
    table.feed(Hold(2, WAIT))
    made(table, pos, move, 2)
    table.rest()
    flag = table.state.flag
    assert flag is not None and flag.pairs == (("T60", "T0"), ("N2.3", "T60"))
    return table, pos


def lights(table: Table) -> dict[str, str]:
    return {h: r for h, r in table.state.leds.items() if r in ("error", "restore")}


def test_a_capture_is_undone_one_pawn_at_a_time_in_colours() -> None:
    """Yellow's pawn cannot go back to T60 before red's leaves it: lit first, only red's
    way back; with red's pawn in hand, only where it goes (presence alone lit both
    pawns at once, and a person who lifted both could not say which was which)."""
    table, pos = _red_took_yellow()
    assert lights(table) == {"T60": "error", "T0": "restore"}
    assert table.follow_once()
    assert [h.hole for h in table.hand] == ["T60"]
    assert lights(table) == {"T0": "restore"}
    assert put_right(table) == 3  # red's pawn on T0; yellow's lifted and put on T60
    assert board_sig(table.state.sensed, 4) == pos_sig(pos) and table.state.flag is None
    assert not table.kinds("ambiguous")


def test_the_wrong_pawn_lifted_first_is_lit_back_where_it_came_from() -> None:
    """Yellow's pawn lifted off its nest first, while red's still stands on T60: it goes
    back to the nest first (presence alone lit T0, red's hole, for it, then T0 again
    for it once lifted from there, without end)."""
    table, pos = _red_took_yellow()
    table.hand.append(Held("N2.3", "error"))
    table.touch("lift", "N2.3")
    assert lights(table) == {"N2.3": "restore"}
    assert put_right(table) == 5  # yellow's back; red's to T0; yellow's to T60
    assert board_sig(table.state.sensed, 4) == pos_sig(pos) and table.state.flag is None
    assert not table.kinds("ambiguous")


def test_a_board_flagged_while_held_is_flagged_again_with_its_own_reason() -> None:
    checked = 0
    for pos in positions(6, 3):
        card = next(c for c in CARDS if successor_positions(pos, c))
        legal = set(successor_positions(pos, card))  # the boards the card can make
        wrong = next((m for m in every_move(pos) if apply(pos, m.card, m) not in legal), None)
        if wrong is None:
            continue
        table = Table(pos)
        table.feed(CardTap(1, card))
        table.feed(Hold(2, WAIT))
        made(table, pos, wrong, 0)
        table.rest()
        assert [d.reason for d in table.kinds("illegal")] == [WAIT]
        table.feed(Hold(table.t + 1, None))
        table.rest()
        flags = table.kinds("illegal")
        assert len(flags) == 2 and flags[1].reason not in (None, WAIT), flags
        assert table.state.flag is not None and table.state.flag.reason == flags[1].reason
        put_right(table)
        assert table.state.flag is None
        assert board_sig(table.state.sensed, pos.seats) == pos_sig(pos)
        checked += 1
    assert checked >= 4


def test_a_move_lit_while_a_flag_for_the_hold_stands_says_so() -> None:
    """The linked board's move comes while the board is flagged for the hold: the flag
    now says which move is lit, and the lights lead to it."""
    table, pos = _red_took_yellow()
    lit = next(m for m in every_move(pos) if m.card == "4" and str(m) != "4 0:S-T60")
    table.feed(Lit(table.t + 1, str(lit)))
    table.rest()
    flags = table.kinds("illegal")
    assert [f.reason for f in flags][:1] == [WAIT] and len(flags) == 2
    assert flags[1].reason is not None and "lit move" in flags[1].reason.en
    assert table.state.flag is not None and table.state.flag.reason == flags[1].reason
    put_right(table)
    assert [d.data["move"] for d in table.kinds("move")] == [str(lit)]


def test_the_move_made_while_held_counts_once_the_hold_is_over() -> None:
    for pos in positions(4, 5):
        for move in every_move(pos)[:8]:
            table = Table(pos)
            table.feed(CardTap(1, move.card))
            table.feed(Hold(2, WAIT))
            made(table, pos, move, 1)
            table.rest()
            assert table.state.flag is not None
            table.feed(Hold(table.t + 1, None))
            table.rest()
            assert [d.data["move"] for d in table.kinds("move")] == [str(move)]
            assert table.state.flag is None
