"""A board's half of a game played on two boards (issue 28, docs/remote.md).

Each board's referee checks its own board's moves; every action it decides goes into the
game's log (link_sync.py) and over MQTT (game_link.py) to the other board, which lights
a move for its own people to copy (web/away.py: the referee accepts only that move) and
applies a discard, an undo or a partner's card at once. The host of record deals (the
game's seed, a virtual deal for every seat: docs/remote.md, "The deal"), starts new
games and decides when the two disagree; the other board, the guest, takes the host's
game as it comes (the ``game`` message, retained at the broker).

Everything runs on the hub's asyncio loop; paho's thread only hands messages over
(``Hub.call_soon``). A restarted board finds its game in its journal and its log in its
store (linked_store.py), and from the journal's decisions how far the log is in effect
on its board: what its referee decided but never reached the store (a cut between the
two) is logged then, and what the other board sent but was not copied yet is lit again.
"""

from __future__ import annotations

import functools
import random
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keezbord.engine.notation import parse_move
from keezbord.engine.text import Text
from keezbord.host.club_settings import LinkSettings
from keezbord.host.events import Discard
from keezbord.host.journal import Journal
from keezbord.host.referee import setup_from_dict
from keezbord.host.sim.table import HUMAN, TABLE, SimInfo, SimStore, deal_dealer

from .game_link import GameLink
from .link_sync import LinkSync, Outcome, same
from .linked_store import LinkedStore

if TYPE_CHECKING:
    from keezbord.host.web.hub import Hub

GUEST_NO_NEW = Text(
    "het andere bord begint nieuwe spellen (het is de gastheer van dit spel)",
    "the other board starts new games (it is this game's host of record)",
)
NOT_LINKED = Text("niet in een gekoppeld spel", "not in a linked game")


def game_spec(settings: LinkSettings, base: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The host of record's new game: its id, setup (without the mode: each board has
    its own), seed and who sits at which board."""
    seats = int(base["seats"])
    mine = settings.seats or tuple(range(0, seats, 2))
    setup = {k: v for k, v in base.items() if k not in ("mode", "tags", "card_reader")}
    setup["card_reader"] = True  # cards by name: a virtual deal (the reader is unused)
    return {
        "game": uuid.uuid4().hex,
        "host": settings.board,
        "setup": setup,
        "seed": seed,
        "seats_at": [settings.board if s in mine else settings.peer for s in range(seats)],
    }


def local_game(spec: Mapping[str, Any], me: str, mode: str) -> tuple[dict[str, Any], SimInfo]:
    """This board's setup and virtual deal of a linked game (ValueError if ``spec`` is
    not one: it comes from the other board)."""
    setup = {**dict(spec["setup"]), "mode": mode, "type": "setup"}
    parsed = setup_from_dict(setup)  # a TraceError (ValueError) if it is no setup
    seats_at = spec["seats_at"]
    seed = spec["seed"]
    if (
        not isinstance(seats_at, list)
        or len(seats_at) != parsed.position.seats
        or me not in seats_at
        or not isinstance(seed, int)
    ):
        raise ValueError("not a linked game for this board")
    where = [TABLE if b == me else str(b) for b in seats_at]
    info = SimInfo(seed, [HUMAN] * len(where), setup.get("teams"), {}, where)
    setup["dealer"] = deal_dealer(len(where), parsed.position.profile.name, info)
    return setup, info


def action_of(record: Mapping[str, Any], shown: tuple[str, ...]) -> dict[str, Any] | None:
    """A referee decision as an action of the log (None: not one)."""
    kind = record.get("type")
    if kind == "move":
        return {"kind": "move", "seat": record["seat"], "move": record["move"]}
    if kind == "discard" and record.get("ok"):
        return {"kind": "discard", "seat": record["seat"], "cards": list(shown)}
    if kind == "undo" and record.get("ok") and record.get("move"):
        return {"kind": "undo"}  # (a second card taken back undoes no move)
    return None


def journal_actions(journal: Journal, game: int) -> list[dict[str, Any]]:
    """The actions a game's referee decided, in order, from its journal."""
    out = []
    for decision, cause in journal.iter_decided(game):
        cards = tuple(cause.get("cards") or ()) if cause.get("type") == "discard" else ()
        act = action_of(decision, cards)
        if act is not None:
            out.append(act)
    return out


