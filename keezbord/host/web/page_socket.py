"""One page's websocket (docs/web.md "Websocket"): the hello, the state at every change
(broadcast.py: made once per change for each audience), the page's messages checked
(inbox.py) and handed to the hub, a revoked link closed, a spectator over the cap told
"full" (issue 37)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from keezbord.host.roles import Access, Role

from . import page
from .broadcast import FULL, SPECTATOR_PAUSE_S, Broadcast, Watchers
from .gate import REVOKED, TOO_MANY, Gate
from .hub import Hub, HubError
from .inbox import INTERNAL, UNREADABLE, BugLog, Refused, message_of


async def serve_page(
    websocket: WebSocket,
    hub: Hub,
    gate: Gate,
    shared: Broadcast,
    watchers: Watchers,
    palette: Mapping[str, Any],
    bugs: BugLog,
) -> None:
    await websocket.accept()
    got = gate.access(hub, websocket)
    if got is None:
        await websocket.send_json({"type": "error", "text": TOO_MANY})
        await websocket.close(code=1008)
        return
    role = got.role
    if not watchers.enter(role):
        await websocket.send_json({"type": "full", "text": FULL})
        await websocket.close(code=1013)  # try again later
        return
    try:
        await _serve(websocket, hub, got, shared, palette, bugs)
    finally:
        watchers.leave(role)


async def _serve(
    websocket: WebSocket,
    hub: Hub,
    got: Access,
    shared: Broadcast,
    palette: Mapping[str, Any],
    bugs: BugLog,
) -> None:
    token = websocket.query_params.get("token")
    role = got.role
    queue: asyncio.Queue[int] = asyncio.Queue()
    hub.listeners.add(queue)
    # ?history=delta (the page asks for it): each state carries only the history
    # entries this page does not have yet; other clients get the whole history.
    feed = page.HistoryFeed() if websocket.query_params.get("history") == "delta" else None
    pause = SPECTATOR_PAUSE_S if role is Role.SPECTATOR else 0.0

    def revoked() -> bool:
        """The link's token was made new (or its seat taken back) meanwhile."""
        return role is not Role.SPECTATOR and hub.access(token) != got

    async def sender() -> None:
        while True:
            await queue.get()
            while not queue.empty():  # only the latest state matters
                queue.get_nowait()
            if revoked():
                await websocket.send_json({"type": "revoked", "text": REVOKED})
                await websocket.close(code=1008)
                return
            await websocket.send_text(shared.text(got, feed))
            if pause:  # a spectator: the changes meanwhile come as one state
                await asyncio.sleep(pause)

    await websocket.send_json(
        {
            "type": "hello",
            "mode": hub.opts.mode,
            "role": role.value,
            "control": role is Role.REFEREE,
            "palette": palette,
        }
    )
    await websocket.send_text(shared.text(got, feed))
    task = asyncio.create_task(sender())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if revoked():
                await websocket.send_json({"type": "revoked", "text": REVOKED})
                await websocket.close(code=1008)
                break
            try:
                reply = (
                    handle(hub, text, got, bugs)
                    if isinstance(text, str)
                    else {"type": "error", "text": UNREADABLE}
                )
            except Refused as e:  # over the role's size: said, and the socket closed
                await websocket.send_json({"type": "error", "text": e.text})
                await websocket.close(code=1009)
                break
            if reply is not None:
                await websocket.send_json(reply)
    except (WebSocketDisconnect, RuntimeError):  # gone, or closed by the sender
        pass
    finally:
        hub.listeners.discard(queue)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def handle(hub: Hub, text: str, role: Access, bugs: BugLog) -> dict[str, Any] | None:
    """One page message; the reply (an error, or an ack when the message has an id).
    Raises inbox.Refused for a message over the role's size (the socket is closed)."""
    try:
        msg = message_of(text, role.role)
    except Refused as e:
        if e.close:
            raise
        return {"type": "error", "text": e.text}
    ident = msg.get("id")
    if not isinstance(ident, (int, str)) or isinstance(ident, bool):
        ident = None
    kind: str = msg["type"]
    try:
        answer = hub.request(msg, role)
    except HubError as e:
        return {
            "type": "error", "id": ident, "request": kind, "text": e.text.as_dict(), **e.extra
        }  # fmt: skip
    except Exception as e:  # a bug must not take the page's connection down: one line
        bugs(kind, e)
        return {"type": "error", "id": ident, "request": kind, "text": INTERNAL}
    if answer is not None:  # a question's answer (the links, a card's moves)
        return {**answer, "id": ident}
    return None if ident is None else {"type": "ack", "id": ident}
