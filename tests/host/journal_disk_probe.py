"""Run inside a mount namespace on a small tmpfs (test_journal_disk.py): a full disk under
a real board's hub, and the journal's file mode. Prints what it saw as one JSON object
(the test asserts on it); the namespace and its tmpfs go when it exits.

    python journal_disk_probe.py full DIR
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from keezbord.host.events import HoleEvent, SwitchRead
from keezbord.host.referee import board_of, setup_from_dict
from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub, HubError, HubOptions

SETUP = {"type": "setup", "seats": 4, "profile": "standard", "dealer": 3, "mode": "run"}


def full(folder: Path) -> dict[str, Any]:
    """Fill the disk under a hub; feed inputs; free the disk; feed again."""
    seen: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        hub = Hub.open_run(HubOptions(mode="run", db=folder / "j.sqlite"), dict(SETUP), None)
        t = hub.session.state.now + 10
        holes = set(board_of(setup_from_dict(SETUP).position))
        seen["before"] = hub.session.seq
        filler = folder / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as f:
            while True:  # every byte the tmpfs has
                f.write(b"\0" * 65536)
                f.flush()
        pos = hub.session.state
        for i in range(30):  # a pawn lifted and put back, over and over: none journalled
            hub.feed(HoleEvent(t + 10 * i, "lift" if i % 2 == 0 else "place", "N0.1"))
        seen["state_kept"] = hub.session.state is pos and hub.session.seq == seen["before"]
        game = hub.session.game
        try:  # a new game asked for from the page while the disk is full
            hub.request({"type": "new_game"}, Role.REFEREE)
            seen["new_game"] = None
        except HubError as e:
            seen["new_game"] = {"en": e.text.en, "nl": e.text.nl}
        seen["same_game"] = hub.session.game == game and hub.session.state is pos
        seen["instruction"] = hub.page_state()["instruction"]
        seen["health"] = (hub.health() or {}).get("journal")
        filler.unlink()  # space is back
        hub.feed(SwitchRead(t + 1000, frozenset(holes)))
        hub.feed(HoleEvent(t + 1100, "lift", "N0.1"))
        seen["after"] = hub.session.seq
        seen["health_after"] = (hub.health() or {}).get("journal")
        seen["instruction_after"] = hub.page_state()["instruction"]
        seen["mode"] = oct(os.stat(folder / "j.sqlite").st_mode & 0o777)
        seen["wal_mode"] = oct(os.stat(folder / "j.sqlite-wal").st_mode & 0o777)
        hub.session.close()
    seen["log"] = out.getvalue().splitlines()
    return seen


if __name__ == "__main__":
    os.umask(0o022)  # a person's shell: the journal must still be 0600
    print(json.dumps({"full": full}[sys.argv[1]](Path(sys.argv[2]))))
