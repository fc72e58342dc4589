"""Issue 28, safe to put on the internet: what each link may do, through the real
websocket and HTTP endpoints of a real board's hub with a virtual deal and two remote
seats. A remote seat's link can do nothing beyond what its own seat's player may do: no
other seat's cards, nothing off its turn, none of the referee's or the table's controls,
never another hand; failed token attempts are rate-limited; a revoked link stops at
once."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_protocol import answer, hello, until
from web_helpers import REMOTE_TOKENS, remote_hub, ws_path

from keezbord.engine.game import Game
from keezbord.host.roles import (
    REFEREE_ACTIONS,
    REMOTE_ACTIONS,
    Access,
    Attempts,
    Role,
    Tokens,
    access_of,
    may,
    remote_may,
)
from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# Every message a page can send (docs/web.md), and one nobody knows.
EVERY = sorted(
    {"lift", "place", "card", "discard", "fix", "give", "hint", "show", "moves", "play"}
    | REFEREE_ACTIONS
    | {"something_new"}
)


def seed_where(first: int) -> int:
    """A deck seed whose first player is seat ``first``, holding a card that can play."""
    for s in range(500):
        g = Game(4, "standard", s)
        if g.table.turn == first and {"A", "K"} & set(g.hands[first]):
            return s
    raise AssertionError("no such seed")


def test_each_token_gives_its_role_and_a_remote_token_its_seat() -> None:
    t = REMOTE_TOKENS
    assert access_of(t, "referee-token") == Access(Role.REFEREE)
    assert access_of(t, "player-token") == Access(Role.PLAYER)
    assert access_of(t, "seat1-token") == Access(Role.REMOTE, 1)
    assert access_of(t, "seat3-token") == Access(Role.REMOTE, 3)
    for given in (None, "", "seat1-toke", "seat1-token ", 1, ["seat1-token"], "sëat1-token"):
        assert access_of(t, given) == Access(Role.SPECTATOR)
    fresh = Tokens.new((1,))
    assert all(len(x) >= 24 for x in (fresh.referee, fresh.player, fresh.seat(1) or ""))
    assert fresh.with_seat(1).seat(1) != fresh.seat(1)  # made new: the old link stops
    assert fresh.without_seat(1).seat(1) is None


def test_a_remote_seat_may_only_its_own_seats_actions_on_its_turn() -> None:
    me = Access(Role.REMOTE, 1)
    for action in EVERY:
        assert may(Role.REMOTE, action) == (action in REMOTE_ACTIONS), action
        assert not remote_may(me, action, to_play=0), action  # not its turn: nothing
    for action in ("moves", "play", "discard"):
        assert remote_may(me, action, to_play=1)
        assert not remote_may(Access(Role.REMOTE, 3), action, to_play=1)  # another seat's
        assert not remote_may(Access(Role.PLAYER), action, to_play=1)
    assert remote_may(me, "give", to_play=0, giving=(1, 3))  # the exchange: its own card
    assert not remote_may(me, "give", to_play=1, giving=(3,))
    assert not remote_may(me, "play", to_play=1, giving=(1,))  # give first


def _app(tmp_path: Path, seed: int, **kw: Any) -> Any:
    return create_app(remote_hub(tmp_path / "j.sqlite", seed, **kw))


def hub_of(client: Any) -> Hub:
    hub: Hub = client.app.state.hub
    return hub


def _inputs(client: Any) -> int:
    return hub_of(client).session.seq


def test_a_remote_link_is_refused_everything_else(tmp_path: Path) -> None:
    seed = seed_where(0)  # seat 0, at the table, plays first: seat 1 waits
    with TestClient(_app(tmp_path, seed)) as client:
        hub = hub_of(client)
        with client.websocket_connect(ws_path(Role.REMOTE, REMOTE_TOKENS, 1)) as ws:
            h, state = hello(ws)
            assert h["role"] == "remote" and state["role"] == "remote"
            hand = state["hand"]
            assert hand["seat"] == 1 and hand["cards"] == hub.sim.hand(1)  # type: ignore[union-attr]
            before = _inputs(client)
            for i, kind in enumerate(EVERY):
                ws.send_json({"type": kind, "id": i, "card": hand["cards"][0], "seat": 1,
                              "hole": "N1.1", "move": "K 1:N-S", "link": "player"})  # fmt: skip
                reply = answer(ws)
                assert reply["type"] == "error", (kind, reply)
            assert _inputs(client) == before  # nothing reached the referee
            assert hub.opts.tokens == REMOTE_TOKENS  # nor the links
        # The players' link (the board's screen) never shows a remote seat's hand, nor
        # plays one of its cards.
        with client.websocket_connect(ws_path(Role.PLAYER, REMOTE_TOKENS)) as ws:
            _, state = hello(ws)
            assert state["hand"]["seat"] == 0
            assert "_remote_hands" not in state
            assert [p["where"] for p in state["players"]] == ["table", "remote", "table", "remote"]


def test_on_its_turn_a_remote_seat_asks_its_own_cards_moves(tmp_path: Path) -> None:
    seed = seed_where(1)
    with TestClient(_app(tmp_path, seed)) as client:
        hub = hub_of(client)
        assert hub.sim is not None
        mine, theirs = hub.sim.hand(1), hub.sim.hand(3)
        with client.websocket_connect(ws_path(Role.REMOTE, REMOTE_TOKENS, 1)) as ws:
            hello(ws)
            playable = hub.sim.playable(1)
            card = playable[0]
            ws.send_json({"type": "moves", "card": card, "id": 1})
            reply = _reply(ws)
            assert reply["type"] == "moves" and reply["id"] == 1 and reply["moves"]
            assert all(m["move"].startswith(card) and m["text"]["nl"] for m in reply["moves"])
            stranger = next((c for c in theirs if c not in mine), None)
            if stranger is not None:  # another seat's card: not this link's
                ws.send_json({"type": "moves", "card": stranger, "id": 2})
                assert _reply(ws)["type"] == "error"
            ws.send_json({"type": "play", "move": "K 0:N-S", "id": 3})  # seat 0's pawn
            assert _reply(ws)["type"] == "error"
        # Seat 3's link, while seat 1 is to play: not its turn.
        with client.websocket_connect(ws_path(Role.REMOTE, REMOTE_TOKENS, 3)) as ws:
            _, state = hello(ws)
            assert state["hand"]["cards"] == theirs and state["hand"]["active"] is False
            ws.send_json({"type": "moves", "card": theirs[0], "id": 4})
            assert _reply(ws)["text"]["en"] == "it is not your turn"


def test_failed_attempts_are_rate_limited(tmp_path: Path) -> None:
    now = [0.0]
    tries = Attempts(limit=5, window_s=60, clock=lambda: now[0], pace_s=2)
    app = create_app(remote_hub(tmp_path / "j.sqlite", seed_where(0)), attempts=tries)
    with TestClient(app) as client:
        assert client.get("/api/state?token=referee-token").json()["role"] == "referee"
        for i in range(5):
            assert client.get(f"/api/state?token=guess{i}").json()["role"] == "spectator"
        # Tripped: a token is checked once per 2 s, the rest refused unchecked.
        assert client.get("/api/state?token=guess5").json()["role"] == "spectator"
        r = client.get("/api/state?token=referee-token")
        assert r.status_code == 429 and "try again" in r.json()["error"]["en"]
        with client.websocket_connect("/ws?token=seat1-token") as ws:
            assert ws.receive_json()["text"]["en"].startswith("too many wrong links")
        assert client.get("/api/state").status_code == 200  # watching needs no token
        # The right token is not locked out (issue 37): at its next turn it gets in.
        now[0] += 2.5
        assert client.get("/api/state?token=referee-token").json()["role"] == "referee"
        assert client.get("/api/state?token=guess6").status_code == 429  # a guess waits
        now[0] += 61
        assert client.get("/api/state?token=referee-token").json()["role"] == "referee"
        assert client.get("/api/state?token=guess7").json()["role"] == "spectator"


def test_the_limit_counts_each_wrong_token_once_and_all_addresses_together() -> None:
    now = [0.0]
    t = Attempts(limit=10, window_s=60, clock=lambda: now[0], pace_s=2, limit_all=30)
    for _ in range(50):  # a revoked link's page reconnecting every second: one token
        t.failed("10.0.0.2", "old-token")
        now[0] += 1
    assert not t.blocked("10.0.0.2")
    for i in range(10):  # ten different guesses: a guesser
        t.failed("10.0.0.3", f"guess{i}")
    assert t.blocked("10.0.0.3") and not t.blocked("10.0.0.4")
    for i in range(30):  # one guess from each of many addresses: all of them together
        t.failed(f"10.1.0.{i}", f"spread{i}")
    assert t.blocked("10.9.9.9")  # a fresh address is paced too
    assert t.may_check("10.9.9.9") and not t.may_check("10.9.9.9")
    now[0] += 2.1
    assert t.may_check("10.9.9.9")  # its right token would get in at its next turn
    now[0] += 61
    assert not t.blocked("10.9.9.9") and t.wait_s("10.9.9.9") == 0


def test_a_revoked_link_stops_at_once(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, seed_where(0))) as client:
        hub = hub_of(client)
        with (
            client.websocket_connect(ws_path(Role.REFEREE, REMOTE_TOKENS)) as ref,
            client.websocket_connect(ws_path(Role.PLAYER, REMOTE_TOKENS)) as player,
            client.websocket_connect(ws_path(Role.REMOTE, REMOTE_TOKENS, 3)) as seat3,
        ):
            hello(ref), hello(player), hello(seat3)
            ref.send_json({"type": "links", "id": 1})
            links = ref.receive_json()
            while links["type"] != "links":
                links = ref.receive_json()
            assert links["player"] == "player-token" and links["seats"] == {
                "1": "seat1-token", "3": "seat3-token"
            }  # fmt: skip
            ref.send_json({"type": "renew", "link": "player", "id": 2})
            _until_type(player, "revoked")
            new = hub.opts.tokens
            assert new is not None and new.player != "player-token" and len(new.player) >= 24
            assert client.get("/api/state?token=player-token").json()["role"] == "spectator"
            assert client.get(f"/api/state?token={new.player}").json()["role"] == "player"
            # Seat 3 back to the table: its link stops too.
            ref.send_json({"type": "seat_at", "seat": 3, "where": "table", "id": 3})
            _until_type(seat3, "revoked")
            assert hub.sim is not None and hub.sim.where(3) == "table"
            assert hub.opts.tokens is not None and hub.opts.tokens.seat(3) is None
            # And given away again: a new link.
            ref.send_json({"type": "seat_at", "seat": 3, "where": "remote", "id": 4})
            until(ref, lambda s: s["players"][3]["where"] == "remote")
            assert hub.opts.tokens.seat(3) not in (None, "seat3-token")


def _reply(ws: Any) -> dict[str, Any]:
    """The answer to the last message sent (states broadcast meanwhile skipped: the
    referee's hold, fed as the game starts, changes the state)."""
    return _until_type(ws, "moves", "error")


def _until_type(ws: Any, *kinds: str) -> dict[str, Any]:
    for _ in range(200):
        msg: dict[str, Any] = ws.receive_json()
        if msg.get("type") in kinds:
            return msg
    raise AssertionError(f"no {kinds}")


def test_only_the_referee_hands_out_links(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, seed_where(0))) as client:
        for path in (ws_path(Role.PLAYER, REMOTE_TOKENS), "/ws"):
            with client.websocket_connect(path) as ws:
                hello(ws)
                for kind in ("links", "renew", "seat_at"):
                    ws.send_json({"type": kind, "link": "referee", "seat": 1, "where": "table"})
                    reply = _until_type(ws, "error")
                    assert "referee" in reply["text"]["en"]
        hub = hub_of(client)
        assert hub.opts.tokens == REMOTE_TOKENS


def test_kept_remarks_reveal_no_hand_across_the_distance() -> None:
    """A hint kept with its move names that seat's cards (web/remarks.py): a remote
    seat's link sees its own seat's only, the table's links none of a remote seat's."""
    from keezbord.host.web.page import for_role

    players = [{"seat": s, "where": "remote" if s == 1 else "table"} for s in range(4)]
    remarks = [
        {"at": i, "n": i, "seat": s, "kind": "hint", "text": {}} for i, s in enumerate([0, 1, 2, 1])
    ]
    state = {"players": players, "remarks": remarks, "exchange_cards": {}, "log": []}

    def seats(got: dict[str, Any]) -> list[int]:
        return [r["seat"] for r in got["remarks"]]

    assert seats(for_role(state, Role.REMOTE, 1)) == [1, 1]
    assert seats(for_role(state, Role.PLAYER)) == [0, 2]
    assert seats(for_role(state, Role.REFEREE)) == [0, 2]
    table_only = {**state, "players": [{**p, "where": "table"} for p in players]}
    assert seats(for_role(table_only, Role.PLAYER)) == [0, 1, 2, 1]
