"""The QR corner: the code decodes (zbarimg, Debian's zbar-tools) to the spectators'
plain link; the players' link is given only to the Pi itself; and the decoded link,
opened by a phone, cannot move pawns, undo or start a game on a running `keezbord run`."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from keezbord.host.appliance.qr import link_for, qr_svg, spectator_url
from keezbord.host.roles import TokenStore


@pytest.fixture(scope="module")
def zbarimg() -> str:
    exe = shutil.which("zbarimg")
    if exe is None:
        pytest.fail("zbarimg not found: ./dev.sh test installs Debian's zbar-tools")
    return exe


def decode(svg: str, zbarimg: str, tmp: Path) -> str:
    """What a phone's camera reads: the SVG rendered (cairosvg), then zbar."""
    import cairosvg  # type: ignore[import-untyped]

    png = tmp / "qr.png"
    cairosvg.svg2png(bytestring=svg.encode(), write_to=str(png), output_width=400)
    done = subprocess.run([zbarimg, "--raw", "-q", str(png)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    "link", ["http://keezbord.local:8000/", "http://192.168.1.23:8000/?token=Zx-9_aBcdEf12"]
)
def test_the_code_decodes_to_the_link(link: str, zbarimg: str, tmp_path: Path) -> None:
    assert decode(qr_svg(link), zbarimg, tmp_path) == link


def test_who_gets_which_link() -> None:
    page = "http://127.0.0.1:8000/?token=ref"
    assert spectator_url(page, "keezbord.local") == "http://keezbord.local:8000/"
    assert spectator_url("http://192.168.1.5:8000/x?y", "keezbord.local") == (
        "http://192.168.1.5:8000/"
    )
    assert link_for("spectator", page, "192.168.1.40", None, "pl") == "http://127.0.0.1:8000/"
    assert link_for("player", page, "127.0.0.1", "keezbord.local", "pl") == (
        "http://keezbord.local:8000/?token=pl"
    )
    assert link_for("player", page, "::1", None, "pl") == "http://127.0.0.1:8000/?token=pl"
    assert link_for("player", page, "192.168.1.40", None, "pl") is None  # a phone: never
    assert link_for("player", page, "127.0.0.1", None, None) is None  # no players' token
    assert link_for("referee", page, "127.0.0.1", None, "pl") is None  # never in a QR code


@contextlib.contextmanager
def running(tmp_path: Path, *args: str) -> Iterator[tuple[re.Match[str], Path]]:
    """`keezbord run` on a simulated board (4 seats) with ``args``: the match of its first
    line, ``keezbord run: (URL)  (journal (PATH))``, and its state folder; stopped with
    Ctrl-C at the end."""
    state = tmp_path / "state"
    state.mkdir()
    cfg = tmp_path / "board.toml"
    cfg.write_text("[board]\nseats = 4\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEEZBORD_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    proc = subprocess.Popen(
        [sys.executable, "-m", "keezbord.host.cli", "run", "--config", str(cfg),
         "--state-dir", str(state), "--port", "0", "--simulate", "4", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        m = re.match(r"keezbord run: (http://[^ ]+:\d+/)  \(journal (.*)\)$", first)
        assert m, first + (proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        yield m, state
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`keezbord run` on a simulated board, as the service starts it (--state-dir)."""
    with running(tmp_path, "--host", "127.0.0.1", "--speed", "20") as (m, state):
        assert m.group(1).startswith("http://127.0.0.1:")
        assert Path(m.group(2)) == state / "keezbord.sqlite"  # the journal in the state folder
        yield m.group(1), state


def test_the_scanned_link_can_only_watch(
    board: tuple[str, Path], zbarimg: str, tmp_path: Path
) -> None:
    from websockets.sync.client import connect

    url, state = board
    tokens = TokenStore(state / "tokens.json").load()
    assert oct((state / "tokens.json").stat().st_mode & 0o777) == "0o600"
    with urllib.request.urlopen(url + "api/qr.svg?role=spectator") as r:
        assert r.headers["Content-Type"].startswith("image/svg+xml")
        scanned = decode(r.read().decode(), zbarimg, tmp_path)
    assert scanned == url  # the plain address: no token
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url + "api/qr.svg?role=referee")
    assert refused.value.code == 403

    def ws_url(link: str) -> str:
        base, _, query = link.partition("?")
        return base.replace("http://", "ws://") + "ws" + (f"?{query}" if query else "")

    with connect(ws_url(scanned)) as ws:
        hello = json.loads(ws.recv())
        assert hello["type"] == "hello"
        assert hello.get("role", "spectator") == "spectator" and not hello.get("control")
        json.loads(ws.recv())  # the state
        for msg in (
            {"type": "lift", "hole": "N0.1", "id": 1},
            {"type": "place", "hole": "T0", "id": 2},
            {"type": "undo", "id": 3},
            {"type": "new_game", "id": 4},
        ):
            ws.send(json.dumps(msg))
            while True:  # states go by while the simulated game plays on
                reply = json.loads(ws.recv())
                if reply.get("id") == msg["id"]:
                    break
            assert reply["type"] == "error", (msg, reply)
    # The referee's link from the state folder is the one the board accepts.
    with connect(ws_url(f"{url}?token={tokens.referee}")) as ws:
        hello = json.loads(ws.recv())
        assert hello.get("control") is True or hello.get("role") == "referee"


def test_the_first_page_served_already_names_the_board(zbarimg: str, tmp_path: Path) -> None:
    """Listening on the network, `run` announces its name (mDNS, else its LAN address)
    before it serves a page: the kiosk's page, opened the moment the service starts,
    shows phones a code they can open, never 127.0.0.1."""
    with running(tmp_path, "--host", "0.0.0.0", "--speed", "0.05") as (m, _):
        port = m.group(1).rsplit(":", 1)[1]  # "PORT/"
        local = f"http://127.0.0.1:{port}api/qr.svg?role=spectator"
        codes = []
        for _ in range(2):  # at once, as the kiosk asks, then again
            with urllib.request.urlopen(local, timeout=60) as r:
                codes.append(decode(r.read().decode(), zbarimg, tmp_path))
    assert codes[0] == codes[1], codes
    assert "127.0.0.1" not in codes[0] and codes[0].endswith(f":{port}"), codes
