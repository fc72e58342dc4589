"""A board whose game ended but whose result never reached the outbox (a power cut
between the journal's last move and the outbox, or a report that failed) reports it
when it starts again: the journal is the source of truth (issue 17, exactly once)."""

from __future__ import annotations

import time
from pathlib import Path

from keezbord.host.club.board_club import BoardClub
from keezbord.host.club.board_link import ClubSettings, Outbox, outbox_path
from keezbord.host.club.reporter import outcome
from keezbord.host.club.sim_board import SimBoard
from keezbord.host.session import GameSession
from keezbord.host.web.hub import Hub, HubOptions

MATCH = "t0-r1-tafel-1"


def played_but_not_in_outbox(db: Path) -> int:
    """A finished game bound to MATCH in the journal, its outbox row lost."""
    settings = ClubSettings("tafel-1", "pw", port=1)  # never connected
    sim = SimBoard(settings, db, seats=2)
    pairing = {"match": MATCH, "started": time.time(), "ends": time.time() + 600}
    game = sim.play(pairing)
    sim.outbox.db.execute("DELETE FROM outbox")  # the cut came before the outbox's commit
    sim.outbox.close()
    return game


def test_a_result_lost_before_the_outbox_is_reported_at_restart(tmp_path: Path) -> None:
    db = tmp_path / "board.sqlite"
    game = played_but_not_in_outbox(db)
    session = GameSession.resume(db, game)
    want = outcome(session.state)
    session.close()
    assert want["winner"] or want["timed_out"]

    # The board starts again (a new game on its hub): the lost result is in the outbox.
    hub = Hub.open_sim(
        HubOptions(mode="sim", db=db, seed=3), seats=2, profile="nk", kinds=["greedy"] * 2
    )
    club = BoardClub(hub, ClubSettings("tafel-1", "pw", port=1), db)
    try:
        pending = club.outbox.pending()
        assert [(m["match"], m["game"]) for m in pending] == [(MATCH, game)]
        assert pending[0]["points"] == want["points"]
        assert pending[0]["moves"] == want["moves"]
        # Once: a second start finds it in the outbox and adds nothing.
        club.outbox.close()
        again = Outbox(outbox_path(db))
        assert again.unreported() == [] and len(again.pending()) == 1
        again.close()
    finally:
        hub.session.close()
