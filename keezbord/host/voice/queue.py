"""The utterance queue, off the event path (docs/voice.md): the hub's observer only
``put``s (a lock and a list, microseconds), a thread of its own renders and plays. A newer
utterance of the same kind replaces a stale one still waiting (a dispute at once: "the
board is right again" makes "that is not allowed" no news; a move once it has waited
``STALE_S``: two moves decided together are both said, a speaker far behind skips); a
move taken back
(``undo``) drops the move still waiting and cuts the one being said, so a move is never
announced after its undo. The LEDs and the referee never wait for it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .phrases import Utterance

Say = Callable[[str, str], None]


@dataclass
class Spoken:
    """What the queue did with an utterance, for tests and the benchmark: when it was put,
    when its saying began, and whether it was dropped."""

    utterance: Utterance
    put_at: float
    began_at: float | None = None
    dropped: bool = False
    error: str | None = None


@dataclass
class SpeechQueue:
    say: Say
    level: str = "all"
    lang: str = "nl"
    stop: Callable[[], None] = lambda: None
    log: list[Spoken] = field(default_factory=list)  # the last ones (KEEP)
    clock: Callable[[], float] = time.monotonic
    KEEP = 200
    STALE_S = 2.0  # a move waiting this long is replaced by a newer one

    def __post_init__(self) -> None:
        self._waiting: list[Spoken] = []
        self._current: Spoken | None = None
        self._cv = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="keezbord-voice", daemon=True)
        self._thread.start()

    def put(self, u: Utterance) -> None:
        """For the table's speaker only: a seat's own utterance (a hidden hand) is never
        said here."""
        if u.seat is not None or not u.heard_at(self.level):
            return
        s = Spoken(u, time.monotonic())
        with self._cv:
            for old in self._waiting:
                if old.utterance.kind == u.kind or (
                    u.kind == "undo" and old.utterance.kind == "move"
                ):
                    old.dropped = True
            if (
                u.kind == "undo"
                and self._current is not None
                and self._current.utterance.kind == "move"
            ):
                self._current.dropped = True
                self.stop()
            self._waiting = [w for w in self._waiting if not w.dropped] + [s]
            self.log.append(s)
            del self.log[: -self.KEEP]
            self._cv.notify()

    def _replaces(self, new: Utterance, old: Utterance, waited: float) -> bool:
        if new.kind == "undo":
            return old.kind == "move"
        if new.kind != old.kind:
            return False
        return new.kind != "move" or waited >= self.STALE_S

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until nothing waits nor plays (tests)."""
        end = time.monotonic() + timeout
        with self._cv:
            while self._waiting or self._current is not None:
                if not self._cv.wait(max(0.0, end - time.monotonic())):
                    return False
        return True

    def close(self) -> None:
        with self._cv:
            self._closed = True
            self._cv.notify_all()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._waiting and not self._closed:
                    self._cv.wait()
                if self._closed:
                    return
                s = self._current = self._waiting.pop(0)
                s.began_at = time.monotonic()
            try:
                self.say(s.utterance.text.get(self.lang), self.lang)
            except Exception as e:  # the voice must never stop the board: one line, on
                s.error = str(e)
                print(f"keezbord: voice: {e}")
            with self._cv:
                self._current = None
                self._cv.notify_all()
