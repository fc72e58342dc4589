"""Two linked boards' logs in step (club/link_sync.py) through a network that drops,
doubles, delays and reorders messages, with boards that go offline and restart from
their stores: the logs end identical, no action lost or doubled; races for one number
keep the host of record's entry."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from keezbord.host.club.link_sync import Entry, LinkSync, Outcome, same


@dataclass
class ListStore:
    entries: list[Entry] = field(default_factory=list)
    acked: int = 0

    def append(self, entry: Entry) -> None:
        assert entry.seq == len(self.entries) + 1
        self.entries.append(entry)

    def truncate(self, keep: int) -> None:
        del self.entries[keep:]

    def set_acked(self, seq: int) -> None:
        self.acked = seq


@dataclass
class Board:
    name: str
    host: bool
    store: ListStore = field(default_factory=ListStore)
    sync: LinkSync | None = None
    done: list[dict[str, Any]] = field(default_factory=list)  # actions in effect, in order

    def open(self, peer: str) -> None:
        """(Re)start from the store, as a board does after a restart."""
        self.sync = LinkSync(
            self.name, peer, self.host, "g1", self.store, list(self.store.entries),
            self.store.acked,
        )  # fmt: skip
        self.sync.applied = len(self.done)  # the journal says what is in effect

    def apply_pending(self) -> None:
        """Copy the other's entries, as the people at the table carry out lit moves."""
        assert self.sync is not None
        while (nxt := self.sync.next_to_apply()) is not None and nxt.by != self.name:
            self.done.append(dict(nxt.action))
            assert self.sync.decided(nxt.action).send == []


class Net:
    """Messages in flight, each delivered later, maybe twice, maybe never."""

    def __init__(self, rng: random.Random, loss: float) -> None:
        self.rng, self.loss = rng, loss
        self.flight: list[tuple[str, str, dict[str, Any]]] = []

    def send(self, to: str, out: Outcome | list[tuple[str, dict[str, Any]]]) -> None:
        msgs = out.send if isinstance(out, Outcome) else out
        for leaf, msg in msgs:
            if self.rng.random() < self.loss:
                continue
            self.flight.append((to, leaf, msg))
            if self.rng.random() < 0.1:
                self.flight.append((to, leaf, msg))  # delivered twice

    def deliver_one(self) -> tuple[str, str, dict[str, Any]] | None:
        if not self.flight:
            return None
        return self.flight.pop(self.rng.randrange(len(self.flight)))


def _play(seed: int, steps: int, loss: float) -> tuple[Board, Board]:
    rng = random.Random(seed)
    a, b = Board("oma", True), Board("thuis", False)
    boards = {"oma": a, "thuis": b}
    peer = {"oma": "thuis", "thuis": "oma"}
    for x in boards.values():
        x.open(peer[x.name])
    net = Net(rng, loss)

    def online(x: Board, up: bool) -> None:
        assert x.sync is not None
        if up:
            net.send(peer[x.name], x.sync.up())
            other = boards[peer[x.name]].sync
            assert other is not None
            other.receive("status", {"online": True})
            x.sync.receive("status", {"online": True})
        else:
            x.sync.down()
            other = boards[peer[x.name]].sync
            assert other is not None
            other.receive("status", {"online": False})

    for x in boards.values():
        online(x, True)
    made = 0
    for _ in range(steps):
        roll = rng.random()
        who = boards[rng.choice(["oma", "thuis"])]
        assert who.sync is not None
        if roll < 0.35:  # a turn: the board whose seats play acts, when it may
            who.apply_pending()
            # Turns alternate between the boards' seats (the host's seat first): only
            # the board whose seat is to play after the log it has acts.
            turn = "oma" if len(who.sync.log) % 2 == 0 else "thuis"
            if who.sync.in_step() and turn == who.name:
                action = {"kind": "move", "seat": 0 if who.host else 1, "move": f"m{made}"}
                made += 1
                who.done.append(action)
                net.send(peer[who.name], who.sync.decided(action))
        elif roll < 0.8:
            got = net.deliver_one()
            if got is not None:
                to, leaf, msg = got
                dst = boards[to].sync
                assert dst is not None
                if dst.connected:
                    out = dst.receive(leaf, msg)
                    assert out.rollback == []  # no races here: one board at a time
                    net.send(peer[to], out)
        elif roll < 0.88:
            net.send(peer[who.name], who.sync.resend())
        elif roll < 0.94:
            online(who, not who.sync.connected)
        else:  # killed and started again from its store (messages in flight stay)
            who.open(peer[who.name])
            online(who, True)
    # The link heals: both online, messages flow until nothing is left to say.
    for x in boards.values():
        assert x.sync is not None
        if not x.sync.connected:
            online(x, True)
    net.loss = 0.0
    for _ in range(10_000):
        for x in boards.values():
            x.apply_pending()
            assert x.sync is not None
            net.send(peer[x.name], x.sync.resend())
        while (got := net.deliver_one()) is not None:
            to, leaf, msg = got
            dst = boards[to].sync
            assert dst is not None
            net.send(peer[to], dst.receive(leaf, msg))
        if all(x.sync is not None and x.sync.in_step() for x in boards.values()):
            break
    return a, b


