"""Web tests: a live server on a free localhost port (uvicorn in a thread) and headless
Debian Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from keezbord.host.web.app import create_app
from keezbord.host.web.hub import Hub
from keezbord.host.web.serving import make_server, server_config

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class LiveServer:
    url: str
    app: Any
    server: uvicorn.Server
    thread: threading.Thread

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start_server(
    make_hub: Callable[[], Hub], port: int | None = None, **settings: Any
) -> LiveServer:
    """``port``: a server come back where the page expects it (after ``stop``);
    ``settings``: web/serving.py's (the commands' own server settings)."""
    port = port or free_port()
    app = create_app(make_hub)
    config = server_config(app, host="127.0.0.1", port=port, lifespan="on", **settings)
    server = make_server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    return LiveServer(f"http://127.0.0.1:{port}", app, server, thread)


@pytest.fixture
def serve() -> Iterator[Callable[[Callable[[], Hub]], LiveServer]]:
    servers: list[LiveServer] = []

    def go(make_hub: Callable[[], Hub]) -> LiveServer:
        s = start_server(make_hub)
        servers.append(s)
        return s

    yield go
    for s in servers:
        s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not installed (./dev.sh test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    yield pg
    ctx.close()


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
