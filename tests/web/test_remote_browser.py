"""Issue 28, done when: a remote seat in headless Chromium plays a whole game against a
simulated real board (``keezbord run --simulate --remote-seats 1``), whose simulated
people carry out its lit moves by following the LEDs only; one of them is carried out
wrong (``--mistakes 1``), flagged with the restore LEDs and put right, and the remote
player's move then stands as chosen."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from keezbord.host.journal import Journal

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _start(folder: Path, *args: str) -> tuple[subprocess.Popen[str], str, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KEEZBORD_")}
    env["XDG_DATA_HOME"] = str(folder / "xdg")
    env["KEEZBORD_SYSTEM_CONFIG"] = str(folder / "none.toml")
    proc = subprocess.Popen(
        [sys.executable, "-m", "keezbord", "run", "--host", "127.0.0.1", "--port", "0", *args],
        cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("keezbord run: http://"):
            threading.Thread(target=_drain, args=(proc.stdout, lines), daemon=True).start()
            return proc, line.split()[2].rstrip("/"), lines
    raise AssertionError(f"no banner: {lines}")


def _drain(out: Any, lines: list[str]) -> None:
    for line in out:
        lines.append(line.rstrip("\n"))


def _lit_then_flagged(db: Path) -> list[str]:
    """The lit moves carried out wrong first, flagged, and then accepted as lit."""
    with Journal(db, readonly=True) as j:
        gid = j.latest_game("simulated")
        assert gid is not None
        decisions = j.decisions(gid)
    out, lit, flagged = [], None, False
    for d in decisions:
        if d["type"] == "lit":
            lit, flagged = d["move"], False
        elif d["type"] == "illegal" and lit is not None:
            flagged = True
        elif d["type"] == "move":
            if lit is not None and flagged and d["move"] == lit:
                out.append(lit)
            lit, flagged = None, False
    return out


def test_a_remote_seat_plays_a_whole_game_in_chromium(browser: Any, tmp_path: Path) -> None:
    (tmp_path / "board.toml").write_text(
        '[board]\nseats = 2\n[files]\njournal = "board.sqlite"\n[remote]\nseats = [1]\n'
    )
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    proc, url, lines = _start(
        tmp_path, "--simulate", "5", "--speed", "0.1", "--mistakes", "1",
        "--state-dir", str(state_dir),
    )  # fmt: skip
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    chosen: list[str] = []
    flags_seen = 0
    try:
        token = json.loads((state_dir / "tokens.json").read_text())["seats"]["1"]
        page.goto(f"{url}/?token={token}&lang=en")
        page.wait_for_selector("#role:has-text('Remote')")
        assert "token=" not in page.url  # taken out of the address bar
        # Every state the page draws, not only those the loop below happens to read (the
        # simulated people put a flagged move right within a few of the page's frames).
        page.evaluate(
            "() => { window.flagsDrawn = 0; window.keezbord.onState.push("
            "s => { if (s.flag && s.remote && s.remote.lit) window.flagsDrawn++; }); }"
        )
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            st = page.evaluate("window.keezbord.state")
            if st and st["winner"] is not None:
                break
            if st and st["flag"] is not None and st["remote"]["lit"] is not None:
                flags_seen += 1
            if page.is_visible("#remote-discard"):
                page.click("#remote-discard")
            elif page.locator("#remote .cards .card:not([disabled])").count():
                page.locator("#remote .cards .card:not([disabled])").first.click()
                page.wait_for_selector("#remote-moves .move", timeout=10_000)
                move = page.locator("#remote-moves .move").first
                chosen.append(str(move.get_attribute("data-move")))
                made = len(st["history"]) if st else 0
                move.click()
                # Carried out at the table: seen being carried, or already taken (the
                # simulated people's move is judged as soon as their hands are off).
                page.wait_for_function(
                    "n => document.querySelector('#remote .carrying') !== null"
                    " || window.keezbord.state.history.length > n",
                    arg=made,
                    timeout=10_000,
                )
            page.wait_for_timeout(150)
        st = page.evaluate("window.keezbord.state")
        flags_seen += page.evaluate("window.flagsDrawn")
        assert st["winner"] is not None, lines[-20:]
        # The remote seat's moves are exactly the ones it chose, in order.
        played = [h["move"] for h in st["history"] if h["seat"] == 1]
        assert played == chosen and len(played) >= 10
        assert page.is_visible("#remote-info")
    finally:
        page.context.close()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    fixed = _lit_then_flagged(tmp_path / "board.sqlite")
    assert len(fixed) == 1  # the one wrong execution: flagged, put right, then accepted
    assert fixed[0] in chosen
    assert flags_seen >= 1  # and the remote player's page showed the flag meanwhile
