"""Opening a linked board's game (issue 28, docs/remote.md "Two boards, one game"): the
hub (web) and the board's half of the linked game (club/linked_board.py) put together,
here above both."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.host.club.linked_board import LinkedBoard, deal_of, game_spec, local_game
from keezbord.host.club.linked_store import LinkedStore, linked_path
from keezbord.host.club_settings import LinkSettings
from keezbord.host.journal import Journal
from keezbord.host.session import GameSession
from keezbord.host.sim.table import SimStore

if TYPE_CHECKING:
    from keezbord.host.drivers.boards import BoardDriver
    from keezbord.host.web.hub import Hub, HubOptions


def open_linked(
    opts: HubOptions,
    settings: LinkSettings,
    base: dict[str, Any],
    driver: BoardDriver | None,
    db: Path,
) -> Hub:
    """The hub of a linked board: the latest linked game resumed (its journal has it),
    else the host of record's new one, else (a guest that has none yet) the latest game
    of the board's mode, on hold until the host's game comes."""
    from keezbord.host.web.hub import Hub
    from keezbord.host.web.options import table_of

    store = LinkedStore(linked_path(db))
    mode = str(base.get("mode", "run"))
    found = store.latest()
    hub = None
    if found is not None and found[1] is not None:
        gid = found[1]
        with Journal(db, readonly=True) as j:
            known = gid in j.game_ids()
        if known and deal_of(db, gid) is not None:
            session = GameSession.resume(db, gid)
            hub = Hub(session, opts, table_of(SimStore(db), session), driver)
    if hub is None and settings.host:
        spec = game_spec(settings, base, random.randrange(2**31))
        store.add_game(spec["game"], spec)
        setup, info = local_game(spec, settings.board, mode)
        hub = Hub.open_run(opts, setup, driver, resume=False, deal=info)
        store.bind(spec["game"], hub.session.game)
    if hub is None:
        hub = Hub.open_run(opts, base, driver, resume=True)
    LinkedBoard(hub, settings, store, mode, base)
    return hub
