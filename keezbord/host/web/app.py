"""The web app: the page, a few JSON endpoints and the live websocket (docs/web.md).

``create_app(make_hub)`` builds the ASGI app; the hub is made inside the app's lifespan,
on the loop that will run it (its SQLite connections belong to that thread).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from keezbord.engine.topology import Topology
from keezbord.hardware.geometry import board_geometry
from keezbord.host.drivers.leds import DEFAULT_STYLES, RoleStyle
from keezbord.host.roles import Access, Attempts, Role
from keezbord.host.voice.spoken import hole_names

from . import actions
from .analyst import AnalysisError, Analyst
from .broadcast import MAX_SPECTATORS, Broadcast, Watchers
from .gate import TOO_MANY, Gate, from_this_machine
from .hub import Hub
from .inbox import BugLog
from .page_socket import serve_page

STATIC = Path(__file__).parent / "static"


@lru_cache(maxsize=16)
def geometry_json(seats: int, segment: int) -> dict[str, Any]:
    """The drawing's geometry, and each hole as people name it at the table (the
    drawing's text alternatives for a screen reader, docs/voice.md)."""
    geo = board_geometry(seats, segment).to_json()
    return {
        **geo,
        "spoken": hole_names(Topology(seats, segment), [h["name"] for h in geo["holes"]]),
    }


def palette_json(styles: Mapping[str, RoleStyle] = DEFAULT_STYLES) -> dict[str, Any]:
    """LED roles -> colour and blink pattern: the LED driver's palette, for the page."""
    return {
        role: {"hex": "#{:02x}{:02x}{:02x}".format(*s.colour), "pattern": s.pattern}
        for role, s in styles.items()
    }


