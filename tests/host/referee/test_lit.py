"""Moves chosen far away (issue 28): the referee's ``Lit`` and ``Hold`` (lit.py).

The simulated person of host/sim/led_person.py (``next_touch``), who sees only the LEDs
and the board, carries out lit moves of random positions (every card's moves); the referee accepts
exactly the lit move, flags any other, and holds the table while told to."""

from __future__ import annotations

import random

import pytest
from led_table import WAIT, Table, every_move, positions

from keezbord.engine.movegen import successor_positions
from keezbord.engine.notation import Move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap
from keezbord.host.referee import Hold, Lit, RefereeState, input_from_dict, input_to_dict
from keezbord.host.referee.recognize import board_of


def carry_out(pos: Position, move: Move) -> Table:
    table = Table(pos)
    table.feed(Lit(1, str(move)))
    assert table.kinds("lit")[-1].data["ok"], table.kinds("lit")
    table.follow()
    table.rest()
    return table


def test_the_led_person_carries_out_every_lit_move_of_random_positions() -> None:
    rng = random.Random(28)
    done = 0
    for pos in positions(6, 28):
        moves = every_move(pos)
        for move in rng.sample(moves, min(12, len(moves))):
            table = carry_out(pos, move)
            accepted = table.kinds("move")
            assert [d.data["move"] for d in accepted] == [str(move)], (
                str(move),
                table.decisions,
            )
            assert not table.kinds("illegal")
            assert table.state.lit is None and table.state.pos.turn != pos.turn
            done += 1
    assert done >= 40


def test_a_jack_lights_both_pawns_then_both_holes() -> None:
    for pos in positions(30, 5):
        jacks = [m for m in successor_positions(pos, "J").values() if "<>" in str(m)]
        if jacks:
            break
    else:
        pytest.skip("no jack swap in these positions")  # pragma: no cover
    move = jacks[0]
    table = Table(pos)
    table.feed(Lit(1, str(move)))
    a, b = (p.split(":")[1] for p in str(move).split()[1].split("<>"))
    assert table.state.leds[a] == table.state.leds[b] == "source"
    table.touch("lift", a)
    assert table.state.leds[b] == "source"
    table.touch("lift", b)
    assert table.state.leds[a] == table.state.leds[b] == "target"
    table.touch("place", a)
    table.touch("place", b)
    table.rest()
    assert [d.data["move"] for d in table.kinds("move")] == [str(move)]


def _sevens(pos: Position) -> list[Move]:
    return [m for m in successor_positions(pos, "7").values() if len(m.parts) == 2]


def test_a_seven_lights_one_part_at_a_time_in_the_chosen_order() -> None:
    pos, move = next((p, s[0]) for p in positions(40, 7) if (s := _sevens(p)))
    table = Table(pos)
    table.feed(Lit(1, str(move)))
    src1 = [h for h, r in table.state.leds.items() if r == "source"]
    assert len(src1) == 1
    table.follow()
    assert table.state.lit_part == 1  # the first part on the board: the second lit
    src2 = [h for h, r in table.state.leds.items() if r == "source"]
    assert len(src2) == 1 and src2 != src1
    table.follow()
    table.rest()
    assert [d.data["move"] for d in table.kinds("move")] == [str(move)]


def test_another_move_is_flagged_against_the_lit_one_and_put_right() -> None:
    for pos in positions(20, 9):
        moves = successor_positions(pos, "5")
        if len(moves) >= 2:
            break
    lit, other = list(moves.values())[:2]
    table = Table(pos)
    table.feed(Lit(1, str(lit)))
    # The person carries out the other legal move of the same card.
    before = board_of(pos)
    after = board_of(moves_after(pos, other))
    for h in sorted(before - after):
        table.touch("lift", h)
    for h in sorted(after - before):
        table.touch("place", h)
    table.rest()
    illegal = table.kinds("illegal")
    assert len(illegal) == 1 and not table.kinds("move")
    assert illegal[0].reason is not None and "not the lit move" in illegal[0].reason.en
    assert "niet de zet die oplicht" in illegal[0].reason.nl
    assert set(table.state.leds.values()) & {"error", "restore"}
    # Guided by the error and restore LEDs, then by the lit move's LEDs.
    table.hand = []
    table.follow(60)
    table.rest()
    assert [d.data["move"] for d in table.kinds("move")] == [str(lit)]
    assert table.kinds("resolved")


def moves_after(pos: Position, move: Move) -> Position:
    from keezbord.engine.movegen import apply

    return apply(pos, move.card, move)


def test_refused_lit_moves_say_why() -> None:
    pos = positions(1, 3)[0]
    legal = every_move(pos)[0]
    table = Table(pos)
    table.feed(Lit(1, "5 0:T99-T3"))
    table.feed(Lit(2, "nonsense"))
    table.feed(Lit(3, str(legal)))
    table.feed(Lit(4, str(legal)))  # a move already lit
    oks = [d.data["ok"] for d in table.kinds("lit")]
    assert oks == [False, False, True, False]
    assert all(d.reason is not None for d in table.kinds("lit"))
    assert "follow the lights" in table.kinds("lit")[2].reason.en  # type: ignore[union-attr]


def test_a_hold_flags_a_move_at_the_table_and_lets_go() -> None:
    pos = positions(1, 4)[0]
    move = every_move(pos)[0]
    table = Table(pos, hints="targets")
    table.feed(Hold(1, WAIT))
    table.feed(CardTap(2, move.card))
    rejected = table.kinds("card_rejected")
    assert rejected and rejected[0].reason == WAIT
    after = board_of(moves_after(pos, move))
    lifted = sorted(board_of(pos) - after)
    placed = sorted(after - board_of(pos))
    for h in lifted:
        table.touch("lift", h)
    for h in placed:
        table.touch("place", h)
    table.rest()
    illegal = table.kinds("illegal")
    assert len(illegal) == 1 and illegal[0].reason == WAIT
    assert set(table.state.leds.values()) & {"error", "restore"}
    for h in placed:
        table.touch("lift", h)
    for h in lifted:
        table.touch("place", h)
    table.rest()
    assert table.kinds("resolved")
    table.feed(Hold(table.t + 1, None))
    holds = [d.data["on"] for d in table.kinds("hold")]
    assert holds == [True, False]
    table.feed(Lit(table.t + 2, str(move)))
    table.follow()
    table.rest()
    assert [d.data["move"] for d in table.kinds("move")] == [str(move)]


def test_lit_and_hold_are_journalled_and_replayed() -> None:
    for ev in (Lit(5, "5 0:T3-T8"), Hold(6, WAIT), Hold(7, None)):
        assert input_from_dict(input_to_dict(ev)) == ev


def test_the_turns_end_and_an_undo_clear_the_lit_move() -> None:
    from keezbord.host.referee import Undo

    pos = positions(1, 6)[0]
    table = carry_out(pos, every_move(pos)[0])
    st: RefereeState = table.state
    assert st.lit is None and st.card is None
    table.feed(Undo(table.t + 1))
    assert table.state.lit is None
