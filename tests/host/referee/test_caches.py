"""The referee's caches stay small and never pin positions, and a game's set-up freezes
the heap (issue 14: memory and pauses)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from keezbord.engine.movegen import successors
from keezbord.engine.position import Position
from keezbord.host.referee import recognize
from keezbord.host.referee.recognize import colours, expectation, pos_sig
from keezbord.host.session import GameSession


def test_caches_are_bounded() -> None:
    assert recognize._colours.cache_info().maxsize == recognize.SIG_CACHE <= 2048
    assert recognize._pos_sig.cache_info().maxsize == recognize.SIG_CACHE
    assert expectation.cache_info().maxsize == recognize.EXPECTATION_CACHE <= 64
    recognize._colours.cache_clear()
    pos = Position.start(8)
    seen = 0
    # Walk far more distinct positions than the caches hold.
    frontier = [pos]
    while seen < 3 * recognize.SIG_CACHE and frontier:
        p = frontier.pop()
        for card in ("A", "7", "5"):
            for _, after in successors(p, card):
                pos_sig(after)
                seen += 1
                frontier.append(after)
    assert recognize._colours.cache_info().currsize <= recognize.SIG_CACHE


def test_entries_are_keyed_on_pawns_and_share_hole_names() -> None:
    a = Position.from_dict(
        {
            "seats": 4,
            "pawns": [["S", "T5", "H2", "N"], ["N"] * 4, ["T40", "N", "N", "N"], ["N"] * 4],
        }
    )
    b = Position.from_dict(a.to_dict())  # equal, but another object
    assert a is not b
    assert colours(a) is colours(b)  # one entry for both
    assert colours(a) == {"T0": 0, "T5": 0, "H0.2": 0, "T40": 2}
    assert pos_sig(a) == (frozenset({"T0", "T5", "H0.2", "T40"}), (1, 4, 3, 4))
    c = a.replace(turn=1)
    names = {id(k) for k in colours(a)}
    assert {id(k) for k in colours(c)} == names


def test_cached_positions_can_be_freed() -> None:
    """An entry holds the pawn tuple, not the Position (nor its cached track)."""
    p = Position.from_dict({"seats": 8, "pawns": [["T3", "N", "N", "N"]] + [["N"] * 4] * 7})
    _ = p.track
    colours(p)
    pos_sig(p)
    gone = weakref.ref(p)
    del p
    gc.collect()
    assert gone() is None


def test_session_start_freezes_the_heap(tmp_path: Path) -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    s = GameSession.start(
        tmp_path / "j.db", {"type": "setup", "seats": 4, "profile": "standard", "dealer": 0}
    )
    try:
        assert gc.get_freeze_count() > 0
    finally:
        s.close()
        gc.unfreeze()


def test_the_colour_pairs_cache_is_bounded_and_keyed_on_pawns() -> None:
    # hands.py compares the colours the touches carried with candidate positions.
    assert recognize._colour_pairs.cache_info().maxsize == recognize.PAIRS_CACHE <= 64
    pos = Position.start(4)
    for _, after in successors(pos, "A"):
        assert recognize.colour_pairs(after) == frozenset(colours(after).items())
    assert recognize._colour_pairs.cache_info().currsize <= recognize.PAIRS_CACHE
    recognize.clear_caches()
    assert recognize._colour_pairs.cache_info().currsize == 0