@pytest.mark.parametrize("seed", range(40))
def test_lossy_link_ends_with_one_log(seed: int) -> None:
    a, b = _play(seed, 1500, loss=0.3)
    assert a.sync is not None and b.sync is not None
    assert a.sync.in_step() and b.sync.in_step()
    assert [(e.seq, e.by, e.action) for e in a.sync.log] == [
        (e.seq, e.by, e.action) for e in b.sync.log
    ]
    moves = [e.action["move"] for e in a.sync.log]
    assert len(moves) == len(set(moves))  # nothing doubled
    assert a.done == b.done == [dict(e.action) for e in a.sync.log]  # nothing lost
    assert len(moves) > 5  # the game did go on
    assert a.store.entries == a.sync.log and b.store.entries == b.sync.log


def _pair() -> tuple[LinkSync, LinkSync]:
    h = LinkSync("oma", "thuis", True, "g1", ListStore())
    g = LinkSync("thuis", "oma", False, "g1", ListStore())
    for s in (h, g):
        s.up()
        s.receive("status", {"online": True})
    return h, g


def _deliver(to: LinkSync, out: Outcome) -> Outcome:
    total = Outcome()
    for leaf, msg in out.send:
        got = to.receive(leaf, msg)
        total.send += got.send
        total.rollback += got.rollback
    return total


def test_a_race_for_one_number_keeps_the_host_of_records_entry() -> None:
    h, g = _pair()
    first = h.decided({"kind": "move", "seat": 0, "move": "K 0:N-S"})
    back = _deliver(g, first)
    g.decided({"kind": "move", "seat": 0, "move": "K 0:N-S"})  # carried out at the guest
    _deliver(h, back)
    assert h.in_step() and g.in_step()
    # At once: the host's referee undoes move 1, the guest's seat moves.
    undo = h.decided({"kind": "undo"})
    move = g.decided({"kind": "move", "seat": 1, "move": "A 1:N-S"})
    answer = _deliver(h, move)  # the host has its own entry 2: it rejects the guest's
    assert answer.send[0][0] == "reject"
    out = _deliver(g, answer)
    assert [e.action for e in out.rollback] == [{"kind": "move", "seat": 1, "move": "A 1:N-S"}]
    _deliver(g, undo)  # the host's entry 2, once more (it came with the reject too)
    assert [e.action["kind"] for e in g.log] == ["move", "undo"]
    assert [(e.by, e.action) for e in g.log] == [(e.by, e.action) for e in h.log]
    assert g.next_to_apply() is not None and g.next_to_apply() == h.log[1]


def test_a_double_is_acknowledged_and_kept_once() -> None:
    h, g = _pair()
    out = h.decided({"kind": "discard", "seat": 0, "cards": ["2", "3"]})
    first = _deliver(g, out)
    again = _deliver(g, out)
    assert first.send == again.send == [("ack", {"game": "g1", "seq": 1})]
    assert len(g.log) == 1


def test_entries_of_another_shape_are_dropped() -> None:
    _, g = _pair()
    for bad in (
        {"kind": "move", "seat": 9, "move": "K"},
        {"kind": "shell", "cmd": "rm"},
        {"kind": "discard", "seat": 0, "cards": "K"},
        "move",
    ):
        g.receive("log", {"game": "g1", "seq": 1, "by": "oma", "action": bad})
    g.receive("log", {"game": "g1", "seq": 1, "by": "mallory", "action": {"kind": "undo"}})
    assert g.log == []


def test_the_copy_of_an_entry_is_not_a_new_one() -> None:
    h, g = _pair()
    _deliver(g, h.decided({"kind": "move", "seat": 0, "move": "7 0:T1-T4 0:T8-T12"}))
    assert not g.in_step()  # the lit move waits for the people at the table
    assert g.decided({"kind": "move", "seat": 0, "move": "7 0:T1-T4 0:T8-T12"}).send == []
    assert g.in_step() and len(g.log) == 1
    assert same({"kind": "discard", "seat": 1, "cards": ["K", "2"]},
                {"kind": "discard", "seat": 1, "cards": ["2", "K"]})  # fmt: skip
