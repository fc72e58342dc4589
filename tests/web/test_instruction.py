"""The instruction line's text (issue 25 item 5; web/instruction.py): what the state
says a player does next, from a simulator hub driven by its requests (no server, no
browser: the page's drawing of it is tests/web/test_instruction_line.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_helpers import opening_seed, options, sim_hub_at

from keezbord.engine.text import Text
from keezbord.host.roles import Role
from keezbord.host.web.hub import Hub
from keezbord.host.web.instruction import MODE, URGENT, Instruction, pick

EMPTY = ["N", "N", "N", "N"]


def line(hub: Hub) -> dict[str, Any]:
    ins = hub.page_state()["instruction"]
    assert ins is not None
    return dict(ins)


def ask(hub: Hub, **msg: Any) -> None:
    hub.request(msg, Role.REFEREE)


def test_a_turn_step_by_step(tmp_path: Path) -> None:
    seed, card = opening_seed()
    hub = Hub.open_sim(options(tmp_path / "g.sqlite", seed=seed), kinds=["human"] * 4)
    try:
        ins = line(hub)
        assert ins["seat"] == 0 and ins["source"] == "game" and ins["tone"] == "do"
        assert ins["text"] == {"nl": "{tap} op een kaart", "en": "{tap} a card"}
        ask(hub, type="card", card=card)
        label = {"K": "H"}.get(card, card)  # a Dutch deck's king is the H
        assert line(hub)["text"] == {
            "nl": f"Gespeeld: {label} — {{tap}} op een pion die oplicht",
            "en": f"Played {card}: {{tap}} a lit pawn",
        }
        ask(hub, type="lift", hole="N0.1")
        assert line(hub)["text"]["en"] == f"Played {card}: {{tap}} a lit hole"
        ask(hub, type="place", hole="T0")
        # Down, not yet accepted (the referee waits for the board to settle).
        ins = line(hub)
        assert ins["tone"] == "wait" and ins["text"]["en"] == "Checking the move…"
    finally:
        hub.session.close()


def test_the_rest_of_a_seven_and_the_victim_home(tmp_path: Path) -> None:
    # Seed 38: red to play with a 7; red on T2 and T20.
    hub = sim_hub_at(tmp_path / "a.sqlite", 38, [["T2", "T20", "N", "N"], EMPTY, EMPTY, EMPTY])()
    try:
        ask(hub, type="card", card="7")
        ask(hub, type="lift", hole="T2")
        ask(hub, type="place", hole="T5")
        ins = line(hub)
        assert ins["text"] == {
            "nl": "Gespeeld: 7 — nog 4 stappen: {tap} op een pion die oplicht",
            "en": "Played 7: 4 steps left, {tap} a lit pawn",
        }
        assert ins["holes"] == ["T20"]
    finally:
        hub.session.close()
    # Seed 0: red to play with an 8; red on T2, yellow on T10: the capture.
    pawns = [["T2", "N", "N", "N"], EMPTY, ["T10", "N", "N", "N"], EMPTY]
    hub = sim_hub_at(tmp_path / "b.sqlite", 0, pawns)()
    try:
        ask(hub, type="card", card="8")
        ask(hub, type="lift", hole="T2")
        ask(hub, type="lift", hole="T10")
        ask(hub, type="place", hole="T10", pawn=0)  # the mover down on the victim's hole
        ins = line(hub)
        assert ins["text"]["en"] == "Put yellow's pawn back in its nest (lit)"
        assert ins["text"]["nl"] == "Zet de pion van geel terug in zijn nest (dat oplicht)"
        assert ins["holes"] and all(h.startswith("N2.") for h in ins["holes"])
    finally:
        hub.session.close()


def test_the_second_pawn_of_a_jack_goes_where_the_first_left(tmp_path: Path) -> None:
    # Seed 17: red to play holding a jack; red on T2, yellow on T10.
    pawns = [["T2", "N", "N", "N"], EMPTY, ["T10", "N", "N", "N"], EMPTY]
    hub = sim_hub_at(tmp_path / "j.sqlite", 17, pawns)()
    try:
        ask(hub, type="card", card="J")
        ask(hub, type="lift", hole="T2")
        ask(hub, type="lift", hole="T10")
        ask(hub, type="place", hole="T10", pawn=0)  # red's pawn down where yellow stood
        ins = line(hub)
        assert ins["text"] == {
            "nl": "B: zet de tweede pion op T2",
            "en": "Jack: put the second pawn on T2",
        }
        assert ins["holes"] == ["T2"]
    finally:
        hub.session.close()


def test_a_flag_outranks_the_turn_and_a_posted_instruction_outranks_the_game(
    tmp_path: Path,
) -> None:
    seed, card = opening_seed()
    hub = Hub.open_sim(options(tmp_path / "g.sqlite", seed=seed), kinds=["human"] * 4)
    try:
        setup = Instruction(
            Text("Zet de pion van geel op T26", "Put yellow's pawn on T26"),
            source="setup",
            holes=("T26",),
            rank=MODE,
        )
        version = hub.version
        hub.instruct("setup", setup)
        assert hub.version > version  # the pages are told
        ins = line(hub)
        assert ins["source"] == "setup" and ins["text"]["en"] == "Put yellow's pawn on T26"
        assert ins["seat"] is None and ins["holes"] == ["T26"]
        hub.instruct("setup", None)
        assert line(hub)["source"] == "game"
        version = hub.version
        hub.instruct("setup", None)  # nothing to take back: no news
        assert hub.version == version
        # An illegal placement: the flag's guidance is the line, for everyone.
        ask(hub, type="card", card=card)
        ask(hub, type="lift", hole="N0.1")
        ask(hub, type="place", hole="T5")
        hub.session.tick(hub.now() + 5000)
        hub.changed()
        ins = line(hub)
        assert ins["source"] == "flag" and ins["tone"] == "fix" and ins["seat"] is None
        assert ins["text"]["en"].startswith("Put red's pawn from T5 back in its nest")
        assert "T5" in ins["holes"]
    finally:
        hub.session.close()
    # Ranks: the smallest wins; of equal ones, the first given.
    a = Instruction(Text("a", "a"), rank=MODE)
    b = Instruction(Text("b", "b"), rank=URGENT)
    c = Instruction(Text("c", "c"), rank=URGENT)
    assert pick([a, None, b, c]) is b and pick([None]) is None


def test_a_bots_turn_is_something_to_wait_for(tmp_path: Path) -> None:
    seed, _ = opening_seed(0)
    hub = Hub.open_sim(
        options(tmp_path / "g.sqlite", seed=seed), kinds=["greedy", "human", "human", "human"]
    )
    try:
        ins = line(hub)
        assert ins["seat"] == 0 and ins["tone"] == "wait"
        assert ins["text"] == {"nl": "rood (bot) denkt na…", "en": "red (bot) is thinking…"}
    finally:
        hub.session.close()
