"""A switch bouncing (a lift and a place within milliseconds, or a name the board does not
have) is never judged and never ends a move or a turn."""

from __future__ import annotations

from referee_traces import MID, ev, flags, move, no_flags, play, position, setup

from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent, Tick
from keezbord.host.referee.state import Decision, Input
from keezbord.host.referee.step import new_game, step


def test_bounce_on_a_third_pawn_during_a_swap() -> None:
    r = play(
        setup(),
        ev(1000, "card", "J"),
        ev(1100, "lift", "T5"),
        ev(1200, "lift", "T10"),
        ev(1300, "lift", "T20"),
        ev(1302, "place", "T20"),
        ev(1400, "place", "T5"),
        ev(1500, "place", "T10"),
    )
    assert r.moves == ["J 0:T5<>1:T10"]
    no_flags(r)


def test_a_bounce_never_closes_the_waiting_turn() -> None:
    # Without a reader a bounce on another player's pawn is not the next player acting.
    r = play(
        setup(card_reader=False),
        move(1000, "T5", "T8"),
        ev(1500, "lift", "T10"),
        ev(1502, "place", "T10"),
        move(2000, "T20", "T24"),
    )
    assert r.moves == ["7 0:T5-T8 0:T20-T24"]
    no_flags(r)


def test_unknown_switch_name_is_noise_not_an_event() -> None:
    # A closing lift bounces back, with a switch name the board does not have between:
    # that name is no event (a trace may not hold it; a driver or the fuzzer's noise may
    # feed it), so it does not close the move at the lift either.
    pos = Position.from_dict(MID)
    state, _ = new_game(pos, 3)
    moves = []
    events: list[Input] = [
        CardTap(1000, "3"),
        HoleEvent(1100, "lift", "T5"),
        HoleEvent(1300, "place", "T8"),
        HoleEvent(1500, "lift", "T10"),
        HoleEvent(1501, "lift", "T999"),
        HoleEvent(1503, "place", "T10"),
        Tick(3000),
    ]
    for e in events:
        state, effects = step(state, e)
        moves += [d for d in effects if isinstance(d, Decision) and d.type == "move"]
    assert [(d.t, d.data["move"]) for d in moves] == [(1800, "3 0:T5-T8")]


# Seat 0 on T12, seat 2 on T1; 3 seats (reiseditie), no card reader.
SWAP_BOUNCE = position(
    0, ["N", "N", "T12", "H2"], ["N"] * 4, ["N", "N", "T1", "H3"], seats=3, profile="reiseditie"
)


def test_two_switches_bouncing_at_once_after_a_swap_keep_the_swap() -> None:
    # Seat 0's 10 (T12-T22), then seat 1's jack swapping seat 2's T1 with seat 0's T22
    # within the settle time, both in hand; then both swapped pawns' switches bounce in the
    # same two milliseconds (the table knocked), then seat 2's ace onto its start. Without
    # the bounces the three moves are read. With them, the first bounce's lift closed
    # the swap (seat 1's swap of two other seats' pawns: a lift of either may close it)
    # and the next one was read as seat 2's touch: the swap was dropped (the 20,000-game
    # run's game 615195). No hand lifts a pawn within BOUNCE_MS of the board changing.
    head = [
        ev(1000, "lift", "T12"),
        ev(1340, "place", "T22"),
        ev(1732, "lift", "T22"),
        ev(1960, "lift", "T1"),
        ev(2191, "place", "T1"),
        ev(2225, "place", "T22"),
    ]
    tail = [ev(2591, "lift", "N2.1"), ev(2831, "place", "T32"), ev(8000, "tick")]
    want = ["10 0:T12-T22", "J 2:T1<>0:T22", "A 2:N-S"]
    base = setup(SWAP_BOUNCE, card_reader=False)
    assert play(base, *head, *tail).moves == want
    bounces = [
        ev(2226, "lift", "T22"),
        ev(2226, "lift", "T1"),
        ev(2227, "place", "T1"),
        ev(2227, "place", "T22"),
    ]
    r = play(base, *head, *bounces, *tail)
    assert r.moves == want
    assert flags(r) == []
