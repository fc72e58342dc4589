"""Move notation and the position JSON form (FORMATS.md): round trips and refusals."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from engine_helpers import EXAMPLE, board, moves, random_positions

from keezbord.engine.cards import RANKS
from keezbord.engine.movegen import successors
from keezbord.engine.notation import InvalidMoveError, parse_move
from keezbord.engine.position import InvalidPositionError, Position
from keezbord.engine.topology import Topology


def test_notation_round_trip_for_every_generated_move() -> None:
    count = 0
    for pos in random_positions(150, 11):
        for card in RANKS:
            for move, _ in successors(pos, card):
                text = str(move)
                back = parse_move(text, pos.topology)
                assert back == move, text
                assert str(back) == text
                count += 1
    assert count > 1000


def test_notation_examples_of_formats_md() -> None:
    topo = Topology(4)
    for text in (
        "K 0:N-S",
        "7 0:T5-T8 2:T40-T44",
        "J 0:T5<>1:T30",
        "A 0:S-T1",
        "4 0:T3-T63",
        "5 2:T60-H2",
        "10 3:T50-T60",
        "Q 1:T20-T32",
    ):
        assert str(parse_move(text, topo)) == text


def test_four_from_fresh_start_is_written_from_s() -> None:
    assert moves(board(4, {0: ["S"]}), "4") == {"4 0:S-T60"}
    assert moves(board(4, {0: ["S"]}), "A") == {"A 0:S-T1"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "5",
        "Z 0:T5-T10",
        "5 0:T5_T10",
        "5 0:T5-T10 extra",
        "5 9:T5-T10",
        "5 4:T5-T10",
        "5 0:T64-T5",
        "5 0:T5-X3",
        "5 0:T05-T10",
        "5 0:H5-H6",
        "5 0:T5-",
        "J 0:T5<>1:T64",
        "J 0:T5<>4:T30",
        "J 0:T5<>1:H1",
        "5 0:t5-t10",
        "5 0:T-1-T3",
    ],
)
def test_invalid_notation_raises(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(text, Topology(4))


def test_swap_with_leading_zero_is_refused_like_a_step() -> None:
    with pytest.raises(InvalidMoveError):
        parse_move("J 0:T01<>1:T30", Topology(4))


# -- positions ------------------------------------------------------------------------------


def test_position_json_round_trip() -> None:
    for pos in random_positions(200, 12):
        d = pos.to_dict()
        again = Position.from_dict(json.loads(json.dumps(d)))
        assert again == pos
        assert again.to_dict() == d
        full = pos.to_dict(full=True)
        assert Position.from_dict(full) == pos
        assert {"seats", "profile", "turn", "pawns", "segment", "teams"} <= set(full)


def test_pawn_order_is_free_and_printed_canonically() -> None:
    p = Position.from_dict(
        {
            "seats": 4,
            "pawns": [
                ["H3", "T20", "S", "N"],
                ["T33", "N", "N", "N"],
                ["H4", "H3", "T60", "N"],
                ["N"] * 4,
            ],
        }
    )
    assert p.pawn_strings()[0] == ["N", "S", "T20", "H3"]
    assert p.pawn_strings()[2] == ["N", "T60", "H3", "H4"]


def test_optional_fields_default() -> None:
    p = Position.from_dict({"seats": 6, "pawns": [["N"] * 4] * 6})
    assert (p.turn, p.profile.name, p.topology.segment, p.teams) == (0, "standard", 16, "pairs")
    assert Position.from_dict({"seats": 5, "pawns": [["N"] * 4] * 5}).teams == "none"
    q = Position.from_dict(
        {
            "seats": 4,
            "segment": 12,
            "teams": "none",
            "turn": 3,
            "pawns": [["T47", "N", "N", "N"]] + [["N"] * 4] * 3,
        }
    )
    assert (q.topology.ring, q.teams, q.turn) == (48, "none", 3)
    assert q.to_dict()["segment"] == 12 and q.to_dict()["teams"] == "none"


def test_fields_it_does_not_know_are_passed_over() -> None:
    # FORMATS.md: the formats grow only by optional fields; a reader ignores the ones it
    # does not know (another tool's extension, a later version's field).
    extended = {**copy.deepcopy(EXAMPLE), "colour": "red", "hands": [["K"], [], [], []]}
    assert Position.from_dict(extended) == Position.from_dict(EXAMPLE)


def test_a_swap_is_the_same_written_either_way_round() -> None:
    pos = Position.from_dict(
        {"seats": 4, "pawns": [["T5", "N", "N", "N"], ["T60", "N", "N", "N"]] + [["N"] * 4] * 2}
    )
    legal = {m for m, _ in successors(pos, "J")}
    mine, theirs = (parse_move(t, pos.topology) for t in ("J 0:T5<>1:T60", "J 1:T60<>0:T5"))
    assert mine == theirs and hash(mine) == hash(theirs)
    assert mine in legal and theirs in legal
    assert str(theirs) == "J 1:T60<>0:T5"  # written as given
    assert parse_move("J 0:T5<>1:T61", pos.topology) != mine


def _bad(**over: Any) -> dict[str, Any]:
    # A deep copy: EXAMPLE's pawn lists are shared by every test that imports it.
    return {**copy.deepcopy(EXAMPLE), **over}


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (_bad(pawns=[["N"] * 3, ["N"] * 4, ["N"] * 4, ["N"] * 4]), "seat 0"),
        (_bad(pawns=[["N"] * 5, ["N"] * 4, ["N"] * 4, ["N"] * 4]), "seat 0"),
        (_bad(pawns=[["N"] * 4] * 3), "pawns"),
        (_bad(pawns=[["T5", "T5", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "T5"),
        (_bad(pawns=[["T5", "N", "N", "N"], ["T5", "N", "N", "N"], ["N"] * 4, ["N"] * 4]), "T5"),
        (_bad(pawns=[["S", "T0", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "T0"),
        (_bad(pawns=[["N"] * 4, ["S", "N", "N", "N"], ["T16", "N", "N", "N"], ["N"] * 4]), "T16"),
        (_bad(pawns=[["S", "S", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "T0"),
        (_bad(pawns=[["H1", "H1", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "home"),
        (_bad(pawns=[["T64", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "T64"),
        (_bad(pawns=[["H5", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "H5"),
        (_bad(pawns=[["X", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "X"),
        (_bad(pawns=[["t5", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "t5"),
        (_bad(pawns=[["T05", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "T05"),
        (_bad(pawns=[[5, "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]), "5"),
        (_bad(pawns="NNNN"), "pawns"),
        (_bad(profile="dog"), "dog"),
        (_bad(seats=9), "seats"),
        (_bad(seats=1), "seats"),
        (_bad(seats="4"), "seats"),
        (_bad(seats=True), "seats"),
        (_bad(turn=4), "turn"),
        (_bad(turn=-1), "turn"),
        (_bad(turn="0"), "turn"),
        (_bad(teams="trios"), "teams"),
        (_bad(segment=3), "segment"),
        ({"seats": 3, "teams": "pairs", "pawns": [["N"] * 4] * 3}, "pairs"),
        ([1, 2, 3], "object"),
    ],
)
def test_invalid_positions_refused_naming_the_problem(data: Any, needle: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        Position.from_dict(data)
    msg = str(err.value)
    assert needle in msg
    assert "\n" not in msg


def test_topology_hole_names() -> None:
    topo = Topology(4)
    assert len(topo.holes) == 64 + 4 * 8
    assert topo.parse_hole("N3.4").name == "N3.4"
    assert topo.parse_hole("H0.1").name == "H0.1"
    assert [topo.start(s) for s in range(4)] == [0, 16, 32, 48]
    for bad in ("T64", "N4.1", "H0.5", "X1", "T-1"):
        with pytest.raises(ValueError):
            topo.parse_hole(bad)
