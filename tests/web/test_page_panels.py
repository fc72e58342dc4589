"""Issue 13, the side of the page on a real board (run mode, the board driven by the
test) in real headless Chromium: the move list names the player and holds every action
(defect 2) and so does "Export moves"; another seat's pawn is explained as such (defect
8); a refused "show hand" keeps the move to itself (defect 9); messages carry move
numbers and the win names the team (defect 13); move numbers from 100 up are whole
(defect 15)."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from web_helpers import link, options

from keezbord.host.drivers.boards import FakeBoard
from keezbord.host.events import CardTap, Discard
from keezbord.host.session import GameSession
from keezbord.host.sim.games import simulate
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.browser

Serve = Callable[[Callable[[], Hub]], LiveServer]

# Blue (seat 1) has every pawn home: in team play it moves its partner green's pawns.
TEAM = {
    "seats": 4,
    "turn": 1,
    "teams": "pairs",
    "pawns": [["N"] * 4, ["H1", "H2", "H3", "H4"], ["N"] * 4, ["T50", "N", "N", "N"]],
}
# Red one step from winning with yellow, whose pawns are all home.
WINNING = {
    "seats": 4,
    "turn": 0,
    "teams": "pairs",
    "pawns": [["T62", "H2", "H3", "H4"], ["N"] * 4, ["H1", "H2", "H3", "H4"], ["N"] * 4],
}


def run(
    serve: Serve, db: Path, position: dict[str, Any] | None, **setup: Any
) -> tuple[LiveServer, FakeBoard]:
    board = FakeBoard()
    opts = options(db, mode="run")
    full = {"type": "setup", "seats": 4, **setup}
    if position is not None:
        full["position"] = position
    return serve(lambda: Hub.open_run(opts, full, board)), board


def tap(srv: LiveServer, board: FakeBoard, card: str) -> None:
    board.put(CardTap(srv.hub.now(), card))


def test_the_move_list_names_the_player_and_every_action(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv, board = run(serve, tmp_path / "t.sqlite", TEAM, dealer=0, teams="pairs")
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#moves li.sep")
    assert page.inner_text("#moves li.sep") == "round 1 (shuffle 1): red deals 5 cards"
    # Blue plays a 5 with its partner green's pawn: the list names blue, the player.
    tap(srv, board, "5")
    board.lift("T50")
    board.place("T55")
    page.wait_for_selector("#moves li[data-move='5 3:T50-T55']")
    line = page.inner_text("#moves li[data-move='5 3:T50-T55']")
    assert "1." in line and "blue plays the 5: green T50 → T55" in line
    # The referee takes the move back (the undo is in the list), the pawn goes back, and
    # blue plays it again.
    page.click("#undo")
    page.click("#takeback-yes")
    page.wait_for_selector("#moves li[data-kind='undo']")
    # In the move's own words, not its notation.
    assert "taken back: blue plays the 5: green T50 → T55" in page.inner_text(
        "#moves li[data-kind='undo']"
    )
    # The messages say it in the same words.
    page.wait_for_selector("#log li[data-kind='undo']")
    assert page.inner_text("#log li[data-kind='undo']").endswith(
        "Taken back: blue plays the 5: green T50 → T55"
    )
    board.lift("T55")
    board.place("T50")
    page.wait_for_selector("#flag", state="hidden")
    tap(srv, board, "5")
    board.lift("T50")
    board.place("T55")
    page.wait_for_selector("#moves li[data-move='5 3:T50-T55'] >> nth=1")
    # Yellow cannot play (no pawn out, no ace or king): shows the hand, which is logged.
    board.put(Discard(srv.hub.now(), ("2", "3", "4", "6")))
    page.wait_for_selector("#moves li[data-kind='discard']")
    assert (
        page.inner_text("#moves li[data-kind='discard']")
        == "yellow shows the hand (2, 3, 4, 6): no card playable, passes"
    )
    with urllib.request.urlopen(srv.url + "/api/export/moves") as r:
        export = r.read().decode()
    lines = export.splitlines()
    assert (
        lines[0]
        == "-- ronde 1 (schudbeurt 1): rood deelt 5 kaarten\tround 1 (shuffle 1): red deals 5 cards"
    )
    assert lines[1].startswith("1. 5 3:T50-T55\tblauw speelt de 5: groen T50 → T55\tblue plays")
    assert "teruggenomen: blauw speelt de 5: groen T50 → T55" in lines[2]
    assert lines[3].startswith("1. 5 3:T50-T55\t")
    assert "yellow shows the hand (2, 3, 4, 6)" in lines[4]


def test_another_seats_pawn_is_explained_as_such(serve: Serve, page: Any, tmp_path: Path) -> None:
    srv, board = run(serve, tmp_path / "o.sqlite", None, dealer=3)
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='T0'][data-led='turn']")
    tap(srv, board, "K")
    board.lift("N1.1")  # blue's pawn, red to play
    board.place("T16")
    page.wait_for_selector("#flag:not([hidden])")
    reason = page.inner_text("#flag-reason")
    assert reason == "That pawn is blue's; red is to play and moves only its own (red) pawns"
    assert "start hole" not in reason


def test_refused_show_hand_keeps_the_move_to_itself(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv, board = run(serve, tmp_path / "d.sqlite", None, dealer=3, hints="off")
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='T0'][data-led='turn']")
    board.put(Discard(srv.hub.now(), ("K", "2", "3", "4", "5")))
    page.wait_for_selector("#log li[data-kind='discard']")
    said = page.inner_text("#log li[data-kind='discard']")
    assert said == "#1 · Show hand refused: the king can be played: you must play", said
    assert "Hand shown" not in said and "0:N-S" not in said and "K 0" not in said


def test_messages_are_numbered_and_the_win_names_the_team(
    serve: Serve, page: Any, tmp_path: Path
) -> None:
    srv, board = run(serve, tmp_path / "w.sqlite", WINNING, dealer=3, teams="pairs")
    page.goto(link(srv, lang="en"))
    page.wait_for_selector(".hole[data-hole='T62'] .pawn[visibility='visible']")
    tap(srv, board, "3")
    board.lift("T62")
    board.place("H0.1")
    page.wait_for_selector("#log li[data-kind='win']")
    win = page.inner_text("#log li[data-kind='win']")
    assert win == "#1 · Win: team ● red + ▲ yellow win!", win
    assert page.inner_text("#winner") == "team ● red + ▲ yellow win!"
    assert "red and yellow win" in page.inner_text("#moves li[data-kind='win']")
    assert page.title().startswith("team ● red + ▲ yellow win!")


def test_move_numbers_from_100_up_are_whole(serve: Serve, page: Any, tmp_path: Path) -> None:
    # A bot game of 104 moves through the referee into the journal; the page resumes it.
    game = simulate(4, "standard", 5)
    db = tmp_path / "l.sqlite"
    setup = {**game.setup, "mode": "run"}
    session = GameSession.start(db, setup)
    for ev in game.events:
        session.feed(ev)
        session.tick(ev.t)
        if len(session.state.history) >= 104:
            break
    assert len(session.state.history) >= 104
    session.close()
    opts = options(db, mode="run")
    srv = serve(lambda: Hub.open_run(opts, setup, FakeBoard()))
    page.goto(link(srv, lang="en"))
    page.wait_for_selector("#moves li[data-n='104']")
    li = page.locator("#moves li.move[data-n='104']")
    li.scroll_into_view_if_needed()
    num = li.locator(".n")
    assert num.inner_text() == "104."
    box, list_box = num.bounding_box(), page.locator("#moves").bounding_box()
    assert (
        box["x"] >= list_box["x"] and box["x"] + box["width"] <= list_box["x"] + list_box["width"]
    )
    # The number's text fits its box (nothing clipped).
    assert num.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
