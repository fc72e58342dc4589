"""A club evening through a real Mosquitto broker: simulated boards play bot games at
speed, the tournament collects the results; faults on the way (broker restart mid-round,
a board offline for a whole round, a result reported twice, a board publishing under
another board's topic). Nothing is lost, nothing counted twice: the standings equal the
ones computed directly from the boards' journals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from club_helpers import Club, wait_for

from keezbord.engine.scoring import nk_score
from keezbord.host.club import protocol as p
from keezbord.host.club.standings import Game, standings
from keezbord.host.session import GameSession


def journal_standings(c: Club) -> list[Any]:
    """The standings computed from each board's journal and the pairings alone."""
    matches = {m.id: m for m in c.store.matches()}
    games = []
    for board, sim in c.sims.items():
        for match, game in sim.played.items():
            m = matches[match]
            assert m.board == board and m.away is not None
            session = GameSession.resume(sim.journal, game)
            try:
                st = session.state
                assert st.over, f"{board} game {game} did not end"
                pos = st.pos
                home, away = (0,), (1,)  # two seats: seat 0 is the home team
                score = nk_score(pos, timed_out=st.stopped)
                won = "" if st.winner is None else ("home" if tuple(st.winner) == home else "away")
                games.append(
                    Game(
                        m.home,
                        m.away,
                        score[home],
                        score[away],
                        pos.home_count(0),
                        pos.home_count(1),
                        won,
                    )
                )
            finally:
                session.close()
    names = {i: n for i, (n, _) in c.store.teams().items()}
    return standings(names, games)


def results_of(c: Club, round_no: int) -> int:
    ids = {m.id for m in c.store.matches(round_no) if m.away is not None}
    return len(ids & set(c.store.results()))


