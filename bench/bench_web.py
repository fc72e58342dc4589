"""Web page figures: page load to playable, card tap to confirmation, lift to lit targets
(click-to-LED), on a desktop viewport and on a phone viewport (390x844) with 4x CPU
slowdown (Chromium's CDP Emulation.setCPUThrottlingRate), and host memory.

Starts ``keezbord sim`` in a subprocess (all seats human, a seed whose first player holds
a card that brings a pawn out), opens the referee's link it prints, drives Debian's
headless Chromium with Playwright, and prints the figures. The host's CPU per move with a
long history is bench/bench_push.py.
Run: .venv/bin/python bench/bench_web.py [--clicks 30] [--taps 10]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from proc_memory import memory_mb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from conftest import CHROMIUM, CHROMIUM_ARGS
from web_helpers import opening_seed

CLICK_TO_LED = """async ([lift]) => {
  const g = document.querySelector(".hole[data-hole='T0']");
  const want = lift ? "target" : "turn";
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (g.dataset.led === want) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(g, { attributes: true, attributeFilter: ["data-led"] });
  });
  document.querySelector(".hole[data-hole='N0.1']").dispatchEvent(
      new MouseEvent("click", { bubbles: true }));
  return await done;
}"""


CARD_TAP = """async ([card]) => {
  const played = document.getElementById("played");
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (played.textContent) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(played, { childList: true, characterData: true, subtree: true });
  });
  document.querySelector(`.card[data-card='${card}']`).click();
  return await done;
}"""

NEW_GAME = """([seed]) => send({type: "new_game", seed, seats: 4, profile: "standard",
    hints: "targets", players: ["human", "human", "human", "human"]})"""
EMPTY_PLAYED = "() => !document.getElementById('played').textContent"

VIEWPORTS = {
    "desktop 1366x768": ({"width": 1366, "height": 768}, 1),
    "phone 390x844, 4x CPU slowdown": ({"width": 390, "height": 844}, 4),
}


def stats(xs: list[float]) -> str:
    xs = sorted(xs)
    return (
        f"median {statistics.median(xs):.1f} ms, p90 {xs[int(len(xs) * 0.9)]:.1f} ms, "
        f"max {xs[-1]:.1f} ms ({len(xs)})"
    )


def measure(
    browser: Any,
    url: str,
    seed: int,
    card: str,
    viewport: dict[str, int],
    rate: int,
    clicks: int,
    taps: int,
) -> dict[str, list[float]]:
    """The three figures on one viewport at one CPU slowdown (1: none)."""
    ctx = browser.new_context(
        viewport=viewport, is_mobile=viewport["width"] < 500, has_touch=viewport["width"] < 500
    )
    out: dict[str, list[float]] = {"load": [], "tap": [], "lift": []}
    try:
        for i in range(5):
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            t0 = time.perf_counter()
            page.goto(url)
            page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")  # playable
            out["load"].append((time.perf_counter() - t0) * 1000)
            if i < 4:
                page.close()
        for _ in range(taps):  # tap the card; the referee confirms it ("Played: K")
            out["tap"].append(page.evaluate(CARD_TAP, [card]))
            page.evaluate(NEW_GAME, [seed])  # the same deal again (the referee's link may)
            page.wait_for_function(EMPTY_PLAYED)
            page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
        page.evaluate(CARD_TAP, [card])
        for _ in range(clicks):
            out["lift"].append(page.evaluate(CLICK_TO_LED, [True]))  # lift: the target lights
            page.evaluate(CLICK_TO_LED, [False])  # put it back: the target goes dark
        page.evaluate(NEW_GAME, [seed])
        page.wait_for_function(EMPTY_PLAYED)
    finally:
        ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clicks", type=int, default=30)
    ap.add_argument("--taps", type=int, default=10)
    args = ap.parse_args()
    seed, card = opening_seed()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = Path(tempfile.mkdtemp()) / "bench.sqlite"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "keezbord",
            "sim",
            "--no-browser",
            "--port",
            str(port),
            "--db",
            str(db),
            "--seed",
            str(seed),
            "--bots",
            "human,human,human,human",
            "--new",
            "--lang",
            "en",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = ""
        assert proc.stdout is not None
        for line in proc.stdout:  # the banner's referee link (new tokens at every start)
            if line.startswith("referee (control): "):
                url = line.split(": ", 1)[1].strip()
                break
        if not url:
            raise RuntimeError("keezbord sim did not print the referee's link")
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=0.5).read()
                break
            except OSError:
                time.sleep(0.05)
        rss_idle = memory_mb(proc.pid)[0]
        figures = {}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, (viewport, rate) in VIEWPORTS.items():
                figures[name] = measure(
                    browser, url, seed, card, viewport, rate, args.clicks, args.taps
                )
            rss_busy = memory_mb(proc.pid)[0]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    for name, f in figures.items():
        print(f"{name}:")
        print(f"  page load to playable (card enabled): {stats(f['load'])}")
        print(f'  card tap to confirmation ("Played" shown): {stats(f["tap"])}')
        print(f"  lift to lit targets (click -> LED on the page): {stats(f['lift'])}")
    print(f"host RSS: {rss_idle:.1f} MB idle, {rss_busy:.1f} MB after the clicks")


if __name__ == "__main__":
    main()
