"""What one client can hold of the server's connections (issue 37: 1,100 connections
holding half a request's head took every file descriptor of the board's server for the
whole attack, and its log grew by tens of MB of "Too many open files").

- A request's head (its line and headers) must be complete within ``head_s`` of the
  connection (or of the previous response on a kept-alive one): else it is closed.
- Connections waiting for a request's head are capped per client address
  (``per_address``), all connections in all (``total``). A new connection over a cap
  takes the place of the oldest connection of that address (or, over the total, of
  any) still waiting for its head; a connection whose request has begun (a page's
  websocket: the referee's, the players') is never dropped for a newcomer, nor counted
  against its address (behind a proxy every page has the proxy's address; the
  spectators' sockets are capped by the app, broadcast.py). Over the total with none
  waiting, the newcomer is closed at once.
- Such a flood is logged as one line per ``log_s``, with how many were dropped and the
  address most of them came from (``FloodLog``), also for the loop's own "accept: out
  of file descriptors" errors (web/serving.py).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

HEAD_S: Final = 10.0
PER_ADDRESS: Final = 256
TOTAL: Final = 1024
LOG_S: Final = 60.0


class FloodLog:
    """One line per ``every_s`` at most for connections dropped."""

    def __init__(
        self,
        every_s: float = LOG_S,
        clock: Callable[[], float] = time.monotonic,
        out: Callable[[str], None] = lambda line: print(line, flush=True),
    ) -> None:
        self.every_s, self.clock, self.out = every_s, clock, out
        self._since: float | None = None
        self.dropped: Counter[str] = Counter()
        self.lines = 0

    def drop(self, why: str, addr: str) -> None:
        self.dropped[f"{why}\t{addr}"] += 1
        now = self.clock()
        if self._since is not None and now - self._since < self.every_s:
            return
        self._since = now
        total = sum(self.dropped.values())
        kinds = Counter[str]()
        addrs = Counter[str]()
        for key, n in self.dropped.items():
            kind, who = key.split("\t", 1)
            kinds[kind] += n
            addrs[who] += n
        top, n_top = addrs.most_common(1)[0]
        what = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        self.out(
            f"keezbord: connection flood: {total} connections dropped ({what}); "
            f"most from {top} ({n_top}); said again in {self.every_s:.0f} s at most"
        )
        self.lines += 1
        self.dropped.clear()


@dataclass
class _Conn:
    addr: str
    waiting: bool = True  # for its request's head
    timer: asyncio.TimerHandle | None = None


class ConnGuard:
    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        total: int = TOTAL,
        head_s: float = HEAD_S,
        log: FloodLog | None = None,
    ) -> None:
        self.per_address, self.total, self.head_s = per_address, total, head_s
        self.log = FloodLog() if log is None else log
        self._conns: OrderedDict[Any, _Conn] = OrderedDict()  # transport -> its state
        self._waiting: Counter[str] = Counter()  # connections waiting for a head, by address

    @property
    def open(self) -> int:
        return len(self._conns)

    def _prune(self) -> None:
        """Forget connections closed behind the guard's back (a websocket's protocol
        took the transport over: its end is not reported here)."""
        for t in [t for t in self._conns if t.is_closing()]:
            self.forget(t)

    def admit(self, transport: Any, addr: str) -> bool:
        """A new connection from ``addr``: True if it may stay (made room for it)."""
        if self._waiting[addr] >= self.per_address:
            self._evict(addr, "address's cap")  # (there is one: its count says so)
        if len(self._conns) >= self.total:
            self._prune()
        if len(self._conns) >= self.total and not self._evict(None, "total cap"):
            self.log.drop("refused (total cap)", addr)
            return False
        self._conns[transport] = _Conn(addr, waiting=False)
        self.wait_head(transport)
        return True

    def _evict(self, addr: str | None, why: str) -> bool:
        for t, c in self._conns.items():
            if c.waiting and (addr is None or c.addr == addr):
                self.log.drop(f"dropped waiting for its head ({why})", c.addr)
                self.forget(t)
                t.abort()
                return True
        return False

    def wait_head(self, transport: Any) -> None:
        """The connection waits for a request's head: closed unless it comes in time."""
        c = self._conns.get(transport)
        if c is None:
            return
        if c.timer is not None:
            c.timer.cancel()
        if not c.waiting:
            c.waiting = True
            self._waiting[c.addr] += 1
        loop = asyncio.get_running_loop()
        c.timer = loop.call_later(self.head_s, self._late, transport)
        self._conns.move_to_end(transport)

    def headed(self, transport: Any) -> None:
        """A request's head is complete: the connection is in use."""
        c = self._conns.get(transport)
        if c is not None and c.waiting:
            self._unwait(c)

    def _unwait(self, c: _Conn) -> None:
        c.waiting = False
        if c.timer is not None:
            c.timer.cancel()
            c.timer = None
        self._waiting[c.addr] -= 1
        if self._waiting[c.addr] <= 0:
            del self._waiting[c.addr]

    def _late(self, transport: Any) -> None:
        c = self._conns.get(transport)
        if c is not None and c.waiting:
            self.log.drop("closed: no request head in time", c.addr)
            self.forget(transport)
            transport.abort()

    def forget(self, transport: Any) -> None:
        c = self._conns.pop(transport, None)
        if c is not None and c.waiting:
            self._unwait(c)


def guarded_h11(guard: ConnGuard) -> type[Any]:
    """uvicorn's h11 protocol with ``guard`` at its door (``Config(http=...)``)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            addr = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if not guard.admit(transport, addr):
                transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            guard.forget(self.transport)
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # a request's head came whole
                guard.headed(self.transport)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                guard.wait_head(self.transport)  # kept alive: the next head in time too

    return Guarded
