"""A flag put right: putting the pawns back is no move (not even a jack swap), and what
comes after it is judged afresh."""

from __future__ import annotations

from referee_traces import FLAGGED, TAGS, Events, ev, flags, move, play, setup, swap, undo

CAPTURE_ATTEMPT: Events = [
    ev(1000, "card", "J"),
    ev(1100, "lift", "T10"),
    ev(1300, "place", "N1.4"),
    move(1500, "T5", "T10"),
    ev(2500, "tick"),
]


def test_undoing_a_flagged_capture_is_no_swap() -> None:
    put_back: Events = [move(3000, "T10", "T5"), move(3400, "N1.4", "T10"), ev(5000, "tick")]
    r = play(setup(), *CAPTURE_ATTEMPT, *put_back)
    assert len(r.of("illegal")) == 1
    assert r.moves == []
    assert [d["type"] for d in r.decisions].count("resolved") == 1
    assert "T10" in r.state.pos.to_dict()["pawns"][1]  # blue still on T10
    assert r.of("ambiguous") == []
    # The real swap afterwards is taken.
    r = play(setup(), *CAPTURE_ATTEMPT, *put_back, swap(5100, "T5", "T10"))
    assert r.moves == ["J 0:T5<>1:T10"]


def test_restore_and_swap_indistinguishable_asks() -> None:
    # Both pawns in hand while putting back: a swap would look the same. Ask, don't guess.
    put_back: Events = [
        ev(3000, "lift", "T10"),
        ev(3100, "lift", "N1.4"),
        ev(3300, "place", "T5"),
        ev(3400, "place", "T10"),
        ev(5000, "tick"),
    ]
    r = play(setup(), *CAPTURE_ATTEMPT, *put_back)
    assert r.moves == []
    [amb] = r.of("ambiguous")
    assert amb["moves"] == ["J 0:T5<>1:T10"] and amb["holes"] == ["T5", "T10"]
    assert "red on T5" in amb["reason"] and "blue on T10" in amb["reason"]
    frame = r.frame_at(4000)
    assert frame.get("T5") == "source" and frame.get("T10") == "source"
    assert "T5" in r.state.pos.to_dict()["pawns"][0]
    # The player sets the pawns as asked and swaps again: the swap is taken.
    r2 = play(setup(), *CAPTURE_ATTEMPT, *put_back, swap(5100, "T5", "T10"))
    assert r2.moves == ["J 0:T5<>1:T10"]


def test_without_reader_an_undone_capture_is_no_swap() -> None:
    r = play(
        setup(card_reader=False),
        ev(1100, "lift", "T10"),
        ev(1300, "place", "N1.4"),
        move(1500, "T5", "T10"),
        ev(6000, "tick"),
        undo(6100),
        move(6200, "T10", "T5"),
        move(6600, "N1.4", "T10"),
        ev(9000, "tick"),
    )
    assert r.moves == ["5 0:T5-T10"]
    assert [u["ok"] for u in r.of("undo")] == [True]
    assert r.state.history == ()
    assert "T10" in r.state.pos.to_dict()["pawns"][1]


def test_put_right_then_tap_sends_resolved_and_a_fresh_reason() -> None:
    r = play(
        setup(tags=TAGS),
        ev(1000, "tag", "A3"),
        move(1100, "T5", "T9"),
        ev(2000, "tick"),
        move(2500, "T9", "T5"),
        ev(2800, "tag", "A3"),
        move(3000, "T5", "T12"),
        ev(4000, "tick"),
    )
    illegal = r.of("illegal")
    assert len(illegal) == 2
    assert [d["t"] for d in r.of("resolved")] == [2800]
    assert illegal[0]["restore"] == [["T9", "T5"]] and illegal[1]["restore"] == [["T12", "T5"]]
    assert illegal[1]["t"] > 3200


def test_put_right_then_another_card_resolves_first() -> None:
    r = play(setup(), *FLAGGED, move(2500, "T9", "T5"), ev(2800, "card", "5"))
    kinds = ("illegal", "resolved", "second_card")
    types = [d["type"] for d in r.decisions if d["type"] in kinds]
    assert types == ["illegal", "resolved", "second_card"]
    assert "two cards" in r.of("second_card")[0]["reason"]


def test_swap_right_after_a_restore_is_taken() -> None:
    r = play(
        setup(),
        ev(1000, "card", "J"),
        move(1100, "T5", "T7"),  # flagged
        move(3000, "T7", "T5"),  # put back with one pawn in hand: exactly as before
        swap(3300, "T5", "T10"),  # within the settle time: the swap, holding both
    )
    assert flags(r) == ["illegal"]
    assert r.moves == ["J 0:T5<>1:T10"]
    assert [d["type"] for d in r.decisions].index("resolved") < [
        d["type"] for d in r.decisions
    ].index("move")


def test_a_fresh_wrong_attempt_after_a_restore_is_flagged_afresh() -> None:
    r = play(
        setup(),
        ev(1000, "card", "J"),
        move(1100, "T5", "T7"),
        move(3000, "T7", "T5"),
        move(3300, "T20", "T22"),  # within the settle time: another wrong move
        ev(6000, "tick"),
    )
    first, second = r.of("illegal")
    assert first["restore"] == [["T7", "T5"]] and second["restore"] == [["T22", "T20"]]
    assert [d["t"] for d in r.of("resolved")] == [second["t"]]
    assert r.moves == []
