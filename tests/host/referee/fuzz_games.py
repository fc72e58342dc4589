"""Generated games for the referee's fuzzing properties (issue 11).

Bot games (engine ``Game``, ``RandomBot``) rendered as a person's hands make them
(``sim/physical.events_for_move``: bounces, slides, counting, captures in any order,
swaps), at the pace of a real table: the next player acts ``gap`` ms after the previous
placement, lifting a pawn before or after tapping the card; with or without a card reader.
``noise`` adds switch bounces on resting pawns, garbage switch names and re-read cards.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from keezbord.engine.bots import RandomBot
from keezbord.engine.game import Game
from keezbord.engine.movegen import has_legal_move
from keezbord.engine.position import Position
from keezbord.host.events import CardTap, Discard, Event, HoleEvent, Tick
from keezbord.host.referee.recognize import board_of
from keezbord.host.referee.state import Decision, Input, RefereeState
from keezbord.host.referee.step import new_game, step
from keezbord.host.referee.trace import setup_from_dict
from keezbord.host.sim.physical import apply_events, events_for_move

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine"))
import reference_rules as ref

Pawns = tuple[tuple[int, ...], ...]

# Seat counts and profiles the generated games cycle through (the fuzz test and the
# pace bench take the same ones, so their figures speak of the same games).
CASES = [
    (4, "standard"),
    (6, "keezspel"),
    (2, "nk"),
    (3, "reiseditie"),
    (8, "bordspel"),
    (4, "wikipedia"),
]


@dataclass
class PaceGame:
    setup: dict[str, Any]
    events: list[Input] = field(default_factory=list)
    moves: list[tuple[int, str, Pawns]] = field(default_factory=list)
    discards: int = 0
    rejected: int = 0
    winner: tuple[int, ...] | None = None


def pace_game(
    seats: int,
    profile: str,
    seed: int,
    *,
    reader: bool = True,
    gap: tuple[int, int] = (100, 500),
    max_turns: int = 120,
    noise: float = 0.0,
) -> PaceGame:
    rng = random.Random(seed)
    game = Game(seats, profile, seed)
    bots = [RandomBot(random.Random(seed * 31 + s)) for s in range(seats)]
    sim = PaceGame(
        {
            "type": "setup",
            "seats": seats,
            "profile": profile,
            "dealer": game.table.dealer,
            "card_reader": reader,
        }
    )
    board = board_of(game.position)
    t = 1000  # the previous placement
    sim_discarded = False
    while not game.over and len(game.history) < max_turns:
        game.exchange(bots)
        seat = game.table.turn
        assert seat is not None
        pos = game.position.replace(turn=seat)
        dead = [c for c in game.hand(seat) if not has_legal_move(pos, c)]
        turn = game.play_turn(bots[seat])
        # The next player acts ``gap`` after the previous placement. A player who plays
        # again (the others sit out) first picks the next card: a normal pause; without
        # a reader at least the 7's patience (docs/referee.md, known limits).
        again = sim.moves and sim.moves[-1][0] == seat and not sim_discarded
        pause = (600, 2500) if reader else (3100, 4500)
        act = t + (rng.randint(*pause) if again else rng.randint(*gap))
        sim_discarded = turn.move is None
        if turn.move is None:
            sim.events.append(Discard(act, turn.discarded))
            sim.discards += 1
            t = act
            continue
        assert turn.card is not None and turn.after is not None
        evs: list[Event] = list(events_for_move(pos, turn.move, turn.after, rng, 0, board))
        taps: list[CardTap] = []
        if reader:
            if dead and rng.random() < 0.2:
                taps.append(CardTap(0, rng.choice(dead)))
                sim.rejected += 1
            taps.append(CardTap(0, turn.card))
            if noise and rng.random() < noise:
                taps.append(CardTap(0, turn.card))  # the reader reads the card twice
        if not evs:
            raise AssertionError("a move without hole events")
        if reader and rng.random() < 0.5:  # card first, the first lift 100-500 ms later
            taps = [replace(c, t=act + i) for i, c in enumerate(taps)]
            first = taps[-1].t + rng.randint(100, 500)
            merged: list[Event] = [*taps, *_shift(evs, first)]
        else:  # lift first (the next player reaches for a pawn), tap during the move
            evs = _shift(evs, act)
            places = [
                k for k, e in enumerate(evs) if isinstance(e, HoleEvent) and e.action == "place"
            ]
            i = 0 if rng.random() < 0.6 else rng.randrange(max(1, places[0]))
            at = evs[i].t
            merged = [*evs[: i + 1], *[replace(c, t=at + k) for k, c in enumerate(taps)]]
            merged += [replace(e, t=max(e.t, at + len(taps))) for e in evs[i + 1 :]]
        if noise:
            merged = _noisy(merged, board, rng, noise)
        sim.events.extend(merged)
        board = apply_events(board, evs)
        sim.moves.append((seat, turn.card, turn.after.pawns))
        t = max(e.t for e in merged if isinstance(e, HoleEvent))
    sim.events.append(Tick(t + 4000))  # a 7's patience and the settle time pass
    sim.winner = game.position.winner()
    return sim


def _shift(evs: list[Event], at: int) -> list[Event]:
    d = at - evs[0].t
    return [replace(e, t=e.t + d) for e in evs]


def _noisy(
    evs: list[Event], board: frozenset[str], rng: random.Random, noise: float
) -> list[Event]:
    """Bounces (1-3 ms) on pawns resting on the board, and switch names the board does
    not have, between the events of a move."""
    out: list[Event] = []
    cur = set(board)
    for e in evs:
        if out and rng.random() < noise and cur:
            t0 = out[-1].t
            if rng.random() < 0.8:
                h = rng.choice(sorted(cur))
                out += [HoleEvent(t0, "lift", h), HoleEvent(t0 + rng.randint(1, 3), "place", h)]
            else:
                out.append(
                    HoleEvent(
                        t0,
                        rng.choice(["lift", "place"]),
                        rng.choice(["T999", "N9.9", "X1", "H0.5"]),
                    )
                )
        if out and e.t < out[-1].t:
            e = replace(e, t=out[-1].t)
        out.append(e)
        if isinstance(e, HoleEvent):
            if e.action == "lift":
                cur.discard(e.hole)
            else:
                cur.add(e.hole)
    return out


@dataclass
class Refereed:
    decisions: list[Decision]
    state: RefereeState
    steps: int


def referee(setup: dict[str, Any], events: list[Input]) -> Refereed:
    s = setup_from_dict(setup)
    state, effects = new_game(s.position, s.dealer, s.config, turn=s.turn)
    decisions = [e for e in effects if isinstance(e, Decision)]
    for e in events:
        state, effects = step(state, e)
        decisions += [x for x in effects if isinstance(x, Decision)]
    return Refereed(decisions, state, len(events))


def derailment(sim: PaceGame, out: Refereed, *, reader: bool) -> str | None:
    """Why the referee's reading differs from the game played, or None."""
    kinds = ("illegal", "second_card", "ambiguous", "missing")
    flags = [d for d in out.decisions if d.type in kinds]
    if flags:
        d = flags[0]
        return f"{d.type} at t={d.t}: {d.to_dict('en')}"
    moves = [d for d in out.decisions if d.type == "move"]
    got = [
        (
            d.data["seat"],
            d.data["move"].split()[0] if reader else "",
            Position.from_dict(d.data["position"]).pawns,
        )
        for d in moves
    ]
    want = [(s, c if reader else "", p) for s, c, p in sim.moves]
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"move {i}: got {moves[i].data['move']} ({g[0]}), played {w[:2]}"
    if len(got) != len(want):
        return f"{len(got)} moves accepted, {len(want)} played"
    if out.state.winner != sim.winner:
        return f"winner {out.state.winner}, played {sim.winner}"
    return None


