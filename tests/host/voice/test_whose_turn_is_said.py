"""Whose turn, said where the move list does not imply it (docs/voice.md): the first deal
of a game (who deals, who begins), each new deal (also one a move ends), and the turn
when the order round the table changes (a seat that discarded is skipped), not after
every move. From the refereed conformance games."""

from __future__ import annotations

import pytest
from conformance_speech import spoken, traces

from keezbord.engine.position import Position
from keezbord.engine.topology import SEAT_COLOURS, Topology
from keezbord.host.referee import Decision
from keezbord.host.referee.replay import run
from keezbord.host.referee.trace import input_from_dict, setup_from_dict
from keezbord.host.voice.narrator import Narrator

TRACES = traces()
T4 = Topology(4, 16)
START = Position.start(4).to_dict()


@pytest.mark.parametrize("name", sorted(TRACES))
def test_a_game_begins_with_who_deals_and_who_begins(name: str) -> None:
    setup = TRACES[name][0]
    first = spoken(TRACES[name])[0]
    seats = int(setup["seats"])
    dealer = SEAT_COLOURS[int(setup.get("dealer", 0))]
    begins = SEAT_COLOURS[(int(setup.get("dealer", 0)) + 1) % seats]
    assert first.kind == "turn"
    assert (
        first.text.nl
        == f"Nieuw spel: {dealer.nl} deelt vijf kaarten. {begins.nl.capitalize()} begint."
    )
    assert first.text.en.startswith(f"New game: {dealer.en} deals five cards.")


@pytest.mark.parametrize("name", sorted(TRACES))
def test_every_new_deal_is_said_also_one_a_move_ends(name: str) -> None:
    lines = TRACES[name]
    deals: set[tuple[int, int]] = set()
    for state, _ in run(setup_from_dict(lines[0]), [input_from_dict(d) for d in lines[1:]]):
        deals.add((state.table.shuffle_no, state.table.round_no))
    said = [u.text.nl for u in spoken(lines)]
    assert len(deals) >= (3 if name.endswith("standard") else 1)
    assert sum(s.startswith("Nieuwe ronde: ") for s in said) == len(deals) - 1


@pytest.mark.parametrize("name", sorted(TRACES))
def test_the_turn_is_said_only_where_the_order_changed_and_rightly(name: str) -> None:
    said = spoken(TRACES[name])
    moves = sum(u.kind in ("move", "discard") for u in said)
    turns = [i for i, u in enumerate(said) if u.text.en.endswith(" to play.")]
    assert 0 < len(turns) < moves / 4  # not after every move
    for i in turns:
        who = said[i].text.en.removesuffix(" to play.")
        nxt = next((u for u in said[i + 1 :] if u.kind in ("move", "discard", "board")), None)
        # The one named plays (or makes the mistake the referee flags) next, if the
        # trace goes on.
        assert nxt is None or nxt.kind == "board" or nxt.text.en.startswith(f"{who} "), who


def _turn(seat: int, **more: object) -> dict[str, object]:
    return {"type": "turn", "seat": seat, **more}


def _move(seat: int, move: str) -> dict[str, object]:
    return {"type": "move", "seat": seat, "move": move, "position": START}


def test_the_narrator_says_a_skipped_seat_once() -> None:
    n = Narrator()
    said: list[str] = []
    records: list[dict[str, object]] = [
        _turn(2, opening={"dealer": 1, "cards": 5}),
        {"type": "discard", "seat": 2, "ok": True},  # yellow is out of this deal
        _turn(3),
        _move(3, "K 3:N-S"),
        _turn(0),
        _move(0, "K 0:N-S"),
        _turn(1),
        _move(1, "K 1:N-S"),
        _turn(3),  # yellow skipped: said
        _move(3, "A 3:N-S"),
        _turn(0),
        _move(0, "A 0:N-S"),
        _turn(1),
        _move(1, "A 1:N-S"),
        _turn(3),  # the same skip again: implied now
        {"type": "undo", "ok": True, "seat": 1, "move": "A 1:N-S"},
        _turn(1),  # back to the one whose move was taken back: not said
    ]
    for r in records:
        said += [u.text.nl for u in n.said(r, T4) if u.kind == "turn"]
    assert said == ["Nieuw spel: blauw deelt vijf kaarten. Geel begint.", "Groen is aan de beurt."]


def test_a_game_set_up_at_a_position_begins_without_a_deal_said() -> None:
    pos = START | {"pawns": [["S", "N", "N", "N"], *START["pawns"][1:]]}
    fresh = {"type": "setup", "seats": 4, "dealer": 3}
    for setup, said in ((fresh, True), ({**fresh, "position": pos}, False)):
        _, effects = next(iter(run(setup_from_dict(setup), [])))
        (turn,) = [e.to_record() for e in effects if isinstance(e, Decision) and e.type == "turn"]
        assert ("opening" in turn) is said
        assert turn["seat"] == 0
