"""How keezbord's web servers are run (issue 37): uvicorn's settings against a hostile
guest, one place for the board's page (commands/web.py), the club's scoreboard
(commands/club.py) and the tests' live servers.

- Forwarding headers (``X-Forwarded-For``) are trusted only from the proxies named
  (``[remote] trusted_proxies``); uvicorn trusts 127.0.0.1 by default, so a guest could
  rotate the header and escape the token rate limit, and behind an unnamed proxy every
  client is the proxy (docs/remote.md).
- A websocket frame over ``ws_max`` bytes closes the socket (1009) before it is read:
  uvicorn's default took 16 MiB per message (inbox.py bounds each role below that).
- Request heads are bounded in size (``HEAD_MAX``) and in time, connections per address
  and in all (web/conn_guard.py); the process's file descriptor limit is raised to its
  hard limit (``NOFILE``: the generated unit's ``LimitNOFILE``), and the loop's "out of
  file descriptors" on accept is logged once a minute, without a traceback.
"""

from __future__ import annotations

import asyncio
import errno
from collections.abc import Callable, Sequence
from typing import Any, Final

from .conn_guard import TOTAL, ConnGuard, FloodLog, guarded_h11
from .inbox import SOCKET_MAX

HEAD_MAX: Final = 16384  # bytes of a request's line and headers (h11's default too)
NOFILE: Final = 8192  # file descriptors wanted (the unit's LimitNOFILE)
ACCEPT_BATCH: Final = 64  # connections accepted per turn of the loop (uvicorn: 2048)


def server_config(
    app: Any,
    *,
    trusted_proxies: Sequence[str] = (),
    ws_max: int = SOCKET_MAX,
    guard: ConnGuard | None = None,
    **kw: Any,
) -> Any:
    """A ``uvicorn.Config`` for ``app`` (``kw``: host, port, lifespan, ...); ``guard``:
    the connections' caps (the default's total fits the file descriptors there are)."""
    import uvicorn

    kw.setdefault("log_level", "warning")
    if guard is None:
        guard = ConnGuard(total=min(TOTAL, max(64, raise_nofile() - 256)))
    return uvicorn.Config(
        app,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or [],
        ws_max_size=ws_max,
        h11_max_incomplete_event_size=HEAD_MAX,
        http=guarded_h11(guard),
        backlog=ACCEPT_BATCH,
        **kw,
    )


def make_server(config: Any, announce: Callable[[], None] | None = None) -> Any:
    """A ``uvicorn.Server`` for ``config`` whose loop logs a flood of failed accepts (no
    file descriptor left) as one line a minute instead of a traceback each.

    ``announce`` (the banner: "Ctrl-C stops"; ``run``'s mDNS name) runs once uvicorn's
    own Ctrl-C and SIGTERM handlers are in place and before the app starts and accepts
    (in a worker thread: the mDNS announce blocks). So a Ctrl-C right after the banner
    shuts down cleanly (the hub stopped, the journal closed), even in a process started
    with SIGINT ignored (a script's background job); before, such a Ctrl-C came before
    the handlers and was lost. And the first page served already knows the board's name
    (the QR code's link)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def serve(self, sockets: Any = None) -> None:
            quiet_accept_errors(asyncio.get_running_loop(), FloodLog())
            await super().serve(sockets)

        async def startup(self, sockets: Any = None) -> None:
            if announce is not None and not self.should_exit:
                await asyncio.to_thread(announce)
            await super().startup(sockets)

    return Server(config)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, log: FloodLog) -> None:
    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):
            log.drop("not accepted: no file descriptor left", "?")
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def raise_nofile(want: int = NOFILE) -> int:
    """Raise this process's soft limit of open files towards ``want`` (within the hard
    limit); the soft limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else want