def create_app(
    make_hub: Callable[[], Hub],
    *,
    styles: Mapping[str, RoleStyle] = DEFAULT_STYLES,
    attempts: Attempts | None = None,
    max_spectators: int = MAX_SPECTATORS,
) -> Starlette:
    palette = palette_json(styles)
    gate = Gate(attempts)
    watchers = Watchers(max_spectators)
    bugs = BugLog()  # a request that fails on a bug: one line, once a minute at most

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = make_hub()
        app.state.hub = hub
        await hub.start()
        app.state.analyst = Analyst(hub)  # a finished game's analysis, in the background
        hub.analyst = app.state.analyst  # (a mistake tried again on the board)
        # The pages' states, made once per change for each audience (broadcast.py).
        app.state.broadcast = Broadcast(hub, lambda: {"analysis": app.state.analyst.view()})
        try:
            yield
        finally:
            app.state.analyst.cancel()
            await hub.stop()

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    def access(request: Request | WebSocket) -> Access | None:
        """What the request's token gives; None: refused (gate.py)."""
        return gate.access(hub_of(request), request)

    def refused() -> Response:
        return JSONResponse({"error": TOO_MANY}, status_code=429)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def geometry(request: Request) -> Response:
        st = hub_of(request).session.state.pos.topology
        return JSONResponse(geometry_json(st.seats, st.segment))

    async def palette_ep(request: Request) -> Response:
        return JSONResponse(palette)

    async def state(request: Request) -> Response:
        got = access(request)
        if got is None:
            return refused()
        # The text the pages of that audience are sent (made once per change).
        text = request.app.state.broadcast.text(got)
        return Response(text, media_type="application/json")

    async def analysis(request: Request) -> Response:
        """The finished game's analysis so far (docs/web.md, "After the game")."""
        got = access(request)
        if got is None:
            return refused()
        try:
            return JSONResponse(request.app.state.analyst.payload(got.role))
        except AnalysisError as e:
            return JSONResponse({"error": e.text}, status_code=e.status)

    async def retry(request: Request) -> Response:
        """Try a person's labelled decision again: ``?n=`` what to set up, with ``&move=``
        the new move judged (a search: off the loop)."""
        got = access(request)
        if got is None:
            return refused()
        role = got.role
        analyst = request.app.state.analyst
        move = request.query_params.get("move")
        try:
            n = int(request.query_params.get("n", ""))
        except ValueError:
            return JSONResponse({"error": {"nl": "welke zet?", "en": "which move?"}}, 400)
        try:
            if move is None:
                return JSONResponse(await run_in_threadpool(analyst.retry, n, role))
            return JSONResponse(await run_in_threadpool(analyst.judge, n, move, role))
        except AnalysisError as e:
            return JSONResponse({"error": e.text}, status_code=e.status)

    async def review(request: Request) -> Response:
        """One entry of the move list for the review (a move or a flagged move)."""
        hub = hub_of(request)
        try:
            i = int(request.query_params.get("i", ""))
            entry = hub.log.entries[i] if i >= 0 else None
        except (ValueError, IndexError):
            entry = None
        shown = None if entry is None else actions.review(entry, hub.session.state)
        if shown is None:
            return JSONResponse(
                {"error": {"nl": "die zet is er niet (meer)", "en": "no such move (any more)"}},
                status_code=404,
            )
        return JSONResponse(shown)

    async def lessons(request: Request) -> Response:
        """The course, and with ``?learner=NAME`` the steps that learner has done."""
        from keezbord.host.lessons import COURSE, Progress, valid_name

        name = request.query_params.get("learner", "")
        done: dict[str, list[int]] = {}
        if name.strip():
            try:
                name = valid_name(name)
            except ValueError as e:
                return JSONResponse({"error": {"nl": str(e), "en": str(e)}}, status_code=400)
            prog = Progress(hub_of(request).opts.db)
            try:
                done = prog.of(name)
            finally:
                prog.close()
        out = [{**les.to_dict(), "done": [s + 1 for s in done.get(les.id, [])]} for les in COURSE]
        return JSONResponse({"lessons": out})

    async def puzzle_list(request: Request) -> Response:
        """The puzzles (shipped and the club's), ``?theme=`` one theme's; ``?learner=``
        which of them that learner solved, at the first try or not."""
        from keezbord.engine.themes import THEMES

        from .task_setups import listed

        theme = request.query_params.get("theme") or None
        learner = request.query_params.get("learner", "").strip() or None
        if theme is not None and theme not in THEMES:
            return JSONResponse(
                {"error": {"nl": f"onbekend thema {theme!r}", "en": f"unknown theme {theme!r}"}},
                status_code=400,
            )
        try:
            return JSONResponse(
                await run_in_threadpool(listed, hub_of(request).opts.db, theme, learner)
            )
        except ValueError as e:  # the learner's name
            return JSONResponse(
                {"error": {"nl": f"naam: {e}", "en": f"name: {e}"}}, status_code=400
            )

    async def export_trace(request: Request) -> Response:
        hub = hub_of(request)
        trace, _ = hub.export()
        return PlainTextResponse(
            "\n".join(trace) + "\n",
            media_type="application/x-ndjson",
            headers=_attachment(f"keezbord-game-{hub.session.game}.jsonl"),
        )

    async def export_moves(request: Request) -> Response:
        hub = hub_of(request)
        got = access(request)
        if got is None:
            return refused()
        # The cards partners passed: for the players' and the referee's links only (a
        # remote seat sees its own on the page).
        moves = hub.log.lines(cards=got.role in (Role.PLAYER, Role.REFEREE))
        return PlainTextResponse(
            "\n".join(moves) + "\n", headers=_attachment(f"keezbord-game-{hub.session.game}.txt")
        )

    async def health_ep(request: Request) -> Response:
        """The service's own word on itself for ``keezbord doctor`` (docs/web.md): its
        version and the board's health. Only for a client on this machine (loopback) or
        with the referee's token: it names ports and errors a spectator has no need of."""
        hub = hub_of(request)
        here = from_this_machine(request)
        got = None if here else access(request)  # (wrong tokens counted)
        if not (here or (got is not None and got.role is Role.REFEREE)):
            return JSONResponse(
                {"error": {"nl": "alleen vanaf de Pi zelf", "en": "only from the Pi itself"}},
                status_code=403,
            )
        from keezbord import __version__

        return JSONResponse(
            {"version": __version__, "mode": hub.opts.mode, "game": hub.session.game,
             "health": hub.health()}
        )  # fmt: skip

    async def qr_code(request: Request) -> Response:
        # The QR corner of the page (keezbord/host/appliance/qr.py says who gets which).
        from keezbord.host.appliance.qr import link_for, qr_svg

        tokens = hub_of(request).opts.tokens
        link = link_for(
            request.query_params.get("role", "spectator"),
            str(request.base_url),
            "127.0.0.1" if from_this_machine(request) else None,  # the kiosk, not a proxy
            getattr(request.app.state, "appliance", {}).get("public_host"),
            tokens.player if tokens is not None else None,
        )
        if link is None:
            return PlainTextResponse("not for this page", status_code=403)
        return Response(qr_svg(link), media_type="image/svg+xml")

    async def ws(websocket: WebSocket) -> None:
        hub, shared = hub_of(websocket), websocket.app.state.broadcast
        await serve_page(websocket, hub, gate, shared, watchers, palette, bugs)

    routes = [
        Route("/", index),
        Route("/api/geometry", geometry),
        Route("/api/palette", palette_ep),
        Route("/api/state", state),
        Route("/api/review", review),
        Route("/api/lessons", lessons),
        Route("/api/puzzles", puzzle_list),
        Route("/api/analysis", analysis),
        Route("/api/retry", retry),
        Route("/api/export/trace", export_trace),
        Route("/api/export/moves", export_moves),
        Route("/api/qr.svg", qr_code),
        Route("/api/health", health_ep),
        WebSocketRoute("/ws", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}
