"""Issue 26 part 1: the set-up mode. Random target positions reached from random boards
by the simulated person who follows only the lights and the instruction line
(sim/follower.py, led_person.py's set-up front end); a pawn of the wrong colour caught
where the touches show it; two pawns exchanged asked about, both lit; the game begins
from the target."""

from __future__ import annotations

import random

import pytest

from keezbord.engine.position import Position
from keezbord.host.events import CardTap, HoleEvent
from keezbord.host.referee import (
    Decision,
    RefereeState,
    TraceError,
    arranged_setup,
    begin,
    board_of,
    colours,
    nest_seat,
    new_game,
    setup_from_dict,
    setup_view,
    step,
)
from keezbord.host.sim.follower import Mistakes
from keezbord.host.sim.setting_up import carry_out, mid_game, person_for, simulated_set_up


def _board_with_nests(pos: Position, rng: random.Random) -> frozenset[str]:
    """``pos``'s board with its nest pawns in any of their nest's holes."""
    b = {h for h in board_of(pos) if h[0] != "N"}
    for s in range(pos.seats):
        n = sum(1 for loc in pos.pawns[s] if loc == -2)
        b |= set(rng.sample([f"N{s}.{k}" for k in range(1, 5)], n))
    return frozenset(b)


def _case(i: int) -> tuple[Position, Position, frozenset[str], bool, random.Random]:
    rng = random.Random(i)
    seats = rng.choice([2, 3, 4, 6, 8])
    target = mid_game(seats, i)
    start = mid_game(seats, i + 100000) if rng.random() < 0.6 else Position.start(seats)
    return target, start.replace(turn=0), _board_with_nests(start, rng), rng.random() < 0.7, rng


def _set_up(i: int, mistakes: Mistakes) -> tuple[bool, int, list[str], bool]:
    target, start, board, known, rng = _case(i)
    state, _ = new_game(
        target, target.seats - 1, arrange=True, board=board, believed=start if known else None
    )
    person = person_for(start, board, rng, mistakes=mistakes)
    run = carry_out(state, person, 0)
    truth = {h: s for h, s in person.board.items() if h[0] != "N"}
    nests = all(nest_seat(h) == s for h, s in person.board.items() if h[0] == "N")
    counts = [sum(1 for h in person.board if h.startswith(f"N{s}.")) for s in range(target.seats)]
    want = [sum(1 for loc in target.pawns[s] if loc == -2) for s in range(target.seats)]
    right = truth == colours(target) and nests and counts == want
    return run.done, run.instructions, person.made, right


def test_random_targets_from_random_boards_are_set_up_by_a_person_following_the_lights() -> None:
    instructions = []
    for i in range(40):
        done, n, made, right = _set_up(i, Mistakes())
        assert made == []
        assert done and right, i  # the mode ended, and the real board is the target
        instructions.append(n)
    assert max(instructions) < 100


def test_a_person_who_makes_mistakes_still_ends_with_the_target_on_the_board() -> None:
    mistakes = Mistakes(wrong_colour=0.1, wrong_hole=0.1, two_at_once=0.1, exchange=0.05)
    made = 0
    for i in range(40):
        done, _, m, right = _set_up(i, mistakes)
        made += len(m)
        assert done and right, (i, m)
    assert made > 20  # the mistakes were made


def _start4() -> tuple[Position, RefereeState, list[Decision]]:
    target = Position.from_text("NNNT5/NNNN/NNNN/NNNN 0 standard")
    state, effects = new_game(target, 3, arrange=True)
    return target, state, [e for e in effects if isinstance(e, Decision)]


def _feed(state: RefereeState, *evs: HoleEvent) -> tuple[RefereeState, list[Decision]]:
    out: list[Decision] = []
    for ev in evs:
        state, effects = step(state, ev)
        out += [e for e in effects if isinstance(e, Decision)]
    return state, out


def test_one_instruction_at_a_time_its_holes_lit_in_both_languages() -> None:
    _, state, said = _start4()
    assert [d.type for d in said] == ["setup_task"]
    assert said[0].reason is not None
    assert said[0].reason.en == "Put a red pawn from red's nest on T5"
    assert said[0].reason.nl == "Zet een rode pion uit het nest van rood op T5"
    assert state.leds == {
        "N0.1": "source",
        "N0.2": "source",
        "N0.3": "source",
        "N0.4": "source",
    } | {"T5": "target"}
    assert state.arranging is not None and setup_view(state.arranging)["left"] == 1


