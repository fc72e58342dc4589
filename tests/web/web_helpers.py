"""Helpers shared by the web tests."""

from __future__ import annotations


def opening_seed(seat: int = 0, seats: int = 4) -> tuple[int, str]:
    """A deck seed whose first player is ``seat`` holding a card that brings a pawn out
    (A or K): a game the tests can open with a known move."""
    from keezbord.engine.game import Game

    for seed in range(1000):
        g = Game(seats, "standard", seed)
        if g.table.turn == seat:
            for card in ("K", "A"):
                if card in g.hands[seat]:
                    return seed, card
    raise AssertionError("no opening seed found")