def test_club_evening_with_faults(club: Callable[[int, int], Club]) -> None:
    c = club(8, 4)
    t = c.tournament
    for board in c.boards:
        c.sim(board, seats=2, move_ms=25)

    # Round 1: the broker is restarted while every table is playing.
    r1 = t.pair_next(5)
    t.start_clock()
    r1_matches = {m.id for m in c.store.matches(r1)}
    wait_for(
        lambda: all(t.live.get(b, {}).get("match") in r1_matches for b in c.boards),
        what="every table playing round 1",
    )
    assert results_of(c, r1) < 4, "the games ended before the broker went down"
    c.broker.stop()
    c.broker.start()
    wait_for(lambda: results_of(c, r1) == 4, 60, "round 1's four results")

    # Round 2: tafel-2 loses the network just before its game ends and stays away
    # for the rest of round 2 and the whole of round 3.
    away = c.sims["tafel-2"]
    r2 = t.pair_next(5)
    away.on_result = lambda match, msg: (
        away.link.stop() if match.endswith(f"r{r2}-tafel-2") else None
    )
    t.start_clock()
    wait_for(lambda: results_of(c, r2) == 3, 60, "round 2's three reachable results")
    wait_for(lambda: len(away.outbox.pending()) == 1, 30, "tafel-2's result kept in its outbox")
    r2_missing = next(m for m in c.store.matches(r2) if m.board == "tafel-2")
    assert r2_missing.id not in c.store.results()

    # Another board forges tafel-2's result (and an event) under tafel-2's topic:
    # the broker's ACL drops both; tafel-1's own message behind them arrives.
    forger = c.sims["tafel-1"].link
    before = dict(t.received)
    forged = {
        "kind": "result", "board": "tafel-2", "match": r2_missing.id, "game": 1,
        "points": [99, 0], "pawns": [4, 0], "winner": "home", "timed_out": False,
        "moves": 1, "digest": "x", "id": 1,
    }  # fmt: skip
    forger.client.publish(p.board_topic("tafel-2", "result"), p.encode(forged), qos=1)
    forger.client.publish(
        p.board_topic("tafel-2", "event"), p.encode({**forged, "kind": "forged"}), qos=1
    )
    forger.send({"kind": "progress", "board": "tafel-1", "match": "sentinel", "moves": 0})
    wait_for(lambda: t.live.get("tafel-1", {}).get("match") == "sentinel", what="the sentinel")
    for leaf in ("result", "event"):
        topic = p.board_topic("tafel-2", leaf)
        assert t.received[topic] == before.get(topic, 0), f"the ACL let {topic} through"
    assert r2_missing.id not in c.store.results()

    # Round 3 is paired without tafel-2's result (it is late) and played short: the
    # clock stops the games (NK: pawns home count, no bonus).
    r3 = t.pair_next(0.02)
    for sim in c.sims.values():
        sim.move_ms = 40
    t.start_clock()
    wait_for(lambda: results_of(c, r3) == 3, 60, "round 3's results from the boards online")
    assert t.view()["late"] == [{"match": r2_missing.id, "board": "tafel-2", "round": r2}]

    # tafel-2 is back: its round-2 result arrives once, then it plays round 3.
    away.on_result = None
    away.link.start()
    wait_for(lambda: r2_missing.id in c.store.results(), 30, "tafel-2's late result")
    wait_for(lambda: results_of(c, r3) == 4, 60, "tafel-2's round-3 result")
    wait_for(lambda: not away.outbox.pending(), 30, "tafel-2's outbox acknowledged")
    late = c.store.results()[r2_missing.id]
    assert late.home_points != 99 and late.board == "tafel-2"
    assert any(r.timed_out for r in c.store.results().values())

    # A board reports the same result twice: acknowledged, counted once.
    board1 = c.sims["tafel-1"]
    dup = board1.outbox.add({"match": next(iter(board1.played))})  # the kept result
    dups = t.duplicates
    board1.link._publish_result(dup)
    board1.link._publish_result(dup)
    wait_for(lambda: t.duplicates >= dups + 2, 30, "the repeated results")

    # Nothing lost, nothing counted twice.
    assert len(c.store.results()) == 12
    got = [(r.name, r.played, r.won, r.points, r.pawns) for r in t.standings()]
    want = [(r.name, r.played, r.won, r.points, r.pawns) for r in journal_standings(c)]
    assert got == want
    assert sum(r[1] for r in got) == 24

    # A disputed result: the tournament fetches the record and replays it.
    mid = r2_missing.id
    t.ask_record(mid)
    wait_for(lambda: c.store.results()[mid].verified is not None, 30, "the replayed record")
    assert c.store.results()[mid].verified == "ok"


def test_a_result_sent_while_the_tournament_had_no_session(
    club: Callable[[int, int], Club],
) -> None:
    """The service is gone and so is its session at the broker (started afresh): the
    broker takes the board's result and has no one to give it to. The board sends it
    again until the tournament acknowledges it."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from keezbord.host.club.broker_config import tournament_password

    c = club(2, 1)
    t = c.tournament
    no = t.pair_next(5)
    t.start_clock()
    t.stop()
    wipe = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=f"keezbord-tournament-{c.store.tournament}",
        clean_session=True,  # drops the service's persistent session and its queue
    )
    wipe.username_pw_set(p.TOURNAMENT_USER, tournament_password(c.store))
    wipe.connect("127.0.0.1", c.broker.port)
    wipe.loop_start()
    wait_for(wipe.is_connected, 10, "the wiping client")
    wipe.disconnect()
    wipe.loop_stop()
    board = c.sim("tafel-1", seats=2, resend_s=0.5)
    connections: list[bool] = []
    wait_for(board.link.connected.is_set, 10, "the board's connection")
    board.link.on_connection = connections.append
    wait_for(lambda: board.outbox.pending(), 30, "the board's result in its outbox")
    match = c.store.matches(no)[0].id
    assert match not in c.store.results()
    t.start()
    wait_for(lambda: match in c.store.results(), 30, "the result sent again")
    wait_for(lambda: not board.outbox.pending(), 30, "the acknowledgement")
    assert connections == []  # no reconnect: the periodic resend brought it
    assert len(c.store.results()) == 1