def test_a_card_before_the_board_is_set_up_is_refused_and_the_game_begins_after() -> None:
    target, state, _ = _start4()
    state, effects = step(state, CardTap(100, "K"))
    assert [e.type for e in effects if isinstance(e, Decision)] == ["card_rejected"]
    state, said = _feed(state, HoleEvent(1000, "lift", "N0.1"), HoleEvent(1500, "place", "T5"))
    assert [d.type for d in said] == ["setup_done", "turn"]
    assert state.arranging is None and state.pos == target.replace(turn=0)
    state, effects = step(state, CardTap(3000, "5"))  # the game is on: a card is taken
    assert "card_rejected" not in [e.type for e in effects if isinstance(e, Decision)]


def test_a_pawn_of_the_wrong_colour_is_caught_where_the_touches_show_it() -> None:
    _, state, _ = _start4()
    # Blue's pawn (from blue's nest: its colour is known) put where red's goes.
    state, said = _feed(state, HoleEvent(1000, "lift", "N1.1"), HoleEvent(1500, "place", "T5"))
    wrong = [d for d in said if d.type == "setup_wrong"]
    assert wrong and wrong[0].data == {"hole": "T5", "seat": 1}
    assert wrong[0].reason is not None and "blue" in wrong[0].reason.en
    assert state.leds.get("T5") == "error"  # the pawn to take away, lit as an error
    assert state.arranging is not None  # not done: the board shows T5 full, but blue
    # Blue back to its nest, red on T5: done.
    state, said = _feed(
        state,
        HoleEvent(3000, "lift", "T5"),
        HoleEvent(3500, "place", "N1.1"),
        HoleEvent(5000, "lift", "N0.2"),
        HoleEvent(5500, "place", "T5"),
    )
    assert "setup_done" in [d.type for d in said]


def test_two_pawns_of_different_colours_in_hand_at_once_are_asked_about_both_lit() -> None:
    target = Position.from_text("NNNT5/NNNT9/NNNN/NNNN 0 standard")
    believed = Position.from_text("NNNT9/NNNT5/NNNN/NNNN 0 standard")
    state, _ = new_game(target, 3, arrange=True, believed=believed)
    # Both lifted at once, put down on each other's hole: the switches cannot tell
    # whether they were exchanged or put back.
    state, said = _feed(
        state,
        HoleEvent(1000, "lift", "T5"),
        HoleEvent(1200, "lift", "T9"),
        HoleEvent(2000, "place", "T5"),
        HoleEvent(2400, "place", "T9"),
    )
    ask = [d for d in said if d.type == "setup_task" and d.data["kind"] == "ask"]
    assert ask and set(ask[-1].data["holes"]) == {"T5", "T9"}
    assert state.leds == {"T5": "source", "T9": "source"}
    assert state.arranging is not None
    seat = setup_view(state.arranging)["seat"]
    # They were exchanged: red now stands on T5, blue on T9 (the target).
    red_on = {0: "T5", 1: "T9"}[seat]
    # The person lifts the pawn of the colour asked and puts it back.
    state, said = _feed(state, HoleEvent(4000, "lift", red_on), HoleEvent(4400, "place", red_on))
    assert "setup_done" in [d.type for d in said]


def test_the_setup_line_begins_in_the_set_up_mode_and_replays_the_same() -> None:
    target = mid_game(4, 7)
    raw = arranged_setup({"type": "setup", "seats": 4, "hints": "targets"}, target)
    assert raw["position"] == target.to_text() and raw["arrange"] is True
    evs = simulated_set_up(raw, 3)
    state, _ = begin(setup_from_dict(raw))
    said: list[str] = []
    for ev in evs:
        state, effects = step(state, ev)
        said += [e.type for e in effects if isinstance(e, Decision)]
    assert said.count("setup_done") == 1 and state.arranging is None
    assert state.pos == target.replace(turn=state.pos.turn)


@pytest.mark.parametrize(
    ("arrange", "words"),
    [(3, "'arrange' must be"), ("NNNN/NNNN 0 standard", "another board"), ("xx", "position text")],
)
def test_a_bad_arrange_field_is_a_trace_error(arrange: object, words: str) -> None:
    raw = {"type": "setup", "seats": 4, "arrange": arrange}
    with pytest.raises((TraceError, ValueError), match=words):
        setup_from_dict(raw)


def test_a_bad_board_field_is_a_trace_error() -> None:
    for board in (["T5", "T5"], ["Z9"], "T5"):
        with pytest.raises(TraceError, match="'board'"):
            setup_from_dict({"type": "setup", "seats": 4, "arrange": True, "board": board})
