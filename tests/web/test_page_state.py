"""What the page draws, from ``page_state`` alone: no server, no asyncio, no hub. The
views are built from a real refereed game (a journal in a temporary folder)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from keezbord.engine.describe import describe_move
from keezbord.host.events import HoleEvent
from keezbord.host.referee import MoveRecord
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate
from keezbord.host.sim.pawns import PawnTracker
from keezbord.host.sim.table import SimTable, sim_setup
from keezbord.host.web.page import (
    PageView,
    history_entries,
    page_state,
    played_in_words,
    to_json,
)


def played(tmp: Path, moves: int) -> GameSession:
    """A bot game fed through the referee until ``moves`` moves are accepted."""
    game = simulate(4, "standard", 3)
    session = GameSession.start(tmp / "j.db", game.setup)
    for ev in game.events:
        session.feed(ev)
        session.tick(ev.t)
        if len(session.state.history) >= moves:
            break
    assert len(session.state.history) >= moves
    return session


def view(session: GameSession, **kw: Any) -> PageView:
    st = session.state
    pawns = PawnTracker()
    pawns.recolour(st.pos, st.sensed)
    args: dict[str, Any] = {
        "version": 7,
        "mode": "run",
        "snapshot": session.snapshot("nl"),
        "state": st,
        "now": st.now + 5000,
        "pawn_seat": pawns.pawn_seat,
        "held": pawns.held,
    }
    return PageView(**{**args, **kw})


def test_a_real_boards_page(tmp_path: Path) -> None:
    session = played(tmp_path, 2)
    st = session.state
    page = page_state(view(session))
    assert page["type"] == "state" and page["version"] == 7 and page["mode"] == "run"
    assert [p["kind"] for p in page["players"]] == ["player"] * 4
    assert page["players"][1]["colour"]["en"] and page["players"][0]["team"] == [0, 2]
    assert page["hand"] is None and page["exchange"] is None and page["score"] is None
    first: MoveRecord = st.history[0]
    said = describe_move(first.before, first.move)
    assert page["history"][0] == {
        "n": 1,
        "t": first.t,
        "seat": first.seat,
        "card": first.card,
        "move": first.text,
        "round": first.table_before.round_no,
        "deal": first.table_before.shuffle_no,
        "dealer": first.table_before.dealer,
    }
    # Its words are the log's (the page's move list): the player is named (issue 13,
    # defect 2), then the move as describe_move says it.
    assert played_in_words(first).as_dict() == {
        "nl": f"groen speelt {said.nl[0].lower()}{said.nl[1:]}",
        "en": f"green plays {said.en[0].lower()}{said.en[1:]}",
    }
    assert first.seat == 3  # green
    # Every sensed hole is drawn with the colour the position gives it.
    assert [p["hole"] for p in page["pawns"]] == sorted(st.sensed)
    assert all(p["seat"] is not None for p in page["pawns"])
    assert page["clock"] == {
        "elapsed_ms": st.now + 5000,
        "running": True,
        "limit_ms": None,
        "stopped": False,
    }
    session.close()


def test_a_flag_comes_with_guidance_for_each_pawn(tmp_path: Path) -> None:
    session = played(tmp_path, 1)
    st = session.state
    hole = sorted(h for h in st.sensed if h.startswith("T"))[0]
    empty = next(
        f"T{i}"
        for i in range(st.pos.topology.ring)
        if f"T{i}" not in st.sensed and abs(i - int(hole[1:])) > 5
    )
    t = st.now + 100
    session.feed(HoleEvent(t, "lift", hole))
    session.feed(HoleEvent(t + 100, "place", empty))
    session.tick(t + 10_000)
    assert session.state.flag is not None
    page = page_state(view(session))
    guidance = page["flag"]["guidance"]
    assert len(guidance) == len(session.state.flag.pairs) >= 1
    assert {"nl", "en"} <= set(guidance[0]) and empty in guidance[0]["en"]
    session.close()


def test_the_simulators_page_shows_the_human_hand(tmp_path: Path) -> None:
    setup, info = sim_setup(4, "standard", 11, ["human", "greedy", "greedy", "greedy"])
    session = GameSession.start(tmp_path / "s.db", setup)
    sim = SimTable(info, 4, "standard", None, session.game)
    sim.sync([])
    page = page_state(view(session, mode="sim", sim=sim))
    seat = session.state.seat
    assert [p["kind"] for p in page["players"]] == info.kinds
    assert [p["cards"] for p in page["players"]] == sim.counts()
    hand = page["hand"]
    assert hand["seat"] == 0 and hand["cards"] == sim.hand(0)
    assert hand["active"] == (seat == 0)
    assert hand["playable"] == (sim.playable(0) if seat == 0 else [])
    # A bot at work makes the hand inactive.
    busy = page_state(view(session, mode="sim", sim=sim, bot_busy=1))["hand"]
    assert busy["active"] is False and busy["playable"] == []
    session.close()


def test_history_entries_are_made_once_and_forgotten_on_undo(tmp_path: Path) -> None:
    """An entry is the same object from state to state (HistoryFeed sends only new ones);
    a corrected move gets a new one, a move taken back loses its own."""
    session = played(tmp_path, 2)
    history = session.state.history
    cache: dict[int, dict[str, Any]] = {}
    first = history_entries(history, cache)
    assert len(first) == len(cache) == len(history) and "words" not in first[0]
    again = history_entries(history, cache)
    assert all(a is b for a, b in zip(first, again, strict=True))
    cache[1] = {**cache[1], "move": "another move"}  # as if the move was corrected
    fixed = history_entries(history, cache)
    assert fixed[0] is first[0] and fixed[1] is not first[1]
    assert fixed[1]["move"] == history[1].text
    assert history_entries(history[:1], cache) == [first[0]] and list(cache) == [0]
    session.close()


def test_the_state_text_is_json_dumps_text(tmp_path: Path) -> None:
    """``to_json`` encodes the long lists an entry at a time (a smaller peak for a long
    game's first state) and must give exactly ``json.dumps``'s text."""
    session = played(tmp_path, 6)
    state = page_state(view(session))
    state["log"] = [{"kind": "move", "text": {"nl": "rood → T5", "en": "red → T5"}}]
    assert len(state["history"]) >= 6
    text = to_json(state)
    assert text == json.dumps(state) and json.loads(text) == state
    assert to_json({"history": [], "log": []}) == '{"history": [], "log": []}'
    session.close()
