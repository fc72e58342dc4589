"""Two linked boards keeping one game's log in step (docs/remote.md, "How it works").

The game is a log of actions (link_protocol.py), numbered from 1, the same on both
boards. Each board adds the actions its own referee decided (a move of a seat at its
table, a discard, an undo, a partner's card) and copies the other's: a move is lit for
its people to carry out, the rest is applied at once. Every entry is kept (``LogStore``,
a SQLite file next to the journal: linked_store.py) before it is sent, sent again on every
reconnect and every few seconds until the other board acknowledges it, and an entry that
comes twice is taken once: nothing is lost or doubled, whatever the link does.

A board may let its own seats play only when it is **in step**: connected, the other
board online, every entry of the other's copied here and every one of its own
acknowledged there. Otherwise its referee holds (web/away.py): moves made at its table
are refused and the players see "waiting for the other board".

The host of record decides when the two disagree: two entries for the same number (a
race: an undo on one board as a move is made on the other) keep the host's; the guest
is told (``reject``), takes its own back (its referee's undo) and copies the host's.

Pure: no MQTT, no time; messages out are returned, the store is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import link_protocol as lp

Action = Mapping[str, Any]
Message = tuple[str, dict[str, Any]]  # (leaf, message)


@dataclass(frozen=True)
class Entry:
    seq: int
    by: str  # the board whose referee decided it
    action: Action

    def message(self, game: str) -> dict[str, Any]:
        return {"game": game, "seq": self.seq, "by": self.by, "action": dict(self.action)}


class LogStore(Protocol):
    """Where a board keeps its log (linked_store.py; a list in tests)."""

    def append(self, entry: Entry) -> None: ...

    def truncate(self, keep: int) -> None:
        """Keep the first ``keep`` entries."""

    def set_acked(self, seq: int) -> None: ...


def same(a: Action, b: Action) -> bool:
    """Whether two actions are one: a lit move carried out here is the other's entry."""
    if a.get("kind") != b.get("kind"):
        return False
    kind = a.get("kind")
    if kind == "undo":
        return True
    if a.get("seat") != b.get("seat"):
        return False
    if kind == "move":
        return a.get("move") == b.get("move")
    if kind == "discard":
        return sorted(a.get("cards") or []) == sorted(b.get("cards") or [])
    return a.get("card") == b.get("card")


@dataclass
class Outcome:
    """What a message or an action asks of the board."""

    send: list[Message] = field(default_factory=list)
    rollback: list[Entry] = field(default_factory=list)  # own entries to take back, newest last


