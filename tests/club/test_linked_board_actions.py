"""What one linked board tells the other of its referee's decisions
(club/linked_board.py ``action_of``): the moves, the hands shown and the moves taken
back; a second card taken back is no move and is not sent (the other board would take
back its last real move)."""

from __future__ import annotations

from keezbord.host.club.linked_board import action_of


def test_a_move_taken_back_is_sent_a_second_card_taken_back_is_not() -> None:
    move = {"type": "undo", "ok": True, "seat": 0, "move": "K 0:N-S"}
    card = {"type": "undo", "ok": True, "seat": 1, "card": "A"}
    assert action_of(move, ()) == {"kind": "undo"}
    assert action_of(card, ()) is None
    assert action_of({"type": "undo", "ok": False, "move": "K 0:N-S"}, ()) is None


def test_moves_and_hands_shown_are_sent_and_flags_are_not() -> None:
    assert action_of({"type": "move", "seat": 2, "move": "A 2:N-S"}, ()) == {
        "kind": "move", "seat": 2, "move": "A 2:N-S",
    }  # fmt: skip
    shown = action_of({"type": "discard", "ok": True, "seat": 1}, ("4", "9"))
    assert shown == {"kind": "discard", "seat": 1, "cards": ["4", "9"]}
    second = {"type": "second_card", "seat": 1, "cards": ["K", "A"]}
    assert action_of(second, ()) is None
