"""A refereed game read back with each decision's hand (host/analysis/record.py, issue 27
"What a physical game lets us know"): on a real board from the cards tapped later in the
round and those shown at a discard, the rest marked unknown; in the simulator exactly."""

from __future__ import annotations

import random
from pathlib import Path

from keezbord.engine.bots import RandomBot
from keezbord.engine.game import Game
from keezbord.host.analysis.record import game_record, record_of_journal
from keezbord.host.journal import Journal
from keezbord.host.referee import setup_from_dict
from keezbord.host.sim.games import into_journal, simulate


def true_hands(seats: int, seed: int) -> list[tuple[int, tuple[str, ...]]]:
    """The hand before every turn of ``simulate``'s game (the same bots, the same deals)."""
    game = Game(seats, "standard", seed)
    bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(seats)]
    out = []
    while not game.over:
        game.exchange(bots)
        seat = game.table.turn
        assert seat is not None
        out.append((seat, tuple(game.hands[seat])))
        game.play_turn(bots[seat])
    return out


def test_a_boards_hands_are_rebuilt_from_the_cards_tapped_later_and_shown() -> None:
    for seed, seats in ((0, 4), (3, 3)):
        sim = simulate(seats, "standard", seed, max_turns=2000)
        truth = true_hands(seats, seed)
        rec = game_record(setup_from_dict(sim.setup), sim.events)
        assert rec.winner == sim.winner
        assert len(rec.turns) == len(truth)
        assert sum(1 for t in rec.turns if t.card is None) == sim.discards
        unknown = [t for t in rec.turns if not t.hand_known]
        for t, (seat, hand) in zip(rec.turns, truth, strict=True):
            assert t.seat == seat
            if t.hand_known:
                assert sorted(t.hand) == sorted(hand), t.index
            else:  # the cards known are the card played and those tapped after it
                assert t.card is not None and t.hand[0] == t.card
                assert not set(t.hand) - set(hand)
        # Only the round the game was won in is not fully known, and only there.
        last = rec.turns[-1].deal
        assert unknown and all(t.deal == last for t in unknown)
        assert all(t.known.hand_sizes is not None for t in rec.turns)


def test_without_a_card_reader_no_hand_is_known() -> None:
    sim = simulate(4, "standard", 1, max_turns=40)
    setup = setup_from_dict({**sim.setup, "card_reader": False})
    rec = game_record(setup, sim.events)
    assert rec.decisions
    assert all(not t.hand_known and t.hand == (t.card,) for t in rec.decisions)


def test_the_simulators_hands_are_known_exactly_even_in_the_last_round(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    gid = into_journal(db, 4, ["human"] * 4)
    sim = simulate(4, "standard", 4, max_turns=5000, quick_taps=0.0)
    truth = true_hands(4, 4)
    with Journal(db, readonly=True) as journal:
        rec = record_of_journal(journal, gid)
    assert rec.source == f"game {gid}" and rec.winner == sim.winner
    assert all(t.hand_known for t in rec.turns)
    assert [sorted(t.hand) for t in rec.turns] == [sorted(h) for _, h in truth]
