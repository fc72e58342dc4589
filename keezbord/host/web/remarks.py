"""Advice kept with its move (issue 25 item 7): the hints (hints ``full``), the answers
to "which card?" and the coach's remarks (hints ``coach``) stay in the move list beside
the move they were about; they no longer vanish with the next bot move.

A remark reveals a hand, so while the game is on only the pages that may see hands get
them (``for_role``: not spectators), and the page shows each to the seat it was for and
the referee; once the game is over everyone sees them. Kept while the host runs (the
hints are journalled as the referee's inputs; the remarks are the page's)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from keezbord.engine.text import Text
from keezbord.engine.topology import Topology
from keezbord.host.referee import known_cards
from keezbord.host.voice.spoken import words

if TYPE_CHECKING:
    from .hub import Hub


class Remarks:
    """Every remark of the game so far: ``{"at", "n", "seat", "kind", "text", "said"}``;
    ``at``: the move list's length when the remark belongs there (a hint before its move,
    the coach's remark after the move it judges), ``n``: the move it is about; ``said``:
    the text as the page's voice says it (holes and moves in words, host/voice/spoken.py)."""

    def __init__(self, topology: Topology) -> None:
        self.entries: list[dict[str, Any]] = []
        self.topology = topology

    def _add(self, at: int, n: int, seat: int, kind: str, text: Mapping[str, str]) -> None:
        said = words(self.topology, Text(str(text.get("nl", "")), str(text.get("en", ""))))
        self.entries.append(
            {"at": at, "n": n, "seat": seat, "kind": kind, "text": {**text}, "said": said.as_dict()}
        )

    def hint(self, record: Mapping[str, Any], log: Sequence[Mapping[str, Any]], n: int) -> None:
        """The referee's hint (decision "hint") for move ``n``, the one being played."""
        reason = record.get("reason")
        if isinstance(reason, Mapping):
            self._add(len(log), n, record["seat"], "hint", reason)

    def coach(self, remark: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> None:
        """The coach's remark on move ``remark["n"]``: after that move's entry (other
        moves may have come while it was searched)."""
        at = len(log)
        for e in reversed(log):
            if e["kind"] == "move" and e.get("n") == remark["n"]:
                at = e["i"] + 1
                break
        self._add(at, remark["n"], remark["seat"], "coach", remark["text"])

    def card(self, seat: int, n: int, text: Text, log: Sequence[Mapping[str, Any]]) -> None:
        """The answer to "which card?" for move ``n``."""
        self._add(len(log), n, seat, "card", text.as_dict())


def ask_card(hub: Hub, seat: int) -> None:
    """Hints ``full``: which card should ``seat`` (a person, in the simulator, before
    tapping one) play? Searched on the advisor's worker with the whole hand; the answer
    becomes a remark if the turn still stands when it comes."""
    from keezbord.engine.advice import advise  # the search: only when asked

    assert hub.sim is not None
    st = hub.session.state
    pos, hand, n = st.pos.replace(turn=seat), hub.sim.hand(seat), len(st.history) + 1
    known, playouts = known_cards(st), hub.advisor.hint_playouts(st)
    loop = hub._loop

    def show(text: Text | None) -> None:
        now = hub.session.state
        if text is not None and now.seat == seat and len(now.history) + 1 == n:
            hub.remarks.card(seat, n, text, hub.log.entries)
            hub.changed()

    def work() -> None:
        advice = advise(pos, hand, known, playouts=playouts, seed=n)
        text = None if advice is None else Text(advice.sentence("nl"), advice.sentence("en"))
        if loop is None:
            show(text)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(show, text)

    if loop is None:
        hub.advisor.run(work).result()
    else:
        hub.advisor.run(work)