def accepted_moves_legal(out: Refereed, setup: dict[str, Any]) -> int:
    """Every accepted move checked against the independent reading of RULES.md
    (tests/engine/reference_rules.py). Returns how many were checked."""
    s = setup_from_dict(setup)
    before = s.position.to_dict()
    n = 0
    for d in out.decisions:
        if d.type != "move":
            continue
        card = d.data["move"].split()[0]
        after = Position.from_dict(d.data["position"])
        before = {**before, "turn": d.data["seat"]}
        legal = ref.results(before, card)
        got = tuple(tuple(r) for r in after.pawn_strings())
        assert got in legal, (before, d.data["move"])
        before = after.to_dict()
        n += 1
    return n


# -- illegal mutations --------------------------------------------------------------------

MUTATIONS = ("wrong_hole", "off_by_one", "second_card")


def mutated_game(seed: int, *, turns: int = 40, rate: float = 0.4) -> tuple[int, int]:
    """A 4-seat bot game refereed live; before some intended moves an illegal mutation
    is played (a pawn to a hole no legal move gives, the intended pawn one hole off, or
    a second card tapped after that). Each must be flagged (never accepted), and putting
    the board right along the flag's restore pairs (undo for a second card) must resume
    play so that the intended move is then accepted. Returns (mutations, moves)."""
    from keezbord.engine.movegen import successors
    from keezbord.host.referee.recognize import board_sig, pos_sig
    from keezbord.host.referee.state import Config, Undo

    rng = random.Random(seed)
    game = Game(4, "standard", 500 + seed)
    bots = [RandomBot(random.Random(seed * 7 + s)) for s in range(4)]
    state, _ = new_game(game.position, game.table.dealer, Config())
    t = 1000
    mutations = 0

    def feed(*evs: Input) -> list[Decision]:
        nonlocal state
        out: list[Decision] = []
        for e in evs:
            state, eff = step(state, e)
            out += [x for x in eff if isinstance(x, Decision)]
        return out

    while not game.over and len(game.history) < turns:
        seat = game.table.turn
        assert seat is not None
        pos = game.position.replace(turn=seat)
        turn = game.play_turn(bots[seat])
        if turn.move is None:
            feed(Discard(t, turn.discarded))
            t += 1000
            continue
        assert turn.card is not None and turn.after is not None
        feed(CardTap(t, turn.card))
        legal = {pos_sig(a) for _, a in successors(pos, turn.card)}
        partial = {pos_sig(f) for f in _firsts(pos, turn.card)}
        kind = rng.choice(MUTATIONS) if rng.random() < rate else None
        wrong = _mutation(pos, state.sensed, turn.move, legal | partial, rng, kind)
        if wrong is not None:
            src, dst = wrong
            ds = feed(
                HoleEvent(t + 100, "lift", src), HoleEvent(t + 300, "place", dst), Tick(t + 3400)
            )
            assert not [d for d in ds if d.type == "move"], (kind, src, dst)
            flags = [d for d in ds if d.type == "illegal"]
            assert len(flags) == 1 and [dst, src] in flags[0].data["restore"], (kind, ds)
            t += 3500
            if kind == "second_card":
                played = [c for c, _ in state.cards_played]
                other = next(
                    (
                        c
                        for c in ("A", "K", "2", "3", "5", "6", "8", "9", "10", "Q")
                        if c != turn.card
                        and played.count(c) < 4
                        and any(True for _ in successors(pos, c))
                    ),
                    None,
                )
                ds = feed(CardTap(t, other)) if other else []
                if other:
                    assert [d.data.get("cards") for d in ds if d.type == "second_card"] == [
                        [turn.card, other]
                    ], ds
                    ds = feed(Undo(t + 100))
                    assert [d.data.get("card") for d in ds if d.type == "undo"] == [other]
                t += 200
            for a, b in flags[0].data["restore"]:
                feed(HoleEvent(t, "lift", a), HoleEvent(t + 150, "place", b))
                t += 300
            ds = feed(Tick(t + 600))
            assert state.flag is None and board_sig(state.sensed, 4) == pos_sig(pos), ds
            assert not [d for d in ds if d.type == "move"]
            mutations += 1
            t += 700
        evs = events_for_move(pos, turn.move, turn.after, rng, t, state.sensed)
        feed(*evs)
        t = (evs[-1].t if evs else t) + 1500
        feed(Tick(t))
        assert state.history and state.history[-1].after.pawns == turn.after.pawns
        t += 100
    return mutations, len(state.history)


