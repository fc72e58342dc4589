"""The voice on a hub (docs/voice.md), without a line in hub.py: an observer of the
referee's decision records (``hub.observers``, called in the game loop before the LEDs
are shown: it only schedules the words, made and ``put`` just after the frame) and a
part of the page state (``hub.views["voice"]``: the table's last utterances, which the
page's voice.js says when its sound switch is on). The board's own speaker (``[voice]``)
gets the same words through the queue; its thread plays them."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import replace
from typing import Any, Protocol

from keezbord.host.config_voice import VoiceSettings

from .narrator import Narrator, hidden
from .phrases import Utterance, coach_phrase
from .player import Player
from .queue import SpeechQueue
from .tasks import task_phrases

PAGE_KEEP = 30  # the page's view: the last utterances, each with its number


class HubLike(Protocol):
    session: Any
    observers: list[Any]
    views: dict[str, Any]
    heard: list[Any]
    sim: Any  # the simulator's table or a virtual deal: hands on pages, hidden

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None: ...  # the loop it is served on


class Voice:
    def __init__(self, hub: HubLike, queue: SpeechQueue | None = None) -> None:
        self.hub = hub
        self.queue = queue
        self.said: deque[dict[str, Any]] = deque(maxlen=PAGE_KEEP)
        self.count = 0
        self.narrator = Narrator(hub.session.state.pos.to_dict(), hub.sim is not None)
        self.tasks: dict[str, Any] = {}

    def observe(self, records: list[dict[str, Any]]) -> None:
        """Called in the hub's ``_after``, before the LED frame is shown: on the hub's
        loop the words are made just after it (``call_soon``), so the frame never waits
        for them; the state is the one of these records (states are immutable)."""
        state = self.hub.session.state
        loop = self.hub.loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        # Only the hub's own loop: another one running in this thread (a test's browser
        # driver) would hold the words until it next runs.
        if loop is None or running is not loop:
            self.words(records, state)
        else:
            loop.call_soon(self.words, records, state)

    def words(self, records: list[dict[str, Any]], state: Any) -> None:
        topo = state.pos.topology
        out: list[Utterance] = []
        for r in records:
            out += self.narrator.said(r, topo)
        for kind in ("lesson", "puzzle"):
            view = self.hub.views.get(kind)
            now = view() if view is not None else None
            out += task_phrases(kind, self.tasks.get(kind), now, topo)
            self.tasks[kind] = now
        self.narrator.before = state.pos.to_dict()  # an undo, a penalty
        for u in out:
            self.tell(u)

    def heard(self, what: str, data: Any) -> None:
        """The hub's news beyond an input's decisions (``hub.heard``): a new game (its
        opening decisions: who dealt, who begins), the coach's remark, or a lesson's or
        puzzle's view changed by a request of the page ("task": a puzzle's hint asked)."""
        state = self.hub.session.state
        if what == "task":
            self.words([], state)
        elif what == "game":
            self.narrator = Narrator(state.pos.to_dict(), self.hub.sim is not None)
            self.tasks = {}
            self.words(list(data), state)
        elif what == "coach":
            u = coach_phrase(data, state.pos.topology)
            # Its seat's page says it from the remarks; the board's speaker only when it
            # names no card of a hidden hand (docs/voice.md, "Who may hear what").
            if self.queue is not None and not hidden(data):
                self.queue.put(replace(u, seat=None))

    def tell(self, u: Utterance) -> None:
        if u.seat is None:  # a seat's own words (a hidden hand) reach its page by remarks
            self.count += 1
            self.said.append({"id": self.count, **u.as_dict()})
        if self.queue is not None:
            self.queue.put(u)

    def view(self) -> dict[str, Any]:
        return {"next": self.count + 1, "said": list(self.said)}


def attach(hub: HubLike, settings: VoiceSettings | None) -> Voice:
    """The page's voice always (each page switches it on for itself); the board's
    speaker when ``[voice] level`` is not off."""
    queue = None
    if settings is not None and settings.on:
        player = Player(settings.device, settings.rate)
        queue = SpeechQueue(player.say, settings.level, settings.language, player.stop)
    voice = Voice(hub, queue)
    hub.observers.append(voice.observe)
    hub.heard.append(voice.heard)
    session = hub.session
    if not session.state.history and session.state.arranging is None:
        # A game just started (GameSession.start keeps its opening decisions): its
        # first deal, for the board's speaker (a page opened later says nothing past).
        voice.words([r for r in session.recent if r.get("type") == "turn"], session.state)
    hub.views["voice"] = voice.view
    return voice
