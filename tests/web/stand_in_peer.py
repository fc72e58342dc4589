"""A stand-in for a linked board (club/linked_board.py, web/away.py's ``Peer``) that
answers only whether it is in step: the hub's tests flip it (the real one, over a real
Mosquitto: tests/club/test_linked_e2e.py)."""

from __future__ import annotations

from typing import Any

from keezbord.engine.text import Text


class StandInPeer:
    host = True

    def __init__(self, ok: bool = False) -> None:
        self.ok = ok

    def in_step(self) -> bool:
        return self.ok

    def view(self) -> dict[str, Any]:
        return {"in_step": self.ok}

    def gave(self, seat: int, card: str) -> None:
        pass

    def new_game(self, msg: Any) -> Text | None:
        return None