def _firsts(pos: Position, card: str) -> list[Position]:
    from keezbord.host.referee.recognize import expectation

    return [f for fs in expectation(pos, card).firsts.values() for f, _ in fs]


def _mutation(
    pos: Position,
    board: frozenset[str],
    move: Any,
    legal: set[Any],
    rng: random.Random,
    kind: str | None,
) -> tuple[str, str] | None:
    from keezbord.engine.notation import Step
    from keezbord.engine.position import NEST, location_hole
    from keezbord.host.referee.recognize import pos_sig

    if kind is None:
        return None
    topo = pos.topology
    empty = [f"T{i}" for i in range(topo.ring) if f"T{i}" not in board]

    def ok(src: str, dst: str) -> bool:
        th, nests = pos_sig(pos)
        return src in board and dst in empty and ((th - {src}) | {dst}, nests) not in legal

    if kind == "off_by_one":
        part = move.parts[0]
        if isinstance(part, Step) and part.frm != NEST and 0 <= part.to < 10_000:
            src = location_hole(topo, part.seat, part.frm).name
            for d in (1, -1, 2):
                dst = f"T{(part.to + d) % topo.ring}"
                if ok(src, dst):
                    return src, dst
        return None
    seat = pos.controlled_seat(pos.turn)
    mine = sorted(
        h
        for h in board
        if h[0] == "T" and pos.track[int(h[1:])] >= 0 and pos.track[int(h[1:])] % 16 == seat
    )
    for _ in range(20):
        if not mine or not empty:
            return None
        src, dst = rng.choice(mine), rng.choice(empty)
        if ok(src, dst):
            return src, dst
    return None