def deal_of(db: Path, game: int) -> SimInfo | None:
    """The virtual deal the journal ``db`` keeps for ``game`` (None: none)."""
    sims = SimStore(db)
    try:
        return sims.load(game)
    finally:
        sims.close()


class LinkedBoard:
    def __init__(
        self,
        hub: Hub,
        settings: LinkSettings,
        store: LinkedStore,
        mode: str,
        base: Mapping[str, Any],
    ) -> None:
        self.hub, self.settings, self.store = hub, settings, store
        self.me, self.peer, self.host = settings.board, settings.peer, settings.host
        self.mode, self.base = mode, dict(base)
        self.sync: LinkSync | None = None
        self.spec: dict[str, Any] | None = None
        self.peer_online = False
        self._pumping = False
        self._rolling = 0
        self.link = GameLink(
            settings,
            lambda leaf, msg: hub.call_soon(functools.partial(self._on_message, leaf, msg)),
            lambda up: hub.call_soon(functools.partial(self._on_connection, up)),
            lambda: hub.call_soon(self._resend),
        )
        found = store.latest()
        if found is not None and found[1] == hub.session.game:
            self._bind(found[0], found[2])
        hub.observers.append(self._decided)
        hub.away.peer = self
        hub.away.on_start.append(self.start)  # once the hub's loop runs: messages need it
        hub.away.on_stop.append(self.stop)

    def start(self) -> None:
        self.link.start()
        self.hub.call_soon(self._pump)

    def stop(self) -> None:
        self.link.stop()
        self.store.close()

    # -- the game and its log --------------------------------------------------------

    def _bind(self, game: str, spec: dict[str, Any]) -> None:
        """Play ``game`` (the hub's session is its journal game): its log from the store,
        in effect as far as the journal says."""
        entries, acked = self.store.entries(game)
        sync = LinkSync(
            self.me, self.peer, self.host, game, self.store.log_of(game), entries, acked
        )
        sync.connected = self.link.connected.is_set()
        sync.peer_online = self.peer_online
        self.sync, self.spec = sync, spec
        hub = self.hub
        for act in journal_actions(hub.session.journal, hub.session.game):
            while (nxt := sync.next_to_apply()) is not None and nxt.action["kind"] == "give":
                sync.applied_one()  # a partner's card is in the deal's table already
            nxt = sync.next_to_apply()
            if nxt is None:
                sync.decided(act)  # decided here, cut off before the store had it
            elif same(nxt.action, act):
                sync.applied_one()
            else:
                sync.broken = f"the journal and the log differ at entry {nxt.seq}"
                print(f"keezbord: link: {sync.broken}", flush=True)
                break

    def _adopt(self, spec: dict[str, Any]) -> None:
        """The host of record's game (a guest): started here, once."""
        game = spec.get("game")
        if not isinstance(game, str) or (self.sync is not None and self.sync.game == game):
            return
        try:
            setup, info = local_game(spec, self.me, self.mode)
        except (ValueError, KeyError, TypeError) as e:
            print(f"keezbord: link: the other board's game is not one for us: {e}", flush=True)
            return
        self.store.add_game(game, spec)
        self.hub.start_game(setup, info)
        self.store.bind(game, self.hub.session.game)
        self._bind(game, spec)
        if self.sync is not None and self.link.connected.is_set():
            self._send(self.sync.up())

    def new_game(self, msg: Mapping[str, Any]) -> Text | None:
        """The referee's "new game" on the host of record: a new linked game for both
        (the refusal on the guest)."""
        if not self.host:
            return GUEST_NO_NEW
        base = dict(self.base)
        for key in ("profile", "hints"):
            if isinstance(msg.get(key), str):
                base[key] = msg[key]
        spec = game_spec(self.settings, base, random.randrange(2**31))
        self.store.add_game(spec["game"], spec)
        setup, info = local_game(spec, self.me, self.mode)
        self.hub.start_game(setup, info)
        self.store.bind(spec["game"], self.hub.session.game)
        self._bind(spec["game"], spec)
        self._publish_game()
        self.hub.away.replan()
        return None

    def _publish_game(self) -> None:
        if self.host and self.spec is not None:
            self.link.publish("game", self.spec, retain=True)

    # -- web/away.py's Peer --------------------------------------------------------------

    def in_step(self) -> bool:
        return self.sync is not None and self.sync.in_step()

    def gave(self, seat: int, card: str) -> None:
        if self.sync is not None:
            self._send(self.sync.decided({"kind": "give", "seat": seat, "card": card}).send)

    def view(self) -> dict[str, Any]:
        sync = self.sync
        return {
            "board": self.me,
            "peer": self.peer,
            "host": self.spec.get("host") if self.spec else (self.me if self.host else self.peer),
            "connected": self.link.connected.is_set(),
            "peer_online": self.peer_online,
            "in_step": self.in_step(),
            "to_copy": 0 if sync is None else len(sync.log) - sync.applied,
            "unacked": 0 if sync is None else len(sync.unacked()),
            "entries": 0 if sync is None else len(sync.log),
            "broken": None if sync is None else sync.broken,
        }

    # -- the loop ------------------------------------------------------------------------

    def _send(self, msgs: list[tuple[str, dict[str, Any]]]) -> None:
        for leaf, msg in msgs:
            self.link.publish(leaf, msg)

    def _on_connection(self, up: bool) -> None:
        if up:
            self._publish_game()
            if self.sync is not None:
                self._send(self.sync.up())
        elif self.sync is not None:
            self.sync.down()
        self.hub.away.replan()
        self.hub.changed()

    def _resend(self) -> None:
        if self.sync is not None:
            self._send(self.sync.resend())

    def _on_message(self, leaf: str, msg: dict[str, Any]) -> None:
        if leaf == "status":
            self.peer_online = msg.get("online") is True
        if leaf == "game":
            if not self.host and msg.get("host") == self.peer:
                self._adopt(msg)
        elif self.sync is not None and (leaf == "status" or msg.get("game") == self.sync.game):
            out = self.sync.receive(leaf, msg)
            self._send(out.send)
            self._roll_back(out)
        self._pump()
        self.hub.away.replan()
        self.hub.changed()

    def _roll_back(self, out: Outcome) -> None:
        """The guest's own entries that lost a race: taken back on its board."""
        for entry in reversed(out.rollback):
            if entry.action["kind"] != "move":
                if self.sync is not None:
                    self.sync.broken = (
                        f"entry {entry.seq} ({entry.action['kind']}) cannot be undone"
                    )
                return
            self._rolling += 1
            try:
                self.hub.undo()
            finally:
                self._rolling -= 1

    def _decided(self, records: list[dict[str, Any]]) -> None:
        if self.sync is None or self._rolling:
            return
        for r in records:
            act = action_of(r, self.hub.shown)
            if act is not None:
                self._send(self.sync.decided(act).send)
        self._pump()

    def _pump(self) -> None:
        """Apply the other board's entries in order: a move is lit for the people here
        (and waits for them), the rest takes effect at once."""
        if self._pumping or self.sync is None:
            return
        self._pumping = True
        hub, sync = self.hub, self.sync
        try:
            while (nxt := sync.next_to_apply()) is not None and nxt.by != self.me:
                if sync.broken is not None:
                    break
                a, before = nxt.action, sync.applied
                if a["kind"] == "give":
                    self._give(int(a["seat"]), str(a["card"]))
                    sync.applied_one()
                    continue
                if a["kind"] == "undo":
                    hub.undo()
                elif a["kind"] == "discard":
                    hub.feed(Discard(hub.now(), tuple(a["cards"])))
                elif hub.away.lit_move() is None:
                    st = hub.session.state
                    if st.seat != a["seat"]:
                        sync.broken = f"entry {nxt.seq}: seat {a['seat']} is not to play here"
                        break
                    hub.away.light(parse_move(str(a["move"]), st.pos.topology))
                    break
                else:
                    break  # lit: the people at the table carry it out
                if sync.applied == before:  # the referee did not take it
                    sync.broken = f"entry {nxt.seq} ({a['kind']}) was refused here"
        finally:
            self._pumping = False
        if sync.broken is not None:
            print(f"keezbord: link: out of step: {sync.broken}", flush=True)

    def _give(self, seat: int, card: str) -> None:
        sim = self.hub.sim
        if sim is None:
            return
        try:
            sim.give(seat, card)
        except ValueError:
            return  # given already (a restart replays the log's cards)
        self.hub.log.exchanges(sim, self.hub.session.state)
