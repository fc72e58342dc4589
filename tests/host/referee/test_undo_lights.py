"""The lights after a move is taken back (an undo): they show how to put it back, at once
and once flagged, with or without a card reader. Without a reader the board of the move
taken back is a legal move's board (every card's moves are expected), so the lights lit
the lifted pawn's targets, as for a move in progress, and the flag named no hole (found
by the puzzles' take-back on a board without a reader)."""

from __future__ import annotations

import pytest

from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.referee import RefereeState, Undo, new_game, step
from keezbord.host.referee.leds import frame
from keezbord.host.referee.state import Config, Decision, Input


def _feed(st: RefereeState, ev: Input, out: list[Decision]) -> RefereeState:
    st, effects = step(st, ev)
    out.extend(e for e in effects if isinstance(e, Decision))
    return st


@pytest.mark.parametrize("reader", [True, False])
def test_a_move_taken_back_lights_only_how_to_put_it_back(reader: bool) -> None:
    pos = Position.from_text("NNNN/NNNT22/NNNN/NNNN 1 standard")
    st, _ = new_game(pos, 0, Config(reader=reader), turn=1)
    out: list[Decision] = []
    events: list[Input] = [CardTap(900, "A")] if reader else []
    events += [HoleEvent(1000, "lift", "T22"), HoleEvent(1300, "place", "T23"), Tick(2500)]
    for ev in events:
        st = _feed(st, ev, out)
    assert [d.data["move"] for d in out if d.type == "move"] == ["A 1:T22-T23"]
    st = _feed(st, Undo(3000), out)
    lit = {"T16": "turn", "T23": "error", "T22": "restore"}
    assert frame(st) == lit  # at once: no targets of a pawn "in hand" from T22
    st = _feed(st, Tick(6000), out)  # at rest, not put back: flagged
    [flag] = [d for d in out if d.type == "illegal"]
    assert flag.data["restore"] == [["T23", "T22"]] and set(flag.data["holes"]) == {"T22", "T23"}
    assert frame(st) == lit
    st = _feed(st, Tick(9000), out)
    assert [d.type for d in out].count("move") == 1  # the move taken back stays back
    back_on: list[Input] = [HoleEvent(9500, "lift", "T23"), HoleEvent(9900, "place", "T22")]
    for ev in (*back_on, Tick(11000)):
        st = _feed(st, ev, out)
    back = frame(st)  # put back: the turn again (without a reader its pawns that can move)
    assert st.flag is None and not {"error", "restore", "target"} & set(back.values())
    assert back["T16"] == "turn" and (back.get("T22") == "source") is not reader
    assert st.pos.pawns == pos.pawns and st.seat == 1
