"""RULES.md, Capture, with ``capture_partner = false`` (keezspel): a partner's pawn is any
pawn of the partner's seat, also while the player moves the partner's pawns (issue 11,
item 16). Landing one partner pawn on another is illegal, also inside a 7 split."""

from __future__ import annotations

from keezbord.engine.movegen import successors
from keezbord.engine.position import Position


def pos(profile: str, own: list[str], partner: list[str]) -> Position:
    return Position.from_dict(
        {"seats": 4, "profile": profile, "turn": 0, "pawns": [own, ["N"] * 4, partner, ["N"] * 4]}
    )


def moves(p: Position, card: str) -> set[str]:
    return {m.text(p.topology) for m, _ in successors(p, card)}


HOME = ["H1", "H2", "H3", "H4"]


def test_partner_pawn_may_not_land_on_another_partner_pawn() -> None:
    p = pos("keezspel", HOME, ["T40", "T45", "N", "N"])
    assert moves(p, "5") == {"5 2:T45-T50"}
    # The standard profile captures any colour: the same move is legal there.
    assert "5 2:T40-T45" in moves(pos("standard", HOME, ["T40", "T45", "N", "N"]), "5")


def test_partner_pawns_backward_onto_a_partner_pawn() -> None:
    p = pos("keezspel", HOME, ["T40", "T36", "N", "N"])
    assert "4 2:T40-T36" not in moves(p, "4")
    assert "4 2:T40-T36" in moves(pos("standard", HOME, ["T40", "T36", "N", "N"]), "4")


def test_inside_a_seven_after_the_last_own_pawn_comes_home() -> None:
    p = pos("keezspel", ["T62", "H2", "H3", "H4"], ["T40", "T44", "N", "N"])
    got = moves(p, "7")
    assert "7 0:T62-H1 2:T40-T44" not in got
    assert "7 0:T62-H1 2:T44-T48" in got
    std = moves(pos("standard", ["T62", "H2", "H3", "H4"], ["T40", "T44", "N", "N"]), "7")
    assert "7 0:T62-H1 2:T40-T44" in std


def test_own_pawns_still_may_not_capture_the_partner() -> None:
    p = pos("keezspel", ["T35", "N", "N", "N"], ["T40", "N", "N", "N"])
    assert "5 0:T35-T40" not in moves(p, "5")
    # And a partner's pawn played by the player may land on an opponent's pawn.
    q = Position.from_dict(
        {
            "seats": 4,
            "profile": "keezspel",
            "turn": 0,
            "pawns": [HOME, ["T45", "N", "N", "N"], ["T40", "N", "N", "N"], ["N"] * 4],
        }
    )
    assert "5 2:T40-T45" in moves(q, "5")