class LinkSync:
    def __init__(
        self,
        me: str,
        peer: str,
        host: bool,
        game: str,
        store: LogStore,
        log: list[Entry] | None = None,
        acked: int = 0,
    ) -> None:
        self.me, self.peer, self.host, self.game = me, peer, host, game
        self.store = store
        self.log: list[Entry] = list(log or [])
        self.acked = min(acked, len(self.log))  # the other board keeps entries up to here
        self.applied = 0  # entries in effect on this board (its referee's, or copied)
        self.connected = False
        self.peer_online = False
        self.broken: str | None = None  # a disagreement nobody can settle: says what

    # -- what the board may do -------------------------------------------------------

    def in_step(self) -> bool:
        return (
            self.connected
            and self.peer_online
            and self.broken is None
            and self.applied == len(self.log)
            and not self.unacked()
        )

    def unacked(self) -> list[Entry]:
        return [e for e in self.log[self.acked :] if e.by == self.me]

    def next_to_apply(self) -> Entry | None:
        return self.log[self.applied] if self.applied < len(self.log) else None

    # -- this board's referee --------------------------------------------------------

    def decided(self, action: Action) -> Outcome:
        """An action this board's referee decided: the entry being copied (a lit move
        carried out, the other board's discard or undo applied), or one of its own, added
        to the log and sent."""
        nxt = self.next_to_apply()
        if nxt is not None and nxt.by != self.me and same(nxt.action, action):
            self.applied += 1
            return Outcome()
        if nxt is not None:
            # Decided here while the other board's entry waits: the two boards no
            # longer tell one story (the referee holds, so only a bug comes here).
            self.broken = f"entry {nxt.seq} of {nxt.by} waits, yet this board decided {action}"
            return Outcome()
        entry = Entry(len(self.log) + 1, self.me, dict(action))
        self.store.append(entry)
        self.log.append(entry)
        self.applied = len(self.log)
        return Outcome([("log", entry.message(self.game))])

    def applied_one(self) -> None:
        """The next entry (a give, applied without the referee) is in effect."""
        self.applied = min(len(self.log), self.applied + 1)

    # -- the link --------------------------------------------------------------------

    def hello(self) -> Message:
        return ("hello", {"game": self.game, "have": len(self.log)})

    def resend(self) -> list[Message]:
        """Own entries not acknowledged yet (every few seconds, and on reconnect)."""
        return [("log", e.message(self.game)) for e in self.unacked()]

    def up(self) -> list[Message]:
        self.connected = True
        return [self.hello(), *self.resend()]

    def down(self) -> None:
        self.connected = False

    def receive(self, leaf: str, msg: Mapping[str, Any]) -> Outcome:
        """One message of the other board (its game's: the caller checks ``game``)."""
        if leaf == "status":
            self.peer_online = msg.get("online") is True
            return Outcome()
        if leaf == "ack":
            seq = lp.seq_of(msg.get("seq"))
            if seq is not None:
                self._acked(min(seq, len(self.log)))
            return Outcome()
        if leaf == "hello":
            have = lp.seq_of(msg.get("have"))
            if have is None:
                return Outcome()
            self.peer_online = True  # it says hello: it is there
            if have < self.acked:  # it lost what it had acknowledged (a store deleted)
                self._acked(have, force=True)
            out = Outcome([("log", e.message(self.game)) for e in self.log[have:]])
            if have > len(self.log):
                out.send.append(self.hello())  # it has more: ask for it
            return out
        if leaf == "reject":
            seq = lp.seq_of(msg.get("seq"))
            if self.host or seq is None or seq < 1:
                return Outcome()
            return Outcome(rollback=self._take_back(seq))
        if leaf == "log":
            return self._entry(msg)
        return Outcome()

    def _acked(self, seq: int, force: bool = False) -> None:
        if seq > self.acked or force:
            self.acked = seq
            self.store.set_acked(seq)

    def _take_back(self, seq: int) -> list[Entry]:
        """The guest's own entries from ``seq`` on lost the race: cut from the log."""
        gone = self.log[seq - 1 :]
        if any(e.by != self.me for e in gone):
            self.broken = f"entry {seq}: the other board's entries would be lost"
            return []
        if gone:
            self.store.truncate(seq - 1)
            del self.log[seq - 1 :]
            self.applied = min(self.applied, seq - 1)
            self.acked = min(self.acked, seq - 1)
        return gone

    def _entry(self, msg: Mapping[str, Any]) -> Outcome:
        seq, by, action = lp.seq_of(msg.get("seq")), msg.get("by"), msg.get("action")
        if seq is None or seq < 1 or by not in (self.me, self.peer) or not lp.valid_action(action):
            return Outcome()
        assert isinstance(action, Mapping)
        entry = Entry(seq, str(by), dict(action))
        ack = ("ack", {"game": self.game, "seq": len(self.log)})
        if seq > len(self.log) + 1:  # a gap: ask for what is missing
            return Outcome([self.hello()])
        if seq <= len(self.log):
            mine = self.log[seq - 1]
            if mine.by == entry.by and same(mine.action, entry.action):
                return Outcome([ack])  # had it already: acknowledged again, kept once
            return self._conflict(seq, mine, entry)
        own = entry.by == self.me and self.applied == len(self.log)
        self.store.append(entry)
        self.log.append(entry)
        if own:  # one of our own we no longer had (a store lost): in effect here already
            self.applied = len(self.log)
        return Outcome([("ack", {"game": self.game, "seq": len(self.log)})])

    def _conflict(self, seq: int, mine: Entry, theirs: Entry) -> Outcome:
        """Two entries for one number: the host of record's stands."""
        if self.host:
            if mine.by != self.me:
                self.broken = f"entry {seq}: the other board changed its own entry"
                return Outcome()
            resend = [("log", e.message(self.game)) for e in self.log[seq - 1 :]]
            return Outcome([("reject", {"game": self.game, "seq": seq}), *resend])
        if theirs.by != self.peer or mine.by != self.me:
            self.broken = f"entry {seq}: the boards disagree"
            return Outcome()
        gone = self._take_back(seq)
        if self.broken is not None:
            return Outcome()
        self.store.append(theirs)
        self.log.append(theirs)
        return Outcome([("ack", {"game": self.game, "seq": len(self.log)})], rollback=gone)
