"""Issue 28, done when: two ``keezbord run --simulate`` boards on loopback play a whole
4-seat game linked (two seats each) through a real Mosquitto with TLS, with the link cut
twice (one board's connection dropped, then the broker itself restarted) and one board
killed and started again mid-game: both journals end identical, nothing lost or doubled.

Each board's simulated people play its own seats (a greedy bot chooses, the pawns are
moved as hole events) and copy the other board's moves by following its LEDs only
(host/sim/people.py, led_person.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from club_helpers import wait_for as wait_every
from cutter import Cutter
from link_helpers import Board, link_broker

from keezbord.host.club.linked_board import journal_actions
from keezbord.host.club.linked_store import LinkedStore, linked_path
from keezbord.host.journal import Journal

pytestmark = pytest.mark.slow

SPEED = "0.02"  # the page's pace: the referee's judgments wait on the people, not on it


def wait_for(check: Callable[[], object], timeout: float, what: str) -> None:
    """Polled every 0.1 s: each look is a spectator's whole state from a board."""
    wait_every(check, timeout, what, every=0.1)


def _board_toml(folder: Path, port: int | None = None) -> None:
    toml = folder / "board.toml"
    text = toml.read_text()
    if port is not None:
        text = re.sub(r"(?m)^port = \d+$", f"port = {port}", text)
    toml.write_text('[board]\nseats = 4\n[files]\njournal = "board.sqlite"\n' + text)


def _moves(b: Board) -> int:
    return len(b.state()["history"])


def _link(b: Board) -> dict[str, Any]:
    remote = b.state()["remote"]
    assert remote is not None
    link: dict[str, Any] = remote["link"]
    return link


def _actions(folder: Path) -> tuple[list[dict[str, Any]], list[Any]]:
    """The linked game's actions as the board's journal has them, and its log."""
    db = folder / "board.sqlite"
    store = LinkedStore(linked_path(db))
    try:
        found = store.latest()
        assert found is not None and found[1] is not None
        log, _ = store.entries(found[0])
    finally:
        store.close()
    with Journal(db, readonly=True) as j:
        return journal_actions(j, found[1]), [(e.seq, e.by, dict(e.action)) for e in log]


def _said(b: Board) -> str:
    """What a board shows and printed, for a failure's message."""
    try:
        st = b.state()
        remote = st["remote"] or {}
        now = (
            f"moves {len(st['history'])}, turn {st['turn']}, card {st['card']}, "
            f"flag {st['flag'] and st['flag']['text']}, lit {remote.get('lit')}, "
            f"hold {remote.get('hold')}, link {remote.get('link')}"
        )
    except OSError as e:
        now = f"no state ({e})"
    return f"{b.folder.name}: {now}\n" + "\n".join(b.lines[-15:])


def test_two_boards_play_one_game_through_cuts_and_a_restart(tmp_path: Path) -> None:
    broker, _ = link_broker(tmp_path)
    cut = Cutter(broker.port)
    oma_dir, thuis_dir = tmp_path / "oma", tmp_path / "thuis"
    _board_toml(oma_dir)
    _board_toml(thuis_dir, cut.port)  # thuis reaches the broker through the cutter
    with ThreadPoolExecutor(2) as starting:  # both boards start at once
        oma_f = starting.submit(Board, oma_dir, "--simulate", "11", "--speed", SPEED)
        thuis_f = starting.submit(Board, thuis_dir, "--simulate", "12", "--speed", SPEED)
        oma, thuis = oma_f.result(), thuis_f.result()
    try:
        wait_for(lambda: _link(thuis)["in_step"] and _moves(oma) >= 1, 60, "the game under way")
        st = oma.state()
        assert [p["where"] for p in st["players"]] == ["table", "thuis", "table", "thuis"]
        assert thuis.state()["game"] is not None

        # Cut 1: thuis's internet goes down for a while.
        wait_for(lambda: _moves(oma) >= 12, 300, "12 moves")
        cut.cut_now()
        wait_for(lambda: not _link(thuis)["connected"], 60, "thuis sees the cut")
        wait_for(lambda: not _link(oma)["in_step"], 60, "oma waits for thuis")
        held = thuis.state()["remote"]["hold"]
        wait_for(lambda: cut.refused >= 1, 60, "thuis trying again in vain")
        cut.mend()
        wait_for(lambda: _link(thuis)["in_step"] and _link(oma)["in_step"], 120, "back in step")
        assert held is not None or _link(thuis)["entries"] > 0

        # Cut 2: the broker itself restarts (both boards lose the link).
        wait_for(lambda: _moves(oma) >= 30, 400, "30 moves")
        broker.stop()
        wait_for(lambda: not any(_link(b)["connected"] for b in (oma, thuis)), 60, "both cut")
        broker.start()
        wait_for(lambda: _link(thuis)["in_step"] and _link(oma)["in_step"], 120, "in step again")

        # thuis switched off mid-game, and on again.
        wait_for(lambda: _moves(thuis) >= 50, 400, "50 moves")
        thuis.kill()
        wait_for(lambda: not _link(oma)["peer_online"], 60, "oma sees thuis gone")
        thuis.start()
        wait_for(lambda: _link(thuis)["in_step"], 120, "thuis back in the game")

        wait_for(lambda: oma.state()["winner"] is not None, 1500, "the game's end at oma")
        wait_for(lambda: thuis.state()["winner"] is not None, 300, "the game's end at thuis")
        a, b = oma.state(), thuis.state()
        assert a["winner"] == b["winner"]
        assert a["position"] == b["position"]
        assert [h["move"] for h in a["history"]] == [h["move"] for h in b["history"]]
    except AssertionError as e:
        raise AssertionError(f"{e}\n{_said(oma)}\n{_said(thuis)}") from None
    finally:
        oma.stop()
        thuis.stop()
        cut.close()
        broker.stop()
    assert cut.cuts >= 1
    oma_actions, oma_log = _actions(oma_dir)
    thuis_actions, thuis_log = _actions(thuis_dir)
    assert oma_actions == thuis_actions  # both journals: the same game, action by action
    assert oma_log == thuis_log
    assert [dict(e[2]) for e in oma_log] == oma_actions  # the log is what happened
    moves = [x["move"] for x in oma_actions if x["kind"] == "move"]
    undone = sum(1 for x in oma_actions if x["kind"] == "undo")
    assert len(moves) - undone == len(a["history"])  # nothing doubled, nothing lost
    assert {e[1] for e in oma_log} == {"oma", "thuis"}  # both boards played
    # The restarted board resumed the same game (no second linked game was started).
    store = LinkedStore(linked_path(thuis_dir / "board.sqlite"))
    try:
        games = store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        store.close()
    assert games == 1
