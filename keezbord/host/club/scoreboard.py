"""The tournament's web pages: the scoreboard for the projector (read-only, live over a
websocket) and the control page (the secretary's, needs the control token).

Tokens come from keezbord/host/roles.py: the tournament keeps a ``Tokens`` pair in its
token file; the control token is the ``referee`` one (``role_of`` says REFEREE), nobody
else may act; the control page sends it as ``Authorization: Bearer <token>``, checked
before the request's body is read. The scoreboard needs no token.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from keezbord.host.jsontext import loads
from keezbord.host.roles import Role, Tokens, role_of

from .service import Tournament
from .store import StoreError

STATIC = Path(__file__).parent / "static"
NO_CACHE = {"Cache-Control": "no-cache"}
MAX_BODY = 16384  # a control action is a few hundred bytes (a team and its players)


def create_app(tournament: Tournament, tokens: Tokens) -> Starlette:
    waiters: set[asyncio.Event] = set()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()

        def wake_all() -> None:
            for e in list(waiters):
                e.set()

        def wake(_version: int) -> None:  # from paho's thread
            loop.call_soon_threadsafe(wake_all)

        tournament.listeners.append(wake)
        tournament.start()
        try:
            yield
        finally:
            tournament.listeners.remove(wake)
            tournament.stop()

    async def scoreboard(request: Request) -> Response:
        return FileResponse(STATIC / "scoreboard.html", headers=NO_CACHE)

    async def control(request: Request) -> Response:
        if role_of(tokens, request.query_params.get("token")) is not Role.REFEREE:
            return JSONResponse(
                {"error": {"nl": "beheercode nodig", "en": "control token needed"}},
                status_code=403,
            )
        return FileResponse(STATIC / "control.html", headers=NO_CACHE)

    async def view(request: Request) -> Response:
        return JSONResponse(tournament.view())

    async def act(request: Request) -> Response:
        # The token comes in a header and is checked before a byte of the body is read;
        # the body is bounded and parsed with keezbord's limits (issue 37).
        given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        if role_of(tokens, given) is not Role.REFEREE:
            return JSONResponse(
                {"error": {"nl": "beheercode nodig", "en": "control token needed"}},
                status_code=403,
            )
        body = await _body(request, MAX_BODY)
        if body is None:
            return JSONResponse(
                {"error": {"nl": "verzoek te groot", "en": "request too large"}}, status_code=413
            )
        try:
            msg = loads(body)
        except ValueError:  # JsonTextError: malformed or nested too deeply
            msg = None
        if not isinstance(msg, dict):
            return JSONResponse({"error": "not a JSON object"}, status_code=400)
        try:
            return JSONResponse({"ok": True, **_act(tournament, msg)})
        except (StoreError, ValueError, KeyError, TypeError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)

    async def ws(socket: WebSocket) -> None:
        await socket.accept()
        event = asyncio.Event()
        waiters.add(event)
        try:
            while True:
                event.clear()
                await socket.send_json(await asyncio.to_thread(tournament.view))
                with contextlib.suppress(TimeoutError):
                    # a beat every few seconds also keeps the clock of a quiet room right
                    await asyncio.wait_for(event.wait(), timeout=5)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            waiters.discard(event)

    return Starlette(
        routes=[
            Route("/", scoreboard),
            Route("/control", control),
            Route("/api/view", view),
            Route("/api/control", act, methods=["POST"]),
            WebSocketRoute("/ws", ws),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


async def _body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None when it is (or says it is) over ``limit`` bytes:
    read no further than that."""
    try:
        if int(request.headers.get("content-length", "0")) > limit:
            return None
    except ValueError:
        return None
    got = bytearray()
    async for chunk in request.stream():
        got += chunk
        if len(got) > limit:
            return None
    return bytes(got)


def _act(t: Tournament, msg: dict[str, Any]) -> dict[str, Any]:
    """One action of the control page (docs/club.md)."""
    action = msg.get("action")
    if action == "add_team":
        players = [str(x) for x in msg.get("players", [])]
        team = t.store.add_team(str(msg["name"]), players)
        t.changed()
        return {"team": team}
    if action == "pair":
        return {"round": t.pair_next(float(msg.get("minutes", 50)))}
    if action == "start":
        return {"started": t.start_clock()}
    if action == "verify":
        t.ask_record(str(msg["match"]))
        return {}
    raise ValueError(f"unknown action {action!r}")
