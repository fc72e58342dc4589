"""Issue 40, item 19, at the hub (tests/web/sim_walk.py): the simulator has no card
reader, so its flag does not ask for one; the instruction line says who won and what
next once the game is over (it was blank)."""

from __future__ import annotations

from pathlib import Path

from sim_walk import Walk


def test_moving_before_a_card_asks_for_a_card_of_the_hand(tmp_path: Path) -> None:
    w = Walk(tmp_path / "s.sqlite")
    w.lesson("out", 1)
    w.click("N0.1")
    w.click("T0")
    w.wait(4000)
    flag = w.state()["flag"]
    assert flag is not None
    assert flag["reason"] == {
        "nl": "Tik eerst een kaart in je hand aan",
        "en": "Tap a card in your hand first",
    }


def test_the_line_says_who_won_when_the_game_is_over(tmp_path: Path) -> None:
    w = Walk(tmp_path / "s.sqlite")
    w.lesson("game", 2)  # red's last pawn home, yellow home: red and yellow win
    w.send(type="card", card="3")
    w.click("T62")
    w.click("H0.1")
    w.wait(4000)
    s = w.state()
    assert s["winner"] == [0, 2]
    assert s["instruction"]["text"] == {
        "nl": "Rood en geel winnen! Begin een nieuw spel met 'Nieuw spel'.",
        "en": "Red and yellow win! Start a new game with 'New game'.",
    }
