"""Issue 11, item 15 on the page's socket: only the control token may overrule; the
overruled move shows in the history with the referee's reason and in the export."""

from __future__ import annotations

import warnings
from pathlib import Path

with warnings.catch_warnings():  # starlette's note about httpx, at import time
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import answer, hello, run_app, until
from web_helpers import ws_path

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.events import CardTap


def test_overrule_needs_the_token_and_shows_in_history_and_export(tmp_path: Path) -> None:
    board = FakeBoard()
    with TestClient(run_app(tmp_path / "b.sqlite", board)) as c:
        with c.websocket_connect("/ws") as ws:
            hello(ws)
            ws.send_json({"type": "overrule", "reason": "x"})
            assert answer(ws)["text"]["en"].startswith("this needs the referee's link")
        with c.websocket_connect(ws_path()) as ws:
            hello(ws)
            board.put(CardTap(0, "K"))
            until(ws, lambda s: s["card"] == "K")
            board.lift("N0.1")
            board.place("T5")  # a K brings the pawn to T0: flagged
            until(ws, lambda s: s["flag"] is not None)
            ws.send_json({"type": "overrule", "reason": "  "})
            assert "reason" in answer(ws)["text"]["en"]
            ws.send_json({"type": "overrule", "reason": "house rule: bring out on T5"})
            s = until(ws, lambda s: bool(s["history"]))
            assert s["history"][0]["move"] == "K 0:N-T5"
            assert s["history"][0]["overruled"] == "house rule: bring out on T5"
            assert s["flag"] is None and s["turn"] == 1
        moves = c.get("/api/export/moves").text
        assert "K 0:N-T5" in moves and "overruled: house rule" in moves
