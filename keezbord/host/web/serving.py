"""How keezbord's web servers are run (issue 37): uvicorn's settings against a hostile
guest, one place for the board's page (commands/web.py), the club's scoreboard
(commands/club.py) and the tests' live servers.

- Forwarding headers (``X-Forwarded-For``) are trusted only from the proxies named
  (``[remote] trusted_proxies``); uvicorn trusts 127.0.0.1 by default, so a guest could
  rotate the header and escape the token rate limit, and behind an unnamed proxy every
  client is the proxy (docs/remote.md).
- A websocket frame over ``ws_max`` bytes closes the socket (1009) before it is read:
  uvicorn's default took 16 MiB per message (inbox.py bounds each role below that).
- Request heads are bounded in size (``HEAD_MAX``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .inbox import SOCKET_MAX

HEAD_MAX: Final = 16384  # bytes of a request's line and headers (h11's default too)


def server_config(
    app: Any,
    *,
    trusted_proxies: Sequence[str] = (),
    ws_max: int = SOCKET_MAX,
    **kw: Any,
) -> Any:
    """A ``uvicorn.Config`` for ``app`` (``kw``: host, port, lifespan, ...)."""
    import uvicorn

    kw.setdefault("log_level", "warning")
    return uvicorn.Config(
        app,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or [],
        ws_max_size=ws_max,
        h11_max_incomplete_event_size=HEAD_MAX,
        **kw,
    )
